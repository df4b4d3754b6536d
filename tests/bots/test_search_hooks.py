"""What the games' heuristic modules give the search bot: rollout policies and evaluations.

The hooks only ever see determinizations, so these tests check what they compute from one:
a rollout policy plays exactly the heuristic's move for the mover's view (it reads nothing
the view hides) and a legal one; an evaluation gives every seat a value in [-1, 1] that says
who is ahead; and search guided by them still decides the same when the hidden information
it cannot see is changed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import intrigue
from intrigue.bots import UnknownBot, make_bot
from intrigue.bots.heuristic import SearchHooks, policy_for, search_hooks
from intrigue.bots.heuristics.project_assassination import features as pa_features
from intrigue.bots.ismcts import ISMCTSBot, _Node, _Search
from intrigue.bots.match import bot_move
from intrigue.engine import Action, ActionTable, Game, Outcome, Rng, State

GAMES = {
    "masquerade-murder": {"max_turns": 8},
    "masquerade-ball": {"max_turns": 200},
    "project-assassination": {"max_turns": 30},
    "shadows-over-japan": {"max_turns": 4},
}


def positions(game_id: str, seed: int, players: int | None = None) -> list[State]:
    """Every position of one seeded game played by the heuristic, with some random moves."""
    state = intrigue.load(game_id).new(players, seed, **GAMES[game_id])
    policy = policy_for(game_id)
    assert policy is not None
    rng = random.Random(seed)
    seen = []
    while not state.is_over:
        seen.append(state.clone())
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        if rng.random() < 0.25:
            action = rng.choice(legal)
        else:
            action = policy(state.view(seat), legal, Rng(rng.getrandbits(64)))
        state.apply(seat, action)
    return seen


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_game_offers_a_policy_an_evaluation_and_settings(game_id: str) -> None:
    hooks = search_hooks(game_id)
    assert hooks.policy is not None and hooks.evaluate is not None
    assert {"depth", "bias", "epsilon"} <= set(hooks.settings)
    assert search_hooks(game_id) is hooks  # looked up once


def test_a_game_without_heuristic_module_has_no_hooks() -> None:
    assert search_hooks("no-such-game") == SearchHooks()


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        ("masquerade-murder", None),
        ("masquerade-ball", 2),
        ("masquerade-ball", 3),
        ("masquerade-ball", 4),
        ("project-assassination", None),
        ("shadows-over-japan", 2),
        ("shadows-over-japan", 3),
    ],
)
def test_rollout_policy_plays_the_heuristic_move_for_the_view(
    game_id: str, players: int | None
) -> None:
    """Same move as the heuristic on the mover's view, for the same generator: whatever the
    policy reads from the state, it uses only what that view shows."""
    policy, choose = search_hooks(game_id).policy, policy_for(game_id)
    assert policy is not None and choose is not None
    checked = 0
    for seed in range(2):
        for n, state in enumerate(positions(game_id, seed, players)):
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            action = policy(state, seat, legal, Rng(n))
            assert action in legal
            assert action == choose(state.view(seat), legal, Rng(n))
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_evaluation_gives_every_seat_a_value_in_range(game_id: str) -> None:
    evaluate = search_hooks(game_id).evaluate
    assert evaluate is not None
    spread = set()
    for state in positions(game_id, 3):
        values = evaluate(state)
        assert len(values) == state.players
        assert all(-1.0 <= v <= 1.0 for v in values)
        spread.add(round(values[0], 3))
    assert len(spread) > 3  # it does look at the position


@pytest.mark.parametrize("game_id", ["masquerade-ball", "project-assassination"])
def test_two_player_evaluations_are_zero_sum(game_id: str) -> None:
    evaluate = search_hooks(game_id).evaluate
    assert evaluate is not None
    for state in positions(game_id, 5)[::7]:
        first, second = evaluate(state)
        assert first == pytest.approx(-second)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_evaluation_is_a_function_of_the_determinization(game_id: str) -> None:
    """A sample and its replay from the record are the same game: same values."""
    evaluate = search_hooks(game_id).evaluate
    assert evaluate is not None
    for n, state in enumerate(positions(game_id, 4)[::11]):
        seat = state.to_move[0]
        sample = state.determinize(seat, Rng(n))
        assert evaluate(intrigue.replay(sample.record())) == evaluate(sample)


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_evaluation_favours_the_winner_late_in_the_game(game_id: str) -> None:
    """Just before the end, the eventual winner is valued above the average seat."""
    evaluate = search_hooks(game_id).evaluate
    assert evaluate is not None
    right = decided = 0
    for seed in range(20, 36):
        seen = positions(game_id, seed)
        final = seen[-1].clone()
        policy = policy_for(game_id)
        assert policy is not None
        seat = final.to_move[0]
        final.apply(seat, policy(final.view(seat), final.legal_actions(seat), Rng(0)))
        outcome = final.outcome
        if outcome is None or not outcome.winners or len(outcome.winners) == final.players:
            continue
        values = evaluate(seen[max(0, len(seen) - 4)])
        mean = sum(values) / len(values)
        decided += 1
        right += all(values[w] > mean for w in outcome.winners)
    assert decided >= 5
    assert right / decided >= 0.6


def test_project_assassination_features_see_a_vp_lead() -> None:
    state = intrigue.load("project-assassination").new(2, 1, max_turns=30)
    before = search_hooks("project-assassination").evaluate(state)  # type: ignore[misc]
    state.vp[0] = 6  # type: ignore[attr-defined]
    state.turns = 20  # type: ignore[attr-defined]
    after = search_hooks("project-assassination").evaluate(state)  # type: ignore[misc]
    assert after[0] > before[0] and after[1] < before[1]
    assert pa_features(state, 0)[0] == 6 == -pa_features(state, 1)[0]


@pytest.mark.parametrize("level", ["hard", "expert"])
@pytest.mark.parametrize(
    ("game_id", "players", "steps"),
    [
        ("masquerade-ball", 2, 30),
        ("project-assassination", 2, 25),
        ("shadows-over-japan", 2, 40),
        ("shadows-over-japan", 3, 60),
    ],
)
def test_guided_search_is_blind_to_hidden_information(
    game_id: str, players: int, steps: int, level: str
) -> None:
    """Scrambling what the seat cannot see changes neither its view nor the decision (both
    search levels; `expert` with its trained evaluation where the game ships one)."""
    state = positions(game_id, 7, players)[steps]
    seat = state.to_move[0]
    scrambled = state.determinize(seat, Rng(99))
    assert scrambled.view(seat) == state.view(seat)
    bot = make_bot(f"{level}:iterations=30")
    real = bot_move(bot, state, seat, Rng(4))
    assert real == bot_move(bot, scrambled, seat, Rng(4))
    assert real in state.legal_actions(seat)
    assert bot_move(bot, state, seat, Rng(4)) == real  # and reproducible


@pytest.mark.parametrize("rollout", ["heuristic", "random"])
def test_both_rollout_kinds_play_legal_moves(rollout: str) -> None:
    state = positions("project-assassination", 2)[12]
    seat = state.to_move[0]
    bot = make_bot(f"ismcts:iterations=20:rollout={rollout}")
    assert bot_move(bot, state, seat, Rng(1)) in state.legal_actions(seat)
    assert bot.last_iterations == 20  # type: ignore[attr-defined]


def test_an_unknown_rollout_kind_is_refused() -> None:
    with pytest.raises(UnknownBot, match="rollout"):
        make_bot("ismcts:rollout=psychic")


def test_an_unknown_opponent_model_is_refused() -> None:
    with pytest.raises(UnknownBot, match="opponents"):
        make_bot("ismcts:opponents=mindreader")


def seats_in_tree(node: _Node) -> set[int]:
    found = set()
    for child in node.children.values():
        found |= {child.seat} | seats_in_tree(child)
    return found


@pytest.mark.parametrize(("opponents", "only_ours"), [("policy", True), ("tree", False)])
def test_policy_opponents_leave_only_our_decisions_in_the_tree(
    opponents: str, only_ours: bool
) -> None:
    """In the target phase the other seats' hidden choices stay out of the tree."""
    state = positions("masquerade-murder", 1)[0]
    seat = 2
    bot = ISMCTSBot(iterations=80, opponents=opponents)
    search = _Search(bot, search_hooks("masquerade-murder"), seat, random.Random(3))
    for n in range(bot.iterations):
        search.iterate(state.determinize(seat, Rng(n)))
    seats = seats_in_tree(search.root)
    assert seat in seats
    assert (seats == {seat}) is only_ours


