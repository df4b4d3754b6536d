"""Set-up helpers for Project Assassination scenarios.

Scenarios start from a real new game (seat 0 is Player 1 unless told otherwise) and then put
pieces where the scenario needs them; `touch` drops the cached legal actions after such edits.
"""

from __future__ import annotations

from typing import Any

from intrigue.games.project_assassination import GAME
from intrigue.games.project_assassination.board import CELL, ENEMY_STATS
from intrigue.games.project_assassination.deck import Deck
from intrigue.games.project_assassination.rules import AssassinationState, Enemy, Weapon

P1, P2 = 0, 1


def new(seed: int = 7, first: int = 0, **options: Any) -> AssassinationState:
    state = GAME.new(players=2, seed=seed, first_player=first, **options)
    assert isinstance(state, AssassinationState)
    return state


def touch(state: AssassinationState) -> AssassinationState:
    state._cache = None
    return state


def empty_board(state: AssassinationState) -> AssassinationState:
    """No obstacles, enemies or preset collectibles left on the board."""
    state.obst = [False] * 49
    state.enemies = {}
    state.loose = {}
    return touch(state)


def put(state: AssassinationState, seat: int, cell: str) -> None:
    state.pos[seat] = CELL[cell]
    touch(state)


def enemy(state: AssassinationState, cell: str, kind: str, hp: int | None = None) -> None:
    state.enemies[CELL[cell]] = Enemy(kind, ENEMY_STATS[kind].hp if hp is None else hp)
    touch(state)


def obstacle(state: AssassinationState, cell: str, present: bool = True) -> None:
    state.obst[CELL[cell]] = present
    touch(state)


def arm(state: AssassinationState, seat: int, *weapons: str | Weapon) -> None:
    """Fill slot 1 (then 2) with these weapons; recompute the turn's attack allowance."""
    for i, w in enumerate(weapons):
        state.slots[2 * seat + i] = Weapon(w) if isinstance(w, str) else w
    state.two_slots = all(state.slots[2 * seat + i] is not None for i in (0, 1))
    touch(state)


def hp_of(state: AssassinationState, cell: str) -> int | None:
    e = state.enemies.get(CELL[cell])
    return None if e is None else e.hp


def legal(state: AssassinationState, seat: int | None = None) -> set[str]:
    if seat is None:
        (seat,) = state.to_move
    return {str(a) for a in state.legal_actions(seat)}


def play(state: AssassinationState, *texts: str) -> None:
    """Play actions for whoever is to move."""
    for text in texts:
        (seat,) = state.to_move
        state.apply(seat, text)


def kinds(state: AssassinationState) -> list[str]:
    return [e["kind"] for e in state.events(None)]


def stack(contents: tuple[str, ...], *top: str) -> list[str]:
    """A deck order (top first) starting with ``top``, then the rest of ``contents``."""
    rest = list(contents)
    for card in top:
        rest.remove(card)
    return [*top, *rest]


def finish_turn(state: AssassinationState) -> None:
    """End the current turn, and settle a placement phase with its first legal square."""
    play(state, "end")
    while state.phase == "placement":
        play(state, str(state.legal_actions(state.placer)[0]))


def next_round(state: AssassinationState) -> None:
    """From Player 1's turn to Player 1's next turn (both pass, the enemy goes anywhere)."""
    finish_turn(state)
    finish_turn(state)


def only(*cards: str) -> Deck:
    """A deck holding just these cards, top first (none: an empty deck)."""
    return Deck.build(cards, list(cards))
