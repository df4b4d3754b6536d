"""Shared helpers of the conformance suite: per-game settings, snapshots, random play, checks.

Every registered game is tested; a game needs an entry in `CONFIG` only to change the defaults
(for example to make random games shorter or to fix options that cannot be drawn at random).
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import intrigue
from intrigue.engine import Action, Game, IllegalAction, InvalidAction, State, game_ids


@dataclass(frozen=True)
class GameConfig:
    """How the conformance suite plays one game."""

    # Options of every test game (besides those drawn from an option's choices).
    options: dict[str, Any] = field(default_factory=lambda: {"max_turns": 3})
    # Options of the long plain-loop run (games long enough to end by the rules too).
    long_options: dict[str, Any] = field(default_factory=lambda: {"max_turns": 8})
    random_games: int = 300  # size of the plain-loop run of random games
    examples: int = 25  # hypothesis examples per property
    max_steps: int = 20_000  # a game longer than this is taken to be stuck
    # Illegal actions tried per step (all of them when the table is small enough).
    illegal_per_step: int = 400
    natural_ends: bool = False  # the long run must include games not cut off by max_turns
    setup_is_random: bool = True  # different seeds give different hidden set-ups
    # Seats hold secrets from each other, so a determinize sample for one seat can change what
    # another seat sees. False for games whose only hidden information is future chance.
    seat_secrets: bool = True
    fixed_options: tuple[str, ...] = ()  # options never drawn from their choices


CONFIG: dict[str, GameConfig] = {
    "masquerade-murder": GameConfig(
        options={"max_turns": 3},
        long_options={"max_turns": 12},
        random_games=2000,
        examples=25,
        natural_ends=True,
    ),
    # Both seats see everything; only the order of undrawn cards is hidden (RULINGS §3.2).
    "project-assassination": GameConfig(seat_secrets=False),
}

GAME_IDS = game_ids()
Snapshot = dict[str, Any]


def config(game_id: str) -> GameConfig:
    return CONFIG.get(game_id, GameConfig())


def seats(state: State) -> list[int | None]:
    """Every seat, then the spectator."""
    return [*range(state.players), None]


def drawable_options(game: Game) -> dict[str, list[Any]]:
    """Options whose values can be drawn at random: text/bool options with known choices."""
    fixed = set(config(game.id).fixed_options) | set(config(game.id).options)
    out: dict[str, list[Any]] = {}
    for opt in game.options:
        if opt.name in fixed:
            continue
        if opt.kind is bool:
            out[opt.name] = [False, True]
        elif opt.kind is str and opt.choices:
            out[opt.name] = list(opt.choices)
    return out


def new_game(
    game: Game,
    seed: int,
    pick: Callable[[list[Any]], Any],
    base: dict[str, Any] | None = None,
) -> State:
    """A new game: player count and drawable options chosen by ``pick``, ``base`` options."""
    options = dict(config(game.id).options if base is None else base)
    for name, values in drawable_options(game).items():
        options[name] = pick(values)
    return game.new(players=pick(list(game.player_counts)), seed=seed, **options)


def snapshot(state: State, events: bool = True) -> Snapshot:
    """Everything observable about a state, through the public protocol only.

    Without ``events`` only the log's length is kept: enough to see a step that changed the
    state (the log is append-only) at a cost that does not grow with the game.
    """
    outcome = state.outcome
    snap = {
        "record": state.record().to_json(),
        "rng": state.rng.state,
        "to_move": list(state.to_move),
        "is_over": state.is_over,
        "outcome": None if outcome is None else outcome.to_json(),
        "log_length": state.log_length,
        "views": {str(s): state.view(s) for s in seats(state)},
        "legal": {str(s): [str(a) for a in state.legal_actions(s)] for s in range(state.players)},
    }
    if events:
        snap["events"] = {str(s): state.events(s) for s in seats(state)}
    return snap


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """Where two JSON-like values first differ, as a readable path (None if equal)."""
    if type(a) is not type(b):
        return f"{path or '<root>'}: {a!r:.200} != {b!r:.200}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: present on one side only"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, (list, tuple)):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            return f"{path}: lengths {len(a)} != {len(b)}"
        return None
    return None if a == b else f"{path or '<root>'}: {a!r:.200} != {b!r:.200}"


def assert_same(a: Any, b: Any, what: str) -> None:
    if a == b:  # the fast path; the walk below only explains a difference
        return
    difference = first_difference(a, b) or "some value that is not equal to itself"
    raise AssertionError(f"{what} differ at {difference}")


def is_pure_json(value: Any) -> bool:
    """Whether ``value`` is made of JSON types only (so it survives a round trip unchanged).

    Tuples, sets, non-text keys, NaN and the like are refused: a client would get something
    else than what the server computed.
    """
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and is_pure_json(v) for k, v in value.items())
    if kind is list:
        return all(is_pure_json(v) for v in value)
    if kind is float:
        return math.isfinite(value)
    return kind in (str, int, bool, type(None))


# -- playing ----------------------------------------------------------------------------------
def random_steps(state: State, rng: random.Random, max_steps: int) -> Iterator[tuple[int, Action]]:
    """Play random legal actions until the end, yielding each (seat, action) before it is applied.

    The caller's loop body runs between the yield and the apply, so it sees the pre-move state.
    """
    for _ in range(max_steps):
        if state.is_over:
            return
        seat = rng.choice(state.to_move)
        action = rng.choice(state.legal_actions(seat))
        yield seat, action
        state.apply(seat, action)
    raise AssertionError(f"{state.game.id}: no end after {max_steps} steps")


def play_out(state: State, rng: random.Random, max_steps: int) -> list[tuple[int, Action]]:
    """Play random legal actions to the end; return them."""
    return list(random_steps(state, rng, max_steps))


# -- checks -----------------------------------------------------------------------------------
def check_turn(state: State) -> None:
    """Who may move and what they may do agree with each other and with the end of the game."""
    to_move = state.to_move
    assert isinstance(to_move, tuple)
    assert len(set(to_move)) == len(to_move), f"to_move repeats a seat: {to_move}"
    assert all(0 <= s < state.players for s in to_move), to_move
    assert state.is_over == (not to_move), f"is_over={state.is_over} but to_move={to_move}"
    assert state.is_over == (state.outcome is not None)
    for seat in range(state.players):
        legal = state.legal_actions(seat)
        if seat in to_move:
            assert legal, f"seat {seat} must move but has no legal action"
            assert len(set(legal)) == len(legal), f"seat {seat}: repeated legal actions"
        else:
            assert legal == [], f"seat {seat} is not to move but may play {legal[:3]}"


def check_action_forms(game: Game, actions: list[Action]) -> None:
    """Text, JSON and index forms of each action name it back exactly."""
    for action in actions:
        assert isinstance(action, Action)
        assert game.parse_action(str(action)) == action
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        index = game.action_index(action)
        assert 0 <= index < game.num_actions
        assert game.action_at(index) == action


def check_outcome(state: State) -> None:
    outcome = state.outcome
    assert outcome is not None
    assert len(outcome.returns) == state.players
    assert all(isinstance(r, (int, float)) for r in outcome.returns)
    assert list(outcome.winners) == sorted(set(outcome.winners))
    assert all(0 <= s < state.players for s in outcome.winners)
    assert isinstance(outcome.reason, str) and outcome.reason
    if outcome.scores is not None:
        assert len(outcome.scores) == state.players
    if state.options.get("max_turns") is None:
        assert not outcome.capped, "a game without max_turns reports being capped"
    for seat in seats(state):
        assert state.view(seat)["outcome"] == outcome.to_json()
        assert state.view(seat)["is_over"] is True
    for seat in range(state.players):
        assert state.legal_actions(seat) == []


def rejected(state: State, seat: Any, action: Any) -> bool:
    """Whether apply refuses the move with the protocol's errors (anything else propagates)."""
    try:
        state.apply(seat, action)
    except (IllegalAction, InvalidAction):
        return True
    return False