def edge(visits: int, results: list[float]) -> _Node:
    node = _Node(0)
    node.visits = visits
    node.total = sum(results)
    node.squares = sum(r * r for r in results)
    return node


@pytest.mark.parametrize(
    ("margin", "other_results", "expected"),
    [
        (0.0, [0.6, 0.5] * 10, "end"),  # no margin: the most visited move
        (1.0, [0.8, 0.3] * 10, "draw item"),  # barely better: keep the policy's move
        (1.0, [1.0, 0.9] * 10, "end"),  # clearly better: take it
    ],
)
def test_a_margin_keeps_the_policy_move_unless_another_is_clearly_better(
    margin: float, other_results: list[float], expected: str
) -> None:
    bot = ISMCTSBot(margin=margin)
    search = _Search(bot, search_hooks("project-assassination"), 0, random.Random(0))
    end, draw = Action("end"), Action("draw", "item")
    search.root.children = {
        end: edge(20, other_results),
        draw: edge(12, [0.6, 0.4] * 6),
    }
    assert str(search.decide([draw, end], default=draw)) == expected


class _LongWait(Game):
    """Seat 0 picks once; then seat 1 waits ``WAIT`` moves and the game ends, a draw."""

    id = "long-wait"
    name = "Long wait"
    player_counts = (2,)
    action_table = ActionTable([Action("pick", 1), Action("pick", 2), Action("wait")])


