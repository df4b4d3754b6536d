"""The heuristic and ISMCTS bots: legal, reproducible, and blind to what their seat cannot see."""

from __future__ import annotations

import random
from typing import Any

import pytest

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.heuristic import HeuristicBot
from intrigue.bots.heuristics.masquerade_murder import suspicion
from intrigue.bots.ismcts import ISMCTSBot
from intrigue.bots.match import bot_move, play_match
from intrigue.engine import Action, ActionTable, Game, Outcome, Rng, State

GAME = intrigue.load("masquerade-murder")


def advance(state: State, steps: int, seed: int) -> State:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def mid_game(seed: int, steps: int) -> State:
    return advance(GAME.new(seed=seed, max_turns=8), steps, seed)


@pytest.mark.parametrize("name", ["easy", "medium", "hard", "expert"])
def test_strength_levels_name_their_bots(name):
    expected = {"easy": "random", "medium": "heuristic", "hard": "ismcts", "expert": "expert"}[name]
    assert make_bot(name).name == expected


@pytest.mark.parametrize("steps", [0, 7, 12, 30, 45])
def test_ismcts_decision_is_unchanged_when_hidden_information_is_scrambled(steps):
    """Search sees only determinizations: scrambling other seats' secrets changes nothing."""
    state = mid_game(11, steps)
    seat = state.to_move[0]
    scrambled = state.determinize(seat, Rng(999))
    assert scrambled.view(seat) == state.view(seat)
    assert scrambled.roles != state.roles or scrambled.history != state.history or steps == 0
    bot = ISMCTSBot(iterations=60)
    real = bot_move(bot, state, seat, Rng(5))
    other = bot_move(bot, scrambled, seat, Rng(5))
    assert real == other
    assert real in state.legal_actions(seat)


@pytest.mark.parametrize("steps", [0, 9, 14, 33])
def test_heuristic_decision_is_unchanged_when_hidden_information_is_scrambled(steps):
    state = mid_game(4, steps)
    seat = state.to_move[0]
    scrambled = state.determinize(seat, Rng(3))
    bot = HeuristicBot()
    assert bot_move(bot, state, seat, Rng(8)) == bot_move(bot, scrambled, seat, Rng(8))


def test_determinize_depends_only_on_what_the_seat_knows():
    """Two states a seat cannot tell apart give identical determinizations for the same rng."""
    for seed in range(6):
        state = mid_game(seed, 20 + 9 * seed)
        for seat in range(5):
            twin = state.determinize(seat, Rng(seed + 100))
            a = state.determinize(seat, Rng(7))
            b = twin.determinize(seat, Rng(7))
            assert a.record().to_json() == b.record().to_json()


def test_ismcts_is_deterministic_for_a_seed_and_counts_its_iterations():
    state = mid_game(2, 25)
    seat = state.to_move[0]
    bot = ISMCTSBot(iterations=40, early=0)
    first = bot_move(bot, state, seat, Rng(1))
    assert bot.last_iterations == 40
    assert bot_move(bot, state, seat, Rng(1)) == first