def cheap_fingerprint(state: State) -> tuple[Any, ...]:
    return (len(state.history), state.log_length, state.rng.state, state.to_move, state.is_over)


def check_illegal_moves_rejected(state: State, seat: int, legal: list[Action]) -> None:
    """Table actions outside ``legal`` are refused; other seats may not play ``legal``.

    Every illegal action of the table is tried when there are at most
    `GameConfig.illegal_per_step` of them, else a sample of that size that always includes
    the near misses (illegal actions sharing a verb with a legal one), drawn from a generator
    seeded by the game's seed and step so a failure reproduces.
    """
    before = cheap_fingerprint(state)
    for action in illegal_sample(state, legal):
        assert rejected(state, seat, action), f"seat {seat} could play illegal {action}"
        assert cheap_fingerprint(state) == before, f"refused {action} changed the state"
    for other in range(state.players):
        if other not in state.to_move:
            assert rejected(state, other, legal[0]), f"seat {other} moved out of turn"
    for bogus in (-1, state.players, state.players + 7):
        assert rejected(state, bogus, legal[0]), f"seat {bogus} could move"
    for garbage in ("", "  ", "no-such-verb 1", "zzzzz", 3.5, None):
        assert rejected(state, seat, garbage), f"garbage {garbage!r} was accepted"
    assert cheap_fingerprint(state) == before


