"""Secrets (RULINGS §4.2): what each seat sees, and determinize's samples (SJ-38)."""

from __future__ import annotations

import random
from collections import Counter

from sj_helpers import GAME, pv
from sj_invariants import check_invariants

from intrigue.engine import Rng
from intrigue.games.shadows_over_japan.data import INDEX, NOBLE_INDEX
from intrigue.games.shadows_over_japan.rules import JapanState

SINGLE = ["yamato", "iga", "ise", "owari", "kawachi", "izumi"]
SINGLE += ["settsu", "tamba", "harima", "bizen", "bingo", "aki"]
DOUBLE = ["sado", "oki", "iki", "tsushima"]


def duel_game(styles_1: tuple[str, str, str]) -> JapanState:
    """2 players; seat 0 (Oda) has ninjas in Kaga, Mutsu, Tosa; seat 1 (Date) in Hida, Satsuma,
    Osumi. Seat 0 placed stone, scissor, paper; seat 1 the given styles."""
    ninjas = ["kaga", "mutsu", "tosa", "hida", "satsuma", "osumi"]
    state = GAME.new(
        players=2,
        seed=99,
        nobles=["oda", "date"],
        markers=["1", "2"],
        deck=SINGLE + DOUBLE + ninjas,
    )
    for style in ("stone", "scissor", "paper"):
        state.apply(0, f"style {style}")
    for style in styles_1:
        state.apply(1, f"style {style}")
    assert isinstance(state, JapanState)
    return state


def test_views_hide_nobles_hands_and_concealed_styles() -> None:
    state = duel_game(("paper", "stone", "stone"))
    mine, theirs = state.view(0), state.view(1)
    assert pv(mine, "hida")["ninja"]["style"] is None
    assert pv(theirs, "hida")["ninja"]["style"] == "paper"
    assert mine["players"][1]["noble"] is None and theirs["you"]["noble"] == "date"
    assert mine["players"][1]["hand_size"] == 3 and "hand" not in mine["players"][1]
    assert mine["you"]["hand"] != theirs["you"]["hand"]
    private = [e for e in state.events(0) if e.get("private")]
    assert all(e["kind"] in ("noble", "placed_style", "hand", "cards") for e in private)
    assert not any(e.get("private") for e in state.events(None))


def test_a_fight_reveals_both_styles_to_everyone() -> None:
    state = duel_game(("paper", "stone", "stone"))
    state.apply(0, "move kaga hida")  # stone loses to paper
    assert pv(state.view(None), "hida")["ninja"] == {
        "seat": 1,
        "revealed": True,
        "style": "paper",
        "infiltrating": False,
    }
    assert state.nin[INDEX["kaga"]] == -1


def sampled_styles(state: JapanState, seat: int, keys: list[str], n: int = 60) -> Counter:
    counts: Counter = Counter()
    rng = random.Random(1)
    for _ in range(n):
        sample = state.determinize(seat, rng)
        assert sample.view(seat) == state.view(seat)
        check_invariants(sample)
        counts[tuple(sample.nsty[INDEX[k]] for k in keys)] += 1
    return counts


def test_samples_respect_the_two_of_each_style_limit() -> None:
    state = duel_game(("paper", "stone", "stone"))
    counts = sampled_styles(state, 0, ["hida", "satsuma", "osumi"])
    assert len(counts) > 5  # many deals are possible ...
    assert all(Counter(styles).most_common(1)[0][1] <= 2 for styles in counts)  # ... never 3


def test_samples_keep_revealed_styles_and_what_they_imply() -> None:
    state = duel_game(("stone", "scissor", "scissor"))
    state.apply(0, "move mutsu dewa")
    state.apply(0, "move kaga hida")  # seat 0's stone ties seat 1's stone: both revealed
    counts = sampled_styles(state, 0, ["hida", "satsuma", "osumi"])
    assert all(styles[0] == 0 for styles in counts)
    assert len({styles[1:] for styles in counts}) > 2


def test_samples_follow_substitutions() -> None:
    ninjas = ["kaga", "mutsu", "tosa", "hida", "etchu", "osumi"]
    state = GAME.new(
        players=2,
        seed=99,
        nobles=["oda", "date"],
        markers=["1", "2"],
        deck=SINGLE + DOUBLE + ninjas,
    )
    for style in ("stone", "scissor", "paper"):
        state.apply(0, f"style {style}")
    for style in ("stone", "scissor", "paper"):
        state.apply(1, f"style {style}")
    state.apply(0, "move kaga hida")  # stone vs stone: a tie, both revealed
    while state.current == 0:
        state.apply(0, str(state.legal_actions(0)[0]) if state.phase == "discard" else "end")
    before = sampled_styles(state, 0, ["hida", "etchu"])
    assert all(styles[0] == 0 for styles in before)
    state.apply(1, "substitute hida etchu swap")  # hidden: did it swap?
    after = sampled_styles(state, 0, ["hida", "etchu"])
    assert all(0 in styles for styles in after)  # the stone is in one of the two
    assert any(styles[0] != 0 for styles in after) and any(styles[1] != 0 for styles in after)


def test_samples_redraw_nobles_within_what_claims_rule_out() -> None:
    state = GAME.new(players=3, seed=4, nobles=["oda", "takeda", "date"])
    while state.phase == "setup":
        state.apply(state.current, str(state.legal_actions(state.current)[0]))
    state.not_noble[1] = 1 << NOBLE_INDEX["tokugawa"]
    seen = Counter()
    rng = Rng(5)
    for _ in range(60):
        sample = state.determinize(0, rng)
        assert sample.nobles[0] == NOBLE_INDEX["oda"]
        assert sample.nobles[1] != NOBLE_INDEX["tokugawa"]
        seen[sample.nobles] += 1
    assert len(seen) == 4  # seats 1, 2: Tak/Tok, Tak/Date, Date/Tok, Date/Tak
    assert all(s[1] != NOBLE_INDEX["tokugawa"] for s in seen)


def test_samples_redraw_hidden_hands_but_keep_mine() -> None:
    state = duel_game(("paper", "stone", "stone"))
    hands = set()
    rng = Rng(8)
    for _ in range(20):
        sample = state.determinize(0, rng)
        assert sample.hand[0] == state.hand[0]
        hands.add(tuple(sample.hand[1]))
        assert sample.record().to_json()["options"]["deck"]  # rebuilt from fixed chance
    assert len(hands) > 10


def test_samples_of_a_random_game_stay_consistent() -> None:
    rng = random.Random(3)
    state = GAME.new(players=4, seed=12, max_turns=6)
    step = 0
    while not state.is_over:
        seat = state.to_move[0]
        moves = state.legal_actions(seat)
        if step % 40 == 0:
            for viewer in range(4):
                sample = state.determinize(viewer, rng)
                assert sample.view(viewer) == state.view(viewer)
                assert sample.events(viewer) == state.events(viewer)
                check_invariants(sample)
        useful = [a for a in moves if a.verb != "end"]
        state.apply(seat, rng.choice(useful if useful and rng.random() < 0.85 else moves))
        step += 1
