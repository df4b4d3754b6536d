"""What happened in one game, gathered while it is played: which rules fired, how many moves
each decision offered, and whether public positions came round again.

`GameWatch` is fed every decision by the lab's game loop (`runner.play_one`) and describes the
finished game as a few JSON-ready fields of its row:

* ``counts``: how often each action kind and public event kind occurred, per seat. Names are
  ``action:VERB`` (``action:shoot``), ``action:VERB ARG`` for verbs with a small vocabulary of
  named arguments (cards, styles: ``action:draw jack``), ``event:KIND`` and ``event:KIND
  FIELD=VALUE`` for the naming fields of an event (``event:kill enemy=medic``). Each value is
  a list of one count per seat plus a last entry for events that name no seat.
* ``branching``: per phase, [decisions, sum of legal moves, most legal moves, decisions with a
  real choice] (Ludii's *branching factor* and *decision moves*).
* ``repetition``: the public position (the spectator's view without counters such as the turn
  number) at each change of the seats to move, and how often one recurred (Ludii's *positional
  repetition*), with what the player to move could do at a recurrence: with other moves
  available the bots chose to go round again; with one legal move the rules forced it.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from functools import cache
from typing import Any

from intrigue.engine import Action, Game, State

# Event fields that name a thing of the game (a card, a unit, a result), counted per value.
DETAIL_FIELDS = frozenset(
    {
        "card",
        "cards",
        "weapon",
        "enemy",
        "target",
        "rank",
        "ability",
        "honour",
        "noble",
        "army",
        "deck",
        "result",
        "winner",
        "how",
        "style",
        "next",
        "extra",
    }
)
# A verb whose table has at most this many actions, some with named arguments, names cards or
# kinds (``draw jack``); more are places or seats, counted by verb only.
SMALL_VOCABULARY = 12
# Spectator-view keys that count time or narrate rather than describe the position.
COUNTER_KEYS = frozenset(
    {
        "step",
        "turn",
        "turns",
        "round",
        "night",
        "nights",
        "year",
        "prompt",
        "outcome",
        "is_over",
        "max_turns",
        "to_move",
        "repeats",  # how often the position came round before (Masquerade Ball)
    }
)
# A position seen this often in one game is a loop.
LOOP = 3


@cache
def detailed_verbs(game: Game) -> frozenset[str]:
    """Verbs whose few actions name cards or kinds: counted per action as well as per verb."""
    actions: dict[str, list[Action]] = defaultdict(list)
    for action in game.action_table:
        actions[action.verb].append(action)
    return frozenset(
        verb
        for verb, table in actions.items()
        if 2 <= len(table) <= SMALL_VOCABULARY
        and any(isinstance(arg, str) for a in table for arg in a.args)
    )


def public_position(view: dict[str, Any]) -> str:
    """A digest of the spectator's view without its counters: equal for equal positions."""
    position = {k: v for k, v in view.items() if k not in COUNTER_KEYS}
    return hashlib.blake2b(repr(position).encode(), digest_size=12).hexdigest()


class GameWatch:
    """Collects one game's counts, branching and repetition, decision by decision."""

    def __init__(self, state: State) -> None:
        self.players = state.players
        self.detailed = detailed_verbs(state.game)
        self.actions: dict[str, list[int]] = {}
        # phase -> [decisions, legal moves summed, most legal moves, decisions with a choice]
        self.branching: dict[str, list[int]] = {}
        self.seen: Counter[str] = Counter()
        self.last_to_move: frozenset[int] | None = None
        self.recurring = False
        self.at_repeats = {"decisions": 0, "forced": 0, "legal": 0}
        self.loop_moves: Counter[str] = Counter()

    def decision(self, state: State, seat: int, view: dict[str, Any], legal: list[Action]) -> None:
        """Before ``seat`` decides among ``legal`` (``view`` is its view, not changed here)."""
        phase = view.get("phase")
        row = self.branching.setdefault(str(phase) if phase is not None else "-", [0, 0, 0, 0])
        row[0] += 1
        row[1] += len(legal)
        row[2] = max(row[2], len(legal))
        row[3] += len(legal) > 1
        to_move = frozenset(state.to_move)
        # A new turn when other seats are to move; in a simultaneous phase, seats that have
        # decided leave to_move, which is the same turn going on.
        if self.last_to_move is None or not to_move <= self.last_to_move:
            key = public_position(state.shared_view(None))
            self.seen[key] += 1
            self.recurring = self.seen[key] > 1
        self.last_to_move = to_move
        if self.recurring:
            self.at_repeats["decisions"] += 1
            self.at_repeats["forced"] += len(legal) == 1
            self.at_repeats["legal"] += len(legal)

    def played(self, seat: int, action: Action) -> None:
        """After the decision: ``seat`` chose ``action``."""
        self._count(self.actions, f"action:{action.verb}", seat)
        if action.verb in self.detailed:
            self._count(self.actions, f"action:{action}", seat)
        if self.recurring:
            self.loop_moves[action.verb] += 1

    def _count(self, counts: dict[str, list[int]], name: str, seat: int | None) -> None:
        row = counts.get(name)
        if row is None:
            row = counts[name] = [0] * (self.players + 1)
        row[self.players if seat is None else seat] += 1

    def finish(self, state: State) -> dict[str, Any]:
        """The row fields of the finished game."""
        counts = dict(self.actions)
        for event in state.events(None):
            self._event(counts, event)
        positions = sum(self.seen.values())
        return {
            "counts": dict(sorted(counts.items())),
            "branching": dict(sorted(self.branching.items())),
            "repetition": {
                "positions": positions,
                "distinct": len(self.seen),
                "most": max(self.seen.values(), default=0),
                **self.at_repeats,
                "moves": dict(self.loop_moves.most_common()),
            },
            "history": history_digest(state),
        }

    def _event(self, counts: dict[str, list[int]], event: dict[str, Any]) -> None:
        kind = event["kind"]
        if kind == "game_over":
            return  # the outcome is in the row already
        seat = event.get("seat")
        if not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < self.players):
            seat = None
        self._count(counts, f"event:{kind}", seat)
        for name in DETAIL_FIELDS.intersection(event):
            for value in _names(event[name]):
                self._count(counts, f"event:{kind} {name}={value}", seat)


def _names(value: Any) -> list[str]:
    """The short names in an event field: a name, or a list of names."""
    values = value if isinstance(value, list) else [value]
    return [v for v in values if isinstance(v, str) and 0 < len(v) <= 24]


def history_digest(state: State) -> str:
    """A digest of every (seat, action) played: equal for identical games of one seed."""
    text = "\n".join(f"{seat} {action}" for seat, action in state.history)
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()
