"""bench/peek.py: one seat's wins when its search sees what it may, or everything."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

# At the end of the path: the benchmarks' names must not shadow an installed module.
sys.path.append(str(Path(__file__).resolve().parents[2] / "bench"))

import intrigue
import peek
from intrigue.engine import Rng


def _position(moves: int) -> tuple[Any, int]:
    """A three-player Shadows over Japan game (seed 4) after ``moves`` first legal moves, and
    the seat to move."""
    state = intrigue.load("shadows-over-japan").new(3, 4)
    for _ in range(moves):
        seat = state.to_move[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state, state.to_move[0]


def test_the_cheats_sample_the_true_state_or_nobles_and_the_fair_mode_does_not() -> None:
    state, seat = _position(12)
    fair = [peek._sampler(state, seat, "fair")(Rng(k)) for k in range(10)]
    assert any(sample.nobles != state.nobles for sample in fair)
    assert all(sample.view(seat) == state.view(seat) for sample in fair)
    for k in range(5):  # the Nobles cheat: the true Nobles, the rest drawn as always
        sample = peek._sampler(state, seat, "nobles")(Rng(k))
        assert sample.nobles == state.nobles and sample.view(seat) == state.view(seat)
    known = peek._sampler(state, seat, "all")(Rng(0))
    assert known is not state and known.nobles == state.nobles
    assert known.record().to_json() == state.record().to_json()
    assert known.deck == state.deck and known.honour_deck == state.honour_deck


def test_the_secrets_cheat_knows_every_hand_but_not_the_order_of_the_decks() -> None:
    state, seat = _position(12)
    samples = [peek._sampler(state, seat, "secrets")(Rng(k)) for k in range(5)]
    for sample in samples:
        assert sample.nobles == state.nobles and sample.hand == state.hand
        assert sample.nsty == state.nsty and sample.pool == state.pool
        assert sorted(sample.deck) == sorted(state.deck)
        assert sorted(sample.honour_deck) == sorted(state.honour_deck)
    assert state.deck == peek._sampler(state, seat, "all")(Rng(0)).deck  # the state untouched
    assert any(sample.deck != state.deck for sample in samples)
    assert any(sample.honour_deck != state.honour_deck for sample in samples)


def test_the_hands_and_styles_cheats_tell_the_true_hands_or_styles_and_draw_the_rest() -> None:
    state = intrigue.load("shadows-over-japan").new(3, 5)
    rng = random.Random(5)
    for _ in range(60):
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_move[0]
    others = [s for s in range(3) if s != seat]
    hidden = [p for p, owner in enumerate(state.nin) if owner in others]
    drawn = {"hands": 0, "styles": 0}
    for k in range(8):
        for mode in ("hands", "styles"):
            sample = peek._sampler(state, seat, mode)(Rng(k))
            assert sample.nobles == state.nobles and sample.view(seat) == state.view(seat)
            assert sorted(sample.deck + [c for s in others for c in sample.hand[s]]) == sorted(
                state.deck + [c for s in others for c in state.hand[s]]
            )
            hands = [sample.hand[s] for s in others] == [state.hand[s] for s in others]
            styles = [sample.nsty[p] for p in hidden] == [state.nsty[p] for p in hidden] and [
                sample.pool[s] for s in others
            ] == [state.pool[s] for s in others]
            assert hands if mode == "hands" else styles
            drawn[mode] += not (styles if mode == "hands" else hands)
    assert drawn["hands"] and drawn["styles"]  # the other half is drawn, not told


def test_the_summary_pairs_each_deal_and_counts_shared_wins_as_wins() -> None:
    rows = [
        (1, "fair", 1, 0.0),
        (1, "all", 1, 1.0),
        (2, "fair", 2, 0.5),
        (2, "all", 2, 0.5),
        (3, "fair", 0, 1.0),
        (3, "all", 0, 0.0),
        (4, "all", 1, 1.0),
    ]
    out = peek.summary(rows)
    assert (out["fair"]["won"], out["fair"]["games"]) == (2, 3)
    assert (out["all"]["won"], out["all"]["games"]) == (3, 4)
    assert (out["all against fair"]["up"], out["all against fair"]["down"]) == (1, 1)


def test_the_cheats_turn_the_reading_off_and_the_fair_mode_keeps_it() -> None:
    """A `resample` hook draws its own samples from whatever sample it is handed, which would
    make a cheat fair again: every mode but ``fair`` plays `hard` without its reading."""
    from intrigue.bots import make_bot
    from intrigue.bots.ismcts import _Search

    state, seat = _position(40)
    for mode in peek.MODES:
        reads = mode == "fair"
        bot = make_bot("hard")
        if mode != "fair":
            peek.without_reading(bot)
        search = _Search(bot, bot.hooks("shadows-over-japan"), seat, random.Random(1))
        draw = search.believing(peek._sampler(state, seat, mode))
        sample = draw(Rng(3))
        assert (search.resample is not None) is reads, mode
        if mode == "all":  # the true state itself, not a fair draw from it
            assert sample.record().to_json() == state.record().to_json()
            assert sample.nsty == state.nsty and sample.hand == state.hand
