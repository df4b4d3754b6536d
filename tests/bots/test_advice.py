"""Advice for a First game's hints (`intrigue.bots.advice`): the medium bot's move for a seat,
from its view alone, with a reason in words where the game's heuristic has one."""

from __future__ import annotations

import re

import pytest

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.advice import ADVICE_SEED, advise
from intrigue.engine import Rng

# Games whose heuristic explains its moves, their player count here, and the verbs it always
# explains there.
EXPLAINED = {
    "project-assassination": (2, {"draw", "move", "shoot", "place", "ambush"}),
    "masquerade-ball": (2, {"inspect", "play"}),
    "masquerade-murder": (5, {"draw", "place"}),
    "shadows-over-japan": (3, {"end", "discard", "claim", "sabotage"}),
}
NOT_FOR_PEOPLE = re.compile(r"[_{}\[\]]|None|\bseat_|\bverb\b")


def _positions(game: str, players: int, seeds: range, moves: int):
    """Every position of a few random games, with the seat to move."""
    for seed in seeds:
        state = intrigue.load(game).new(players, seed)
        rng = Rng(seed + 1)
        for _ in range(moves):
            if state.is_over:
                break
            seat = state.to_move[0]
            yield state, seat
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.randrange(len(legal))])


@pytest.mark.parametrize(
    "game,players",
    [
        ("project-assassination", 2),
        ("masquerade-ball", 2),
        ("masquerade-ball", 4),
        ("masquerade-murder", 5),
        ("shadows-over-japan", 3),
    ],
)
def test_advice_is_the_medium_bots_move_with_a_readable_reason(game, players):
    explained = 0
    for state, seat in _positions(game, players, range(3), 80):
        view, legal = state.view(seat), state.legal_actions(seat)
        advice = advise(view, legal)
        assert advice.action in legal
        assert advice.action == make_bot("medium").choose(view, legal, Rng(ADVICE_SEED))
        assert advise(state.view(seat), legal) == advice  # the same view, the same advice
        if advice.reason is not None:
            assert advice.reason and len(advice.reason) <= 120, advice.reason
            assert not NOT_FOR_PEOPLE.search(advice.reason), advice.reason
            explained += 1
    if game in EXPLAINED:
        assert explained, "the heuristic gave no reason at all"


def test_every_explained_verb_gets_a_reason_when_played():
    """Each verb listed in EXPLAINED comes with its reason whenever the heuristic plays it."""
    for game, (players, verbs) in EXPLAINED.items():
        seen: set[str] = set()
        for state, seat in _positions(game, players, range(3), 120):
            advice = advise(state.view(seat), state.legal_actions(seat))
            if advice.action.verb in verbs:
                assert advice.reason, (game, advice)
                seen.add(advice.action.verb)
        assert seen == verbs, (game, seen)


def test_shadows_over_japan_explains_the_moves_of_its_own_games():
    """In games the heuristic plays itself (where steals, marches and recruits happen, which
    random play seldom reaches), every such move comes with a readable reason."""
    verbs = {"claim", "end", "march", "recruit", "sabotage", "steal"}
    seen: set[str] = set()
    bot = make_bot("medium")
    for seed in (2, 8):  # whole games with steals and marches in them
        state = intrigue.load("shadows-over-japan").new(3, seed)
        rng = Rng(seed)
        while not state.is_over:
            seat = state.to_move[0]
            view, legal = state.view(seat), state.legal_actions(seat)
            advice = advise(view, legal)
            if advice.action.verb in verbs:
                assert advice.reason, advice
                assert not NOT_FOR_PEOPLE.search(advice.reason), advice.reason
                seen.add(advice.action.verb)
            state.apply(seat, bot.choose(view, legal, rng))
    assert seen == verbs, seen
