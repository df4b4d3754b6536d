"""The Project Assassination heuristic: legal, view-only, sensible, and far stronger than random."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.heuristic import policy_for
from intrigue.bots.heuristics.project_assassination import choose
from intrigue.bots.match import bot_move
from intrigue.engine import Rng
from intrigue.games.project_assassination.board import CELL, ENEMY_STATS
from intrigue.games.project_assassination.rules import AssassinationState, Enemy, Weapon
from intrigue.lab.arena import run_arena

GAME = intrigue.load("project-assassination")
P1, P2 = 0, 1


def decide(state: AssassinationState, seed: int = 0) -> str:
    (seat,) = state.to_move
    action = choose(state.view(seat), state.legal_actions(seat), Rng(seed))
    assert action in state.legal_actions(seat)
    return str(action)


def bare(**options: object) -> AssassinationState:
    """Player 1 (seat 0) to move on a board without obstacles, enemies or cards."""
    state = GAME.new(players=2, seed=3, first_player=0, **options)
    assert isinstance(state, AssassinationState)
    state.obst = [False] * 49
    state.enemies = {}
    state.loose = {}
    state._cache = None
    return state


def put(state: AssassinationState, seat: int, cell: str) -> None:
    state.pos[seat] = CELL[cell]
    state._cache = None


def enemy(state: AssassinationState, cell: str, kind: str, hp: int | None = None) -> None:
    state.enemies[CELL[cell]] = Enemy(kind, ENEMY_STATS[kind].hp if hp is None else hp)
    state._cache = None


def test_registered_as_the_games_heuristic():
    assert policy_for("project-assassination") is choose
    assert make_bot("heuristic").name == "heuristic"


@pytest.mark.parametrize("opponent", ["heuristic", "random"])
def test_only_legal_actions_over_whole_games(opponent):
    bots = {"heuristic": make_bot("heuristic"), "random": make_bot("random")}
    for seed in range(12):
        names = ["heuristic", opponent] if seed % 2 else [opponent, "heuristic"]
        state = GAME.new(players=2, seed=seed, max_turns=120)
        rng = Rng(seed)
        while not state.is_over:
            (seat,) = state.to_move
            legal = state.legal_actions(seat)
            action = bots[names[seat]].choose(state.view(seat), legal, rng)
            assert action in legal
            state.apply(seat, action)
        assert state.is_over


def test_beats_the_random_bot_clearly():
    result = run_arena(
        "project-assassination", ["heuristic", "random"], 40, options={"max_turns": 60}
    )
    heuristic = result.by_bot["heuristic"]
    assert heuristic.games == 40
    # 40 of 40 when written; a Wilson lower bound above 3/4 leaves a wide margin
    assert heuristic.rate >= 0.9 and heuristic.interval[0] > 0.75


@pytest.mark.parametrize("steps", [0, 5, 17, 40])
def test_decision_is_unchanged_when_the_hidden_deck_order_is_resampled(steps):
    state = GAME.new(players=2, seed=21, max_turns=80)
    rng = random.Random(steps)
    for _ in range(steps):
        if state.is_over:
            break
        (seat,) = state.to_move
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    if state.is_over:
        pytest.skip("the game ended early")
    (seat,) = state.to_move
    sample = state.determinize(seat, Rng(99))
    bot = make_bot("heuristic")
    assert bot_move(bot, state, seat, Rng(4)) == bot_move(bot, sample, seat, Rng(4))


# -- sensible choices -------------------------------------------------------------------------


def test_shoots_an_enemy_it_can_kill():
    state = bare()
    put(state, P1, "d4")
    enemy(state, "d3", "heavy", hp=1)
    enemy(state, "g6", "grunt")
    assert decide(state) == "shoot 2 d3"


def test_shoots_the_rival_for_the_last_vp():
    state = bare()
    put(state, P1, "d4")
    put(state, P2, "e4")
    enemy(state, "d3", "grunt", hp=1)
    state.vp[P1] = 11
    assert decide(state) in {"shoot 2 e4", "shoot 2 d3"}  # both are the 12th VP


def test_never_walks_into_a_deadly_range():
    state = bare()
    put(state, P1, "c2")
    state.hp[P1] = 3
    enemy(state, "d3", "grunt")
    state.loose = {CELL["e2"]: "uzi"}  # the prize lies behind the grunt's reach
    state._cache = None
    for seed in range(10):
        assert decide(state, seed) not in {"move d2", "move c3"}


def test_walks_to_a_weapon_lying_nearby():
    state = bare()
    put(state, P1, "a4")
    state.loose = {CELL["b4"]: "uzi"}
    state._cache = None
    assert decide(state) == "move b4"


def test_draws_a_collectible_when_it_may():
    state = bare()
    state.apply(P1, "end")
    assert decide(state) == "draw collectible"


def test_keeps_the_two_best_weapons():
    state = bare()
    put(state, P1, "c4")
    state.slots[0:2] = [Weapon("uzi"), Weapon("paralysis_pistol")]
    state.loose = {CELL["d4"]: "sniper"}
    state._cache = None
    state.apply(P1, "move d4")
    assert state.phase == "choice"
    assert decide(state) == "replace 2"  # the Sniper replaces the weaker Paralysis Pistol
    state2 = bare()
    put(state2, P1, "a4")
    state2.slots[0:2] = [Weapon("uzi"), Weapon("shotgun")]
    state2.loose = {CELL["b4"]: "uzi"}
    state2._cache = None
    state2.apply(P1, "move b4")
    assert decide(state2) == "decline"


def test_grenade_spares_the_thrower_at_low_health():
    state = bare()
    put(state, P1, "a2")
    state.hp[P1] = 2
    state.points[P1] = ["grenade"]
    enemy(state, "b3", "heavy", hp=2)  # a kill worth 3 VP, more than a hit on the rival
    state._cache = None
    state.apply(P1, "move a1")
    assert state.phase == "choice"
    choice = decide(state)
    assert choice not in {"grenade a1"}  # the only block holding a1
    state.apply(P1, choice)
    assert not state.is_over and CELL["b3"] not in state.enemies  # it took the heavy instead


def test_places_enemies_in_the_rivals_way():
    state = GAME.new(players=2, seed=3, first_player=0, coins=["heads"], enemy_deck=["heavy"])
    state.apply(P1, "end")
    state.apply(P2, "end")
    assert state.phase == "placement" and state.to_move == (P1,)
    cell = CELL[decide(state).split()[1]]
    me, rival = state.pos[P1], state.pos[P2]

    def dist(a: int, b: int) -> int:
        return abs(a % 7 - b % 7) + abs(a // 7 - b // 7)

    assert dist(cell, rival) < dist(cell, me)


def turn_views(seeds: range, max_turns: int, guided: float) -> Iterator[dict[str, Any]]:
    """The mover's view at every turn-phase position of seeded games in which the heuristic
    plays a ``guided`` share of the moves and random moves the rest."""
    for seed in seeds:
        state = GAME.new(players=2, seed=seed, max_turns=max_turns)
        rng = random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_move
            view, legal = state.view(seat), state.legal_actions(seat)
            if view["phase"] == "turn":
                yield view
            guide = rng.random() < guided
            state.apply(seat, choose(view, legal, Rng(seed)) if guide else rng.choice(legal))


def test_prospects_of_every_square_match_one_search_per_square():
    """The backward search from the goals gives each square the prospects a forward search
    from that square gives (the point ends a way, never passes one on)."""
    from intrigue.bots.heuristics.project_assassination import Table

    compared = 0
    for view in turn_views(range(4), 30, guided=0.0):
        table = Table(view)
        goals = table.goals()
        everywhere = table.prospects_everywhere(goals)
        for cell in range(49):
            assert everywhere[cell] == pytest.approx(table.prospects(cell, goals), abs=1e-9)
            compared += 1
    assert compared > 1000


def test_a_remembered_plan_is_the_plan_made_afresh():
    """`Table.plan` remembers goals and prospects by the board they read; every plan it
    hands out, remembered or not, equals one made afresh from the view (the key misses
    nothing the plan depends on), over games in which most plans are remembered ones."""
    from intrigue.bots.heuristics import project_assassination as heuristic

    heuristic._PLANS.clear()
    asked = 0
    for view in turn_views(range(30), 60, guided=0.7):
        goals, potentials = heuristic.Table(view).plan()
        fresh = heuristic.Table(view)
        assert goals == fresh.goals()
        assert list(potentials) == fresh.potentials(goals)
        asked += 1
    assert asked > 1200
    assert len(heuristic._PLANS) < asked - 300  # many plans came from memory


@pytest.mark.parametrize("seed", range(4))
def test_the_table_read_from_a_state_is_the_views(seed: int) -> None:
    """The rollouts' `Table.from_state` reads what `Table(view)` reads (players, obstacles,
    enemies, loose cards, the plan's key), and the rollout policy picks the move `choose`
    picks from the view, at every step of games played half at random."""
    from intrigue.bots.heuristics import project_assassination as pa

    state = GAME.new(2, seed)
    rng = random.Random(seed)
    while not state.is_over:
        (seat,) = state.to_move
        legal = state.legal_actions(seat)
        view = state.view(seat)
        from_view, from_state = pa.Table(view), pa.Table.from_state(state, seat)
        for name in ("my", "their", "pos", "rival_pos", "obstacles", "enemies", "loose", "hp"):
            assert getattr(from_state, name) == getattr(from_view, name), name
        assert list(from_state.enemies) == list(from_view.enemies)  # cell order, both
        assert list(from_state.loose) == list(from_view.loose)
        assert from_state.plan_key() == from_view.plan_key()
        fixed = rng.getrandbits(64)
        played = pa.rollout_policy(state, seat, legal, Rng(fixed))
        assert played == choose(view, legal, Rng(fixed))
        state.apply(seat, played if rng.random() < 0.5 else rng.choice(legal))