def illegal_sample(state: State, legal: list[Action]) -> list[Action]:
    allowed = set(legal)
    illegal = [a for a in state.game.action_table if a not in allowed]
    limit = config(state.game.id).illegal_per_step
    if len(illegal) <= limit:
        return illegal
    verbs = {a.verb for a in legal}
    near = [a for a in illegal if a.verb in verbs]
    far = [a for a in illegal if a.verb not in verbs]
    rng = random.Random(f"{state.seed}/{len(state.history)}")
    if len(near) > limit // 2:
        near = rng.sample(near, limit // 2)
    return near + rng.sample(far, min(len(far), limit - len(near)))


def check_legal_moves_accepted(state: State, seat: int, legal: list[Action]) -> None:
    """Each legal action applies cleanly (on a clone) and is recorded as played."""
    for action in legal:
        trial = state.clone()
        trial.apply(seat, action)
        assert trial.history[-1] == (seat, action)
        assert len(trial.history) == len(state.history) + 1


def check_views_are_fresh(state: State) -> None:
    """Views and legal action lists are copies: callers may scribble on them."""
    for seat in seats(state):
        view = state.view(seat)
        kept = json.loads(json.dumps(view))
        _scribble(view)
        assert_same(state.view(seat), kept, f"view({seat}) after a caller edited one")
        # The server's read-only view (parts kept between calls) says exactly the same.
        assert_same(state.shared_view(seat), kept, f"shared_view({seat}) and view({seat})")
        if seat is not None:
            check_essentials(state, seat, kept)
    for seat in state.to_move:
        legal = state.legal_actions(seat)
        kept_legal = list(legal)
        legal.clear()
        assert state.legal_actions(seat) == kept_legal


def check_essentials(state: State, seat: int, view: dict[str, Any]) -> None:
    """`essentials` (what bots' rollouts read) is the seat's view cut down: some of its keys,
    at any depth, with its values, and nothing else (so it cannot tell more than the view)."""
    essentials = json.loads(json.dumps(state.essentials(seat)))
    assert essentials["seat"] == seat
    assert_cut_down(essentials, view, f"essentials({seat})")


def assert_cut_down(part: Any, whole: Any, where: str) -> None:
    """``part`` is ``whole`` with some dictionary keys left out, at any depth."""
    if isinstance(part, dict):
        assert isinstance(whole, dict), f"{where}: a dict where the view has {whole!r}"
        for key, value in part.items():
            assert key in whole, f"{where}.{key}: not in the view"
            assert_cut_down(value, whole[key], f"{where}.{key}")
    elif isinstance(part, list):
        assert isinstance(whole, list) and len(part) == len(whole), f"{where}: lists differ"
        for i, (a, b) in enumerate(zip(part, whole, strict=True)):
            assert_cut_down(a, b, f"{where}[{i}]")
    else:
        assert part == whole, f"{where}: {part!r} where the view has {whole!r}"


def check_event_payloads_are_fresh(state: State, since: int = 0) -> None:
    """Editing returned events, down to the lists inside them, does not rewrite the game log."""
    for seat in seats(state):
        events = state.events(seat, since)
        kept = json.loads(json.dumps(events))
        _scribble(events)
        assert_same(state.events(seat, since), kept, f"events({seat}) after a caller edited them")
        # The server's read-only events (the log's own values) say exactly the same.
        shared = json.loads(json.dumps(state.shared_events(seat, since)))
        assert_same(shared, kept, f"shared_events({seat}) and events({seat})")


def _scribble(value: Any) -> None:
    """Mutate every container inside ``value`` (depth first)."""
    if isinstance(value, dict):
        for item in value.values():
            _scribble(item)
        value["__scribbled__"] = True
        value.clear()
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("__scribbled__")
        value.clear()


def check_json(state: State, events: bool = True) -> None:
    """Views (and events, and the record) are plain JSON."""
    for seat in seats(state):
        assert is_pure_json(state.view(seat)), f"view({seat}) is not plain JSON"
        if events:
            assert is_pure_json(state.events(seat)), f"events({seat}) are not plain JSON"
    assert is_pure_json(state.record().to_json())


def check_event_streams(state: State) -> None:
    """Each seat's stream is the public stream plus its own private events, in log order."""
    public = state.events(None)
    assert not any(e.get("private") for e in public), "the spectator sees a private event"
    for seat in range(state.players):
        events = state.events(seat)
        assert all(isinstance(e, dict) and isinstance(e.get("kind"), str) for e in events)
        assert [e for e in events if not e.get("private")] == public
        assert state.events(seat, since=state.log_length) == []


def check_no_seed_in_views(state: State, since: int = 0) -> None:
    """No view or event (from log entry ``since`` on) shows the seed or the generator's state."""
    secrets = [x for x in (str(state.seed), str(state.rng.state)) if len(x) >= 10]
    for seat in seats(state):  # short numbers occur in views by chance: only long ones count
        text = json.dumps([state.view(seat), state.events(seat, since)])
        for secret in secrets:
            assert secret not in text, f"view/events of seat {seat} show {secret}"


def replay_matches(state: State) -> None:
    """The record, sent as JSON text, rebuilds exactly this state."""
    wire = json.loads(json.dumps(state.record().to_json()))
    again = intrigue.replay(wire)
    assert_same(snapshot(again), snapshot(state), "replayed and original state")