WAIT = 500


class _LongWaitState(State):
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.is_over:
            return ()
        return (0,) if self.actions_played == 0 else (1,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        table = list(self.game.action_table)
        return table[:2] if seat == 0 else table[2:]

    def _apply(self, seat: int, action: Action) -> None:
        if self.actions_played > WAIT:
            self._finish(Outcome.win_loss(self.players, set(), "waited"))

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {}

    def determinize(self, seat: int, rng: Rng) -> State:
        return self.clone()


_LongWait.state_class = _LongWaitState


@pytest.mark.parametrize(("depth", "most"), [(4, 1 + 4 * 4 + 4), (0, 2 + WAIT)])
def test_the_descent_plays_at_most_a_few_depths_of_other_seats_moves(depth: int, most: int) -> None:
    """Once our seat has no decision in sight (a four-player ball's conquered seat), the tree's
    descent stops after four rollout depths of the others' moves and the rollout goes on from
    there, instead of playing the rest of the game in every iteration; with no depth (rollouts
    to the end) nothing changes."""
    state = _LongWait().new(2, seed=1)
    hooks = SearchHooks(policy=lambda s, seat, legal, rng: legal[0], evaluate=lambda s: [0.0, 0.0])
    bot = ISMCTSBot(iterations=6, depth=depth, opponents="policy", rollout_limit=2 * WAIT)
    search = _Search(bot, hooks, 0, random.Random(1))
    played = []
    for _ in range(bot.iterations):
        sample = state.determinize(0, Rng(0))
        search.iterate(sample)
        played.append(sample.actions_played)
    assert max(played) == most


def test_a_line_stops_where_our_seat_is_beaten_and_is_scored_there() -> None:
    """With a `beaten` hook and a rollout depth, the descent stops at the first position where
    our seat is out for good and the rollout plays nothing more: the line ends there, in every
    iteration, and scores lost for our seat whatever the evaluation says."""
    state = _LongWait().new(2, seed=1)
    scored: list[int] = []

    def evaluate(sample: State) -> list[float]:
        scored.append(sample.actions_played)
        return [0.5, 0.5]

    hooks = SearchHooks(
        policy=lambda s, seat, legal, rng: legal[0],
        evaluate=evaluate,
        beaten=lambda s, seat: seat == 0 and s.actions_played >= 3,
    )
    bot = ISMCTSBot(iterations=6, depth=4, opponents="policy", rollout_limit=2 * WAIT)
    search = _Search(bot, hooks, 0, random.Random(1))
    for _ in range(bot.iterations):
        search.iterate(state.determinize(0, Rng(0)))
    # Our pick, then two of the other seat's moves: out from the third move on.
    assert scored == [3] * bot.iterations
    assert all(child.total == 0.0 for child in search.root.children.values())


def test_a_rollout_stops_where_our_seat_is_beaten() -> None:
    """The rollout itself stops at the move that puts our seat out, short of its depth."""
    state = _LongWait().new(2, seed=1)
    state.apply(0, Action("pick", 1))
    hooks = SearchHooks(
        policy=lambda s, seat, legal, rng: legal[0],
        evaluate=lambda s: [0.25, -0.25],
        beaten=lambda s, seat: s.actions_played >= 5,
    )
    bot = ISMCTSBot(iterations=1, depth=16, opponents="policy")
    search = _Search(bot, hooks, 0, random.Random(1))
    assert search._rollout(state) == [-1.0, -0.25]
    assert state.actions_played == 5
    # Without a depth (rollouts to the end) the evaluation is not used, nor the hook.
    unlimited = _Search(ISMCTSBot(iterations=1, depth=0), hooks, 0, random.Random(1))
    again = _LongWait().new(2, seed=1)
    again.apply(0, Action("pick", 1))
    unlimited._rollout(again)
    assert again.is_over
