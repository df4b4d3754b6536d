"""Restricted play: a bot that never takes a kind of action, or always prefers it, and
otherwise decides exactly like the bot it wraps."""

import pytest

from intrigue.bots import UnknownBot, make_bot
from intrigue.bots.restricted import RestrictedBot, matches
from intrigue.engine import Action, Rng, load


class Recorder:
    """Wraps a bot and keeps every (legal actions, chosen action) of one seat."""

    name = "recorder"

    def __init__(self, bot):
        self.bot = bot
        self.seen = []

    def choose(self, view, legal_actions, rng):
        action = self.bot.choose(view, legal_actions, rng)
        self.seen.append((list(legal_actions), action))
        return action


def play(game, players, seed, bots, cap):
    state = load(game).new(players, seed, max_turns=cap)
    rng = Rng(seed)
    while not state.is_over:
        for seat in state.to_move:
            if state.is_over or seat not in state.to_move:
                continue
            state.apply(seat, bots[seat].choose(state.view(seat), state.legal_actions(seat), rng))
    return state


def test_kinds_match_verbs_and_actions():
    assert matches(Action("draw", "jack"), "draw")
    assert matches(Action("draw", "jack"), "draw jack")
    assert not matches(Action("draw", "jack"), "draw joker")
    assert not matches(Action("drawn"), "draw")


def test_by_name_and_bad_settings():
    bot = make_bot("restricted:never=shoot")
    assert isinstance(bot, RestrictedBot) and bot.name == "restricted:never=shoot"
    assert make_bot("restricted:base=random:prefer=cover").parameters() == {
        "base": "random",
        "prefer": "cover",
    }
    for bad in ("restricted", "restricted:never=a:prefer=b", "restricted:base=restricted:never=x"):
        with pytest.raises(UnknownBot):
            make_bot(bad)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_never_shoot_never_shoots_while_anything_else_is_legal(seed):
    recorder = Recorder(make_bot("restricted:never=shoot"))
    play("project-assassination", 2, seed, [recorder, make_bot("heuristic")], 80)
    assert recorder.seen
    for legal, action in recorder.seen:
        if any(not matches(a, "shoot") for a in legal):
            assert action.verb != "shoot"


@pytest.mark.parametrize("seed", [1, 2])
def test_prefer_shoot_shoots_whenever_it_can(seed):
    recorder = Recorder(make_bot("restricted:prefer=shoot"))
    play("project-assassination", 2, seed, [recorder, make_bot("heuristic")], 80)
    chances = [(legal, a) for legal, a in recorder.seen if any(x.verb == "shoot" for x in legal)]
    assert chances
    assert all(action.verb == "shoot" for _, action in chances)


def test_unrestricted_decisions_are_the_wrapped_bots():
    # Where the restriction removes nothing, the restricted bot is the heuristic itself: the
    # same choice from the same view and the same random stream.
    state = load("masquerade-murder").new(5, 8, max_turns=5)
    restricted, plain = make_bot("restricted:never=swap"), make_bot("heuristic")
    compared = 0
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        one, two = Rng(compared), Rng(compared)
        chosen = restricted.choose(view, legal, one)
        if not any(a.verb == "swap" for a in legal):
            assert chosen == plain.choose(state.view(seat), legal, two)
            assert one.state == two.state
            compared += 1
        state.apply(seat, chosen)
    assert compared > 10


def test_a_policy_that_needs_a_removed_move_falls_back_to_an_allowed_one():
    # Project Assassination's heuristic ends its turn with "end", which never=end removes.
    recorder = Recorder(make_bot("restricted:never=end"))
    state = play("project-assassination", 2, 5, [recorder, make_bot("heuristic")], 40)
    assert state.is_over
    assert recorder.bot.fallbacks > 0
    for legal, action in recorder.seen:
        if any(a.verb != "end" for a in legal):
            assert action.verb != "end"