@pytest.mark.parametrize("reuse", [1, 3])
def test_ismcts_reuses_each_sample_for_that_many_iterations(reuse):
    """With ``reuse`` the sampler is asked once per ``reuse`` iterations, each iteration plays
    its own copy (the sample itself is never played on) and the choice stays reproducible.
    (Without the game's belief, which would draw the samples itself after the first.)"""
    state = mid_game(8, 30)
    seat = state.to_move[0]
    drawn: list[State] = []

    def sampler(rng):
        sample = state.determinize(seat, rng)
        drawn.append(sample)
        return sample

    steps = []
    for _ in range(2):
        drawn.clear()
        bot = ISMCTSBot(iterations=10, reuse=reuse, belief=0)
        action = bot.choose(state.view(seat), state.legal_actions(seat), Rng(4), sampler=sampler)
        steps.append(action)
        assert bot.last_iterations == 10
        assert len(drawn) == -(-10 // reuse)
    assert steps[0] == steps[1]
    if reuse > 1:
        assert all(len(sample.history) == len(state.history) for sample in drawn)


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_a_settled_search_stops_early_and_plays_the_same_move(seed):
    """Once the most visited root move leads every other by more than the iterations left,
    the search stops (``early``, the default): the move is the one the whole budget plays.
    Seeds 2, 3 and 5 settle early; 4 does not (its last look comes too late), with the samples
    as `State.determinize` draws them (``belief=0``)."""
    state = mid_game(seed, 33)
    seat = state.to_move[0]
    quick = ISMCTSBot(iterations=120, belief=0)
    full = ISMCTSBot(iterations=120, early=0, belief=0)
    assert bot_move(quick, state, seat, Rng(2)) == bot_move(full, state, seat, Rng(2))
    assert full.last_iterations == 120
    assert (quick.last_iterations < 120) == (seed != 4)


def test_a_search_with_a_margin_runs_every_iteration():
    """A ``margin`` compares the means of two moves, which more iterations would move: no
    stopping early then."""
    state = mid_game(5, 33)
    seat = state.to_move[0]
    bot = ISMCTSBot(iterations=120, margin=0.5)
    bot_move(bot, state, seat, Rng(2))
    assert bot.last_iterations == 120


@pytest.mark.parametrize(
    ("visits", "left", "settled"),
    [
        ((30, 10, 2), 19, True),
        ((30, 10, 2), 20, False),  # ten more for the second would tie it
        ((30, 30), 0, False),  # a tie: the legal order decides, so not settled
        ((5,), 4, True),  # the other moves, never tried, have no visits
        ((5,), 5, False),
    ],
)
def test_settled_means_no_iterations_left_could_change_the_move(visits, left, settled):
    from intrigue.bots.heuristic import search_hooks
    from intrigue.bots.ismcts import _Node, _Search

    search = _Search(ISMCTSBot(), search_hooks(GAME.id), 0, random.Random(0))
    legal = [Action("target", seat) for seat in range(1, 5)]
    for action, count in zip(legal, visits, strict=False):
        search.root.children[action] = node = _Node(0)
        node.visits = count
    assert search.settled(legal, left) is settled


def test_ismcts_refuses_a_reuse_below_one():
    from intrigue.bots import UnknownBot

    with pytest.raises(UnknownBot, match="reuse"):
        make_bot("ismcts:reuse=0")


def test_ismcts_with_a_time_budget_still_returns_a_legal_move():
    state = mid_game(6, 3)
    seat = state.to_move[0]
    bot = ISMCTSBot(iterations=10**9, seconds=0.05)
    assert bot_move(bot, state, seat, Rng(1)) in state.legal_actions(seat)
    assert bot.last_iterations >= 1


def test_a_capped_search_stops_at_its_cap_after_one_iteration_at_least():
    """``cap`` ends a search that would run far longer (here a billion iterations, which the
    test would never see end); the first iteration always runs, so the move is searched."""
    state = mid_game(6, 3)
    seat = state.to_move[0]
    bot = make_bot("hard:iterations=1000000000:cap=0.000000001")
    assert isinstance(bot, ISMCTSBot) and bot.cap == 1e-9
    assert bot_move(bot, state, seat, Rng(1)) in state.legal_actions(seat)
    assert bot.last_iterations == 1
    uncapped = ISMCTSBot(iterations=12)
    bot_move(uncapped, state, seat, Rng(1))
    assert uncapped.last_iterations == 12


def test_cap_thinking_caps_searches_only_and_keeps_a_tighter_cap():
    from intrigue.bots import UnknownBot
    from intrigue.bots.ismcts import cap_thinking

    searching, tight, medium = make_bot("hard"), make_bot("hard:cap=0.2"), make_bot("medium")
    for bot in (searching, tight, medium):
        cap_thinking(bot, 1.0)
    assert searching.cap == 1.0 and tight.cap == 0.2 and not hasattr(medium, "cap")
    cap_thinking(expert := make_bot("expert"), 0.5)
    assert expert.cap == 0.5
    cap_thinking(unset := make_bot("hard"), 0)
    cap_thinking(budgeted := make_bot("hard:seconds=2"), 1.0)
    assert unset.cap is None and budgeted.cap is None
    with pytest.raises(UnknownBot, match="cap"):
        make_bot("hard:cap=0")


def test_ismcts_needs_a_sampler_for_a_real_choice():
    state = mid_game(1, 0)
    seat = state.to_move[0]
    with pytest.raises(ValueError, match="sampler"):
        ISMCTSBot().choose(state.view(seat), state.legal_actions(seat), Rng(0))


def test_ismcts_finds_the_poisoning_seat_that_wins():
    """Night 3, the Assassin places last and his twice-poisoned target sits at a1: only a seat
    beside a1 can win (the cap otherwise hands the game to Good), and search must find one."""
    state = GAME.new(
        seed=1,
        roles=["constable", "thug", "seductress", "assassin", "duke"],
        seating=["0", "1", "2", "3", "4"],
        first_cards=["ace", "two", "jack", "king", "queen"],
        max_turns=3,
    )
    for night in (1, 2, 3):
        for seat, target in enumerate([1, 0, 0, 4, 0]):
            state.apply(seat, f"target {target}")
        if night > 1:
            for seat, card in enumerate(["ace", "two", "jack", "king", "queen"]):
                state.apply(seat, f"draw {card}")
        for seat, cell in [(0, "a3"), (1, "e2"), (2, "c3"), (4, "a1")]:
            state.apply(seat, f"place {cell}")
        if night < 3:
            state.apply(3, "place b1")
    assert state.poisons[4] == 2 and state.to_move == (3,)
    action = bot_move(ISMCTSBot(iterations=300), state, 3, Rng(2))
    assert action.args[0] in {"a2", "b1"}


def test_heuristic_reads_its_own_results():
    """A Duke who read seat 2 RED no longer wants to read seat 2."""
    state = GAME.new(
        seed=1,
        roles=["constable", "thug", "seductress", "assassin", "duke"],
        first_cards=["ace", "two", "jack", "queen", "king"],
        max_turns=3,
    )
    for seat, target in enumerate([1, 0, 0, 4, 2]):
        state.apply(seat, f"target {target}")
    for seat, cell in enumerate(["a3", "e2", "b1", "d4", "a1"]):
        state.apply(seat, f"place {cell}")
    view = state.view(4)
    assert view["you"]["results"][0]["colour"] == "RED"
    scores = suspicion(view)
    assert scores[2] < max(scores.values())


def test_play_match_is_reproducible_and_legal():
    bots = [make_bot(name) for name in ("heuristic", "random", "heuristic", "random", "random")]
    first = play_match("masquerade-murder", bots, seed=3, options={"max_turns": 6})
    again = play_match("masquerade-murder", bots, seed=3, options={"max_turns": 6})
    assert first.is_over
    assert first.record().to_json() == again.record().to_json()
    assert intrigue.replay(first.record()).view(None) == first.view(None)


def test_bot_settings_follow_the_name():
    bot = make_bot("ismcts:iterations=25:exploration=0.5")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.exploration) == (25, 0.5)


