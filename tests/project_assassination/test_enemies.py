"""The enemy placement phase: who places, where, the Boss rule (PA-17..PA-19, PA-32)."""

import pytest
from pa_helpers import P1, P2, arm, empty_board, enemy, legal, new, only, put

from intrigue.engine import IllegalAction
from intrigue.games.project_assassination.board import CELL, NO_ENEMY


def to_placement(state):
    """Both players pass: the state is at the placement phase (or past it if skipped)."""
    state.apply(state.current, "end")
    state.apply(state.current, "end")
    return state


@pytest.mark.parametrize(
    ("vp", "hp", "coins", "placer"),
    [
        ((2, 3), (10, 10), None, P1),
        ((3, 2), (10, 10), None, P2),
        ((3, 3), (6, 9), None, P1),
        ((3, 3), (9, 6), None, P2),
        ((0, 0), (10, 10), ["heads"], P1),
        ((0, 0), (10, 10), ["tails"], P2),
    ],
)
def test_pa_t09_placer(vp, hp, coins, placer):
    state = new(coins=coins)
    state.vp[:] = vp
    state.hp[:] = hp
    to_placement(state)
    assert state.phase == "placement" and state.to_move == (placer,)
    assert state.view(None)["placement"]["placer"] == placer
    if coins:
        assert state.coins == coins


def test_placer_counts_player_numbers_not_seats():
    state = new(first=1, coins=["heads"])
    to_placement(state)
    assert state.to_move == (1,)  # heads: Player 1, who is seat 1


def test_placement_coin_comes_from_the_seed():
    placers = set()
    for seed in range(12):
        state = new(seed=seed)
        to_placement(state)
        placers.add(state.placer)
    assert placers == {P1, P2}


def test_enemies_arrive_in_deck_order_and_the_phase_ends_with_the_deck():
    state = new(enemy_deck=["medic", "heavy", "medic", "heavy", "boss"])
    placed = []
    for _ in range(5):
        to_placement(state)
        placed.append(state.drawn_enemy)
        state.apply(state.placer, state.legal_actions(state.placer)[-1])
    assert placed == ["medic", "heavy", "medic", "heavy", "boss"]
    assert state.view(None)["decks"]["enemy"] == 0
    to_placement(state)
    assert state.phase == "turn" and state.to_move == (P1,)


def test_legal_squares_exclude_restricted_occupied_and_reachable_squares():
    state = new(enemy_deck=["heavy"])
    to_placement(state)
    squares = {CELL[a.split()[1]] for a in legal(state)}
    assert not any(NO_ENEMY[c] for c in squares)
    for taken in ("b5", "c3", "d3", "d4", "b4", "e2"):
        assert CELL[taken] not in squares
    # a heavy (range 2) may not stand where a player at a7 or g1 would be in its range
    for near in ("a5", "c7", "e1", "g3"):
        assert CELL[near] not in squares
    assert CELL["c4"] in squares
    with pytest.raises(IllegalAction, match="skull"):
        state.apply(state.placer, "place a4")


def test_pa_t18_placement_legality():
    state = empty_board(new(enemy_deck=["heavy"]))
    put(state, P1, "a4")
    put(state, P2, "g5")
    to_placement(state)
    squares = {a.split()[1] for a in legal(state)}
    assert "a5" not in squares and "a2" not in squares
    assert "a3" not in squares and "c4" not in squares  # range 2 along row 4
    assert "d4" in squares
    state2 = empty_board(new(enemy_deck=["heavy"]))
    put(state2, P1, "d1")
    put(state2, P2, "g5")
    enemy(state2, "d3", "grunt")
    assert "d4" in _squares(state2)  # only the pistol: d4 is out of reach
    state3 = empty_board(new(enemy_deck=["heavy"]))
    put(state3, P1, "d1")
    put(state3, P2, "g5")
    enemy(state3, "d3", "grunt")
    arm(state3, P1, "uzi")
    assert "d4" not in _squares(state3)  # the UZI reaches it past the grunt


def _squares(state):
    to_placement(state)
    return {a.split()[1] for a in legal(state)}


def test_sniper_holder_forbids_his_whole_row_and_column():
    state = empty_board(new(enemy_deck=["medic"]))
    arm(state, P1, "sniper")
    put(state, P1, "c4")
    squares = _squares(state)
    assert not any(s[0] == "c" or s[1] == "4" for s in squares)


def test_pa_t10_boss_waits_for_five_enemies():
    state = new(enemy_deck=["boss", "heavy", "medic", "heavy", "medic"])
    enemy(state, "c5", "medic")
    to_placement(state)
    assert state.drawn_enemy == "heavy"
    assert state.view(None)["decks"]["enemy_bottom"] == ["boss"]
    assert "deferred" in [e["kind"] for e in state.events(None)]


def test_boss_enters_with_five_enemies_or_as_the_last_card():
    state = new(enemy_deck=["boss", "heavy", "medic", "heavy", "medic"])
    for cell in ("c5", "e3", "g5"):
        enemy(state, cell, "medic")
    to_placement(state)
    assert state.drawn_enemy == "boss"
    last = new()
    last.enemy_deck = only("boss")
    to_placement(last)
    assert last.drawn_enemy == "boss" and len(last.enemies) == 2


def test_no_legal_square_sends_the_card_under_the_deck():
    state = new()
    state.enemy_deck = only("boss")
    state.obst = [c not in state.pos for c in range(49)]  # a bar full of crates
    to_placement(state)
    assert state.phase == "turn" and state.enemy_deck.bottom == ["boss"]
    assert "no_room" in [e["kind"] for e in state.events(None)]
    assert state.view(None)["decks"]["enemy_bottom"] == ["boss"]


def test_placed_enemy_has_full_health():
    state = new(enemy_deck=["heavy"])
    to_placement(state)
    state.apply(state.placer, "place c4")
    assert state.enemies[CELL["c4"]].hp == 4
    assert {
        "cell": "c4",
        "kind": "heavy",
        "hp": 4,
        "max_hp": 4,
        "paralysed": False,
        "caged": False,
    } in state.view(None)["enemies"]


@pytest.mark.parametrize(("kind", "vp"), [("grunt", 1), ("heavy", 3), ("medic", 3), ("boss", 10)])
def test_each_enemy_kind_is_worth_its_vp_to_the_killer(kind, vp):
    state = empty_board(new())
    enemy(state, "d3", kind, hp=1)
    enemy(state, "g6", "grunt")  # another enemy, so the kill does not clear the board
    put(state, P1, "d4")
    state.apply(P1, "shoot 2 d3")
    assert state.vp == [vp, 0] and CELL["d3"] not in state.enemies


def test_killing_the_boss_from_two_vp_is_a_win():
    state = empty_board(new())
    enemy(state, "d3", "boss", hp=1)
    put(state, P1, "d4")
    state.vp[P1] = 2
    state.apply(P1, "shoot 2 d3")
    assert state.outcome.winners == (P1,) and "12 VP" in state.outcome.reason


def test_a_paralysed_player_still_places_an_enemy_when_chosen():
    state = empty_board(new(enemy_deck=["heavy"]))
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "a3")
    put(state, P2, "g3")
    state.apply(P1, "shoot 1 g3")  # P2: 9 HP and P1 one VP ahead: P2 places
    state.apply(P1, "end")
    assert state.phase == "placement" and state.to_move == (P2,)
    state.apply(P2, "place d4")
    assert state.enemies[CELL["d4"]].kind == "heavy" and state.to_move == (P1,)
