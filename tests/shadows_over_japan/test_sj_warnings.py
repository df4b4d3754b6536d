"""Warnings before costly moves (issue #17, item 2): a ninja's move into a fight says, before
it is played, what it fights and, when the mover's view shows both styles, how the fight ends;
a move paid with the mover's last gold says so. Only the mover's view speaks: a concealed
enemy ninja's style never shows through."""

from __future__ import annotations

from sj_helpers import GAME, clear, legal, new_game, ninja, samurai

from intrigue.games.shadows_over_japan.data import INDEX, STYLE_NAMES, STYLES


def _text(state, action: str, seat: int) -> str:
    return GAME.describe_action(GAME.parse_action(action), state.view(seat))


def _a_move(state, seat: int, start: str) -> tuple[str, str]:
    move = next(a for a in sorted(legal(state, seat)) if a.startswith(f"move {start} "))
    return move, move.split()[2]


def test_a_move_into_a_samurai_says_how_the_fight_ends():
    state = clear(new_game(2))
    seat = state.current
    ninja(state, "iga", seat, "stone")
    move, there = _a_move(state, seat, "iga")
    outcomes = {
        "scissor": "your Stone Fist ninja wins",
        "paper": "your Stone Fist ninja loses and goes back to your pool",
        "stone": "your Stone Fist ninja ties and stays where it was",
    }
    for style, outcome in outcomes.items():
        samurai(state, there, style)
        text = _text(state, move, seat)
        assert f"⚠ fight a samurai ({STYLE_NAMES[STYLES.index(style)]}): {outcome}" in text
        assert "reveals your ninja" in text
        state.sam_supply[STYLES.index(style)] += 1
        state.sam[INDEX[there]] = -1
    assert "⚠" not in _text(state, move, seat)  # no samurai, no ninja: a plain move


def test_a_concealed_enemy_ninja_keeps_its_style():
    state = clear(new_game(2))
    seat = state.current
    ninja(state, "iga", seat, "stone")
    move, there = _a_move(state, seat, "iga")
    ninja(state, there, 1 - seat, "paper")  # concealed: its style is not in the mover's view
    text = _text(state, move, seat)
    assert f"⚠ fight seat {1 - seat}'s ninja, style unknown" in text
    assert "Paper" not in text
    state.nrev[INDEX[there]] = True
    assert "your Stone Fist ninja loses" in _text(state, move, seat)  # revealed: the outcome


def test_spending_the_last_gold_is_flagged():
    state = clear(new_game(2))
    seat = state.current
    state.gold[seat] = 1
    paid = sorted(a for a in legal(state, seat) if a.split()[0] in ("extra", "march"))
    assert paid
    for action in paid:
        assert _text(state, action, seat).endswith("(1 gold) — ⚠ your last gold")
    state.gold[seat] = 2
    assert all("⚠" not in _text(state, action, seat) for action in paid)