@pytest.mark.parametrize(
    "name",
    ["ismcts:iterations", "ismcts:horizon=3", "random:x=1", "ismcts:early=2", "hard:belief=2"],
)
def test_bad_bot_settings_are_refused(name):
    from intrigue.bots import UnknownBot

    with pytest.raises(UnknownBot):
        make_bot(name)


class _RoundAndRound(Game):
    """A one-move game: either move ends it in a draw, but ``add 1`` comes round to a public
    position seen before (``State.repetitions``)."""

    id = "round-and-round"
    name = "Round and round"
    player_counts = (2,)
    action_table = ActionTable([Action("add", 1), Action("add", 2)])


class _RoundState(State):
    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else (0,)

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self.game.action_table) if seat in self.to_move else []

    def _apply(self, seat: int, action: Action) -> None:
        self.repetitions += action.args[0] == 1
        self._finish(Outcome.win_loss(self.players, set(), "one move", capped=True))

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {}

    def determinize(self, seat: int, rng: Rng) -> State:
        return self.clone()


_RoundAndRound.state_class = _RoundState


@pytest.mark.parametrize(("contempt", "expected"), [(0.2, "add 2"), (0.0, "add 1")])
def test_ismcts_steers_away_from_a_position_seen_before(contempt, expected):
    """Both moves are worth a draw; with contempt the one that goes round again is worse."""
    state = _RoundAndRound().new(2, seed=1)
    bot = ISMCTSBot(iterations=50, contempt=contempt)
    # Without contempt the two moves tie and the first legal one is played.
    assert str(bot_move(bot, state, 0, Rng(3))) == expected
