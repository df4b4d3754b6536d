"""The random bot and the bot registry."""

from __future__ import annotations

import copy
import random

import pytest

import intrigue
from intrigue.bots import Bot, RandomBot, UnknownBot, bot_names, make_bot, register_bot
from intrigue.bots import base as bots_base
from intrigue.engine import Rng

GAME = intrigue.load("masquerade-murder")


@pytest.mark.parametrize("name", ["random", "easy", " Random ", "EASY"])
def test_make_bot_knows_random_and_its_alias(name: str):
    bot = make_bot(name)
    assert isinstance(bot, RandomBot)
    assert isinstance(bot, Bot)
    assert {"random", "easy"} <= set(bot_names())


def test_make_bot_rejects_unknown_names_and_lists_the_known_ones():
    with pytest.raises(UnknownBot, match=r"known bots: .*random"):
        make_bot("grandmaster")


def test_registered_factories_and_aliases_are_used(monkeypatch):
    monkeypatch.setattr(bots_base, "_FACTORIES", dict(bots_base._FACTORIES))
    monkeypatch.setattr(bots_base, "_ALIASES", dict(bots_base._ALIASES))

    class FirstBot:
        name = "first"

        def choose(self, view, legal_actions, rng):
            return legal_actions[0]

    register_bot("first", FirstBot, aliases=("dull",))
    assert isinstance(make_bot("dull"), FirstBot)
    assert "first" in bot_names()


@pytest.mark.parametrize("make_rng", [Rng, random.Random])
def test_same_view_legal_actions_and_seed_give_the_same_choice(make_rng):
    state = GAME.new(seed=2)
    view, legal = state.view(0), state.legal_actions(0)
    bot = RandomBot()
    for seed in range(50):
        first = bot.choose(view, legal, make_rng(seed))
        # Global random state and a fresh bot make no difference: only the rng given counts.
        random.seed(seed + 1000)
        again = RandomBot().choose(copy.deepcopy(view), list(legal), make_rng(seed))
        assert first == again
        assert first in legal


def test_choices_spread_over_every_legal_action():
    state = GAME.new(seed=2)
    view, legal = state.view(0), state.legal_actions(0)
    rng = Rng(9)
    chosen = {RandomBot().choose(view, legal, rng) for _ in range(200)}
    assert chosen == set(legal)


def test_the_view_is_not_modified():
    state = GAME.new(seed=2)
    view = state.view(3)
    before = copy.deepcopy(view)
    RandomBot().choose(view, state.legal_actions(3), Rng(1))
    assert view == before


def test_random_bots_finish_whole_games_with_legal_moves_only():
    for seed in range(5):
        state = GAME.new(seed=seed, max_turns=4)
        rng = Rng(seed)
        bot = make_bot("random")
        while not state.is_over:
            for seat in state.to_move:
                legal = state.legal_actions(seat)
                action = bot.choose(state.view(seat), legal, rng)
                assert action in legal
                state.apply(seat, action)
                break
        assert state.outcome is not None


def test_no_legal_actions_is_an_error():
    with pytest.raises(ValueError, match="at least one legal action"):
        RandomBot().choose({}, [], Rng(0))
