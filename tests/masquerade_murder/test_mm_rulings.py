"""One or more tests per ruling MM-1..MM-26 of RULINGS §1.4, and the implementation's own
rulings MM-27.. (docs/games/masquerade-murder.md). Roles are C, T, S, A, D on seats 0..4
unless a test says otherwise; ``night`` plays a night 1 placed in seat order."""

from __future__ import annotations

import json
import random

import pytest
from mm_helpers import (
    GAME,
    ISOLATED,
    QUIET,
    SEATS,
    A,
    C,
    D,
    S,
    T,
    assert_illegal,
    choose_targets,
    colour,
    colours,
    draft,
    harms,
    new_game,
    play_night,
    quiet_nights,
)

from intrigue.engine import InvalidAction
from intrigue.games.masquerade_murder.boards import BOARDS
from intrigue.games.masquerade_murder.resolution import ASSASSIN, DUKE, NOBODY, resolve
from intrigue.games.masquerade_murder.rules import MurderState


def night(cells: dict[int, str], targets: dict[int, int], **options: object) -> MurderState:
    """A fresh game's night 1: the given seats where told, the rest on isolated seats."""
    state = new_game(**options)
    neighbours = BOARDS["theta16"].neighbours
    used = set(cells.values())
    spare = iter(c for c in ISOLATED if c not in used and not neighbours[c] & used)
    placed = {s: cells.get(s) or next(spare) for s in SEATS}
    for seat in set(SEATS) - set(cells):  # bystanders must touch nobody
        assert not neighbours[placed[seat]] & set(placed.values()), placed
    play_night(state, targets, placed)
    return state


def grey_except(**wanted: str) -> dict[int, str]:
    seat_of = {"C": C, "T": T, "S": S, "A": A, "D": D}
    result = dict.fromkeys(SEATS, "GREY")
    result.update({seat_of[k]: v for k, v in wanted.items()})
    return result


def poison_thug_nights(state: MurderState, count: int) -> None:
    """The Assassin on a1 poisons the Thug on b1, ``count`` nights in a row."""
    for _ in range(count):
        play_night(state, {A: T}, {A: "a1", T: "b1", C: "a3", S: "e2", D: "d4"})


# -- MM-1 the board ------------------------------------------------------------------------
THETA_ADJACENCY = {
    "a1": "b1 a2", "b1": "a1 c1", "c1": "b1 d1 c2", "d1": "c1 e1", "e1": "d1 e2",
    "a2": "a1 a3", "c2": "c1 c3", "e2": "e1 e3",
    "a3": "a2 a4", "c3": "c2 c4", "e3": "e2 e4",
    "a4": "a3 b4", "b4": "a4 c4", "c4": "b4 d4 c3", "d4": "c4 e4", "e4": "d4 e3",
}  # fmt: skip


def test_mm1_theta16_board_is_the_proposal() -> None:
    board = BOARDS["theta16"]
    assert board.rows == (".....", ".#.#.", ".#.#.", ".....")
    assert len(board.seats) == 16
    assert set(board.tables) == {"b2", "b3", "d2", "d3"}
    assert {cell: set(n) for cell, n in board.neighbours.items()} == {
        cell: set(n.split()) for cell, n in THETA_ADJACENCY.items()
    }
    view = new_game().view(None)["board"]
    assert view["name"] == "theta16" and view["seats"] == list(board.seats)


def test_mm1_ring12_is_one_cycle_of_twelve() -> None:
    board = BOARDS["ring12"]
    assert len(board.seats) == 12
    assert all(len(n) == 2 for n in board.neighbours.values())
    # Walk the ring: twelve steps from a1 visit every seat once and come back.
    seen, previous, here = ["a1"], None, "a1"
    for _ in range(12):
        here, previous = next(n for n in sorted(board.neighbours[here]) if n != previous), here
        seen.append(here)
    assert seen[-1] == "a1" and set(seen) == set(board.seats)
    assert new_game(board="ring12").view(None)["board"]["name"] == "ring12"


# -- MM-2 GREY when the action is not performed --------------------------------------------
@pytest.mark.parametrize("actor", SEATS, ids=["C", "T", "S", "A", "D"])
def test_mm2_grey_when_not_adjacent_for_every_role(actor: int) -> None:
    """The actor on a1, his target on c3: nothing happens and everyone shows GREY."""
    target = (actor + 2) % 5
    state = night({actor: "a1", target: "c3"}, {actor: target})
    assert harms(state.view(None)["nights"][-1]) == (set(), set(), set())
    assert colours(state) == grey_except()


def test_mm2_constable_grey_when_not_adjacent() -> None:
    state = night({C: "a1", A: "d1"}, {C: A, A: C})  # MM-T07
    assert colour(state, C) == "GREY"
    assert state.view(None)["table"][A]["captures"] == 0


# -- MM-3 adjacency on the final positions -------------------------------------------------
def test_mm3_adjacency_is_judged_after_the_joker_swap() -> None:
    # Cards: C ace, T two, S queen, A joker, D king -> extra Jack, the Assassin plays third.
    state = new_game(first_cards=("ace", "two", "queen", "joker", "king"))
    choose_targets(state, {C: T, A: C})
    state.apply(C, "place a1")
    state.apply(T, "place b1")  # the Thug touches the Constable, who targets him...
    state.apply(A, "swap b1 e4")  # ...until the Assassin takes his seat and moves him away
    state.apply(S, "place e2")
    state.apply(D, "place c3")
    assert harms(state.view(None)["nights"][-1]) == (set(), set(), {C})
    assert colours(state) == grey_except(A="GREEN")


# -- MM-4 colour by identity when the executed action was blocked --------------------------
def test_mm4_blocked_distraction_still_green_for_seductress() -> None:
    state = night({T: "a1", S: "c1", D: "b1"}, {T: D, S: D, D: T})  # MM-T32
    assert harms(state.view(None)["nights"][-1]) == (set(), set(), set())
    assert colours(state) == grey_except(T="GREEN", S="GREEN", D="GREEN")


def test_mm4_blocked_poison_still_green_for_assassin() -> None:
    state = night({T: "a1", A: "c1", D: "b1"}, {T: D, A: D, D: S})  # MM-T10
    assert state.view(None)["nights"][-1]["poisoned"] == []
    assert colour(state, A) == "GREEN"


# -- MM-5 protection does not block the Duke -----------------------------------------------
def test_mm5_duke_reads_a_captured_target() -> None:
    state = night({C: "a1", T: "b1", D: "c1"}, {C: T, T: C, D: T})  # MM-T31
    assert colours(state) == grey_except(C="RED", D="GREEN")


@pytest.mark.parametrize(
    ("cells", "targets"),
    [
        ({T: "a1", A: "b1", D: "c1"}, {T: A, D: A, A: C}),  # the Thug guards the Assassin
        ({C: "a1", A: "b1", D: "c1"}, {C: A, D: A, A: D}),  # the Constable holds the Assassin
    ],
    ids=["thug", "capture"],
)
def test_mm5_protection_does_not_block_the_duke(cells, targets) -> None:
    state = night(cells, targets)
    assert colour(state, D) == "RED"


# -- MM-6 what "attacked" means ------------------------------------------------------------
@pytest.mark.parametrize(
    ("cells", "targets", "thug"),
    [
        ({T: "a1", D: "b1", A: "e4"}, {T: D, A: D}, "RED"),  # the Assassin is not adjacent
        ({T: "a1", D: "b1", A: "c1", S: "c2"}, {T: D, A: D, S: A}, "RED"),  # he is distracted
        ({T: "a1", D: "b1", A: "c1", C: "c2"}, {T: D, A: D, C: A}, "RED"),  # he is captured
        ({T: "a1", C: "b1", S: "c1"}, {T: C, S: C, C: D}, "RED"),  # Seductress on Constable
        ({T: "a1", D: "b1", A: "c1"}, {T: D, A: D}, "GREEN"),  # blocked by the Thug: counts
    ],
    ids=["apart", "distracted", "captured", "seductress-on-constable", "blocked-counts"],
)
def test_mm6_attacked_means_an_executable_attempt(cells, targets, thug) -> None:
    state = night(cells, targets)
    assert colour(state, T) == thug


def test_mm6_capture_blocked_attack_still_counts_for_the_constable() -> None:
    state = night({C: "a1", A: "c1", D: "b1"}, {C: D, A: D, D: T})  # MM-T05
    assert colours(state) == grey_except(C="GREEN", A="GREEN")


# -- MM-7 Thug and Constable shield the same target ----------------------------------------
def test_mm7_thug_green_when_constable_also_shields() -> None:
    state = night({D: "c1", C: "b1", T: "d1", A: "c2"}, {C: D, T: D, A: D, D: C})
    assert harms(state.view(None)["nights"][-1]) == ({D}, set(), set())
    assert colours(state) == grey_except(C="GREEN", T="GREEN", A="GREEN")


# -- MM-8 the Seductress's special GREEN ---------------------------------------------------
def test_mm8_seductress_green_when_she_saves_herself() -> None:
    state = night({S: "a1", A: "b1"}, {S: A, A: S})  # MM-T17
    assert colour(state, S) == "GREEN"


def test_mm8_seductress_red_when_the_assassin_is_captured() -> None:
    state = night({S: "a1", A: "b1", C: "c1"}, {S: A, A: S, C: A})
    assert harms(state.view(None)["nights"][-1]) == ({A}, set(), set())
    assert colours(state) == grey_except(S="RED", C="GREEN")


def test_mm8_seductress_red_when_the_assassin_aimed_elsewhere() -> None:
    state = night({S: "a1", A: "b1", D: "c1"}, {S: A, A: D, D: T})  # MM-T15
    assert colour(state, S) == "RED"


# -- MM-9 the Assassin's special GREEN -----------------------------------------------------
def test_mm9_assassin_green_on_thug_who_guarded_the_duke() -> None:
    state = night({T: "b1", A: "c1", D: "a1"}, {T: D, A: T, D: S})  # MM-T24: nobody hit D
    assert colours(state) == grey_except(T="RED", A="GREEN")


@pytest.mark.parametrize(
    ("cells", "targets"),
    [
        ({T: "c1", D: "b1", A: "c2", S: "d1"}, {T: D, A: T, S: T}),  # the Thug is distracted
        ({T: "b1", A: "c1", D: "e4"}, {T: D, A: T}),  # the Thug does not touch the Duke
    ],
    ids=["distracted", "apart"],
)
def test_mm9_assassin_red_when_thug_did_not_guard_the_duke(cells, targets) -> None:
    state = night(cells, targets)
    assert state.view(None)["nights"][-1]["poisoned"] == [T]
    assert colour(state, A) == "RED"


# -- MM-10 the Seductress on the Constable -------------------------------------------------
@pytest.mark.parametrize(("cell", "expected"), [("b1", "RED"), ("c3", "GREY")])
def test_mm10_seductress_on_constable(cell: str, expected: str) -> None:
    state = night({S: "a1", C: cell}, {S: C, C: D})
    assert state.view(None)["nights"][-1]["distracted"] == []
    assert colour(state, S) == expected


# -- MM-11 legal targets -------------------------------------------------------------------
def test_mm11_targets_are_the_other_active_players(state: MurderState) -> None:
    for seat in SEATS:
        assert [str(a) for a in state.legal_actions(seat)] == [
            f"target {t}" for t in SEATS if t != seat
        ]


def test_mm11_no_self_target(state: MurderState) -> None:
    assert_illegal(state, 2, "target 2", "yourself")


def test_mm11_no_target_who_has_left() -> None:
    state = new_game()
    poison_thug_nights(state, 3)
    assert state.view(None)["table"][T]["status"] == "dead"
    assert all("target 1" not in map(str, state.legal_actions(s)) for s in SEATS)
    assert_illegal(state, C, "target 1", "seat 1", "left the game")
    assert_illegal(state, T, "target 0", "not this seat's turn")  # nor does he act


# -- MM-12 placement: every empty seat, never a table --------------------------------------
def taken(state: MurderState) -> set[str]:
    return {row["cell"] for row in state.view(None)["table"] if row["cell"]}


@pytest.mark.parametrize("board", ["theta16", "ring12"])
def test_mm12_every_empty_seat_is_legal(board: str) -> None:
    state = new_game(board=board)
    choose_targets(state, {})
    seats = BOARDS[board].seats
    for placer, cell in zip(SEATS, seats, strict=False):
        free = [c for c in seats if c not in taken(state)]
        assert sorted(str(a) for a in state.legal_actions(placer)) == sorted(
            f"place {c}" for c in free
        )
        state.apply(placer, f"place {cell}")


def test_mm12_tables_and_taken_seats_are_illegal(state: MurderState) -> None:
    choose_targets(state, {})
    assert_illegal(state, 0, "place b3", "b3", "not a seat", "table")
    assert_illegal(state, 0, "place d3", "table")
    with pytest.raises(InvalidAction):  # b2/d2 are a seat on no board at all (MM-36)
        state.apply(0, "place b2")
    state.apply(0, "place a1")
    assert_illegal(state, 1, "place a1", "a1", "already taken")


def test_mm12_ring12_rejects_a_theta_only_seat() -> None:
    state = new_game(board="ring12")
    choose_targets(state, {})
    assert_illegal(state, 0, "place a4", "not a seat of the ring12 board")
    assert_illegal(state, 0, "place c2", "table")


# -- MM-13 the Joker's swap ----------------------------------------------------------------
def joker_third() -> MurderState:
    """Night 1 with the extra card Jack: the Joker holder (seat 2) plays third."""
    state = new_game(first_cards=("ace", "two", "joker", "queen", "king"))
    choose_targets(state, {})
    state.apply(0, "place a1")
    state.apply(1, "place c1")
    return state


def test_mm13_swap_is_optional() -> None:
    state = joker_third()
    verbs = {a.verb for a in state.legal_actions(2)}
    assert verbs == {"place", "swap"}
    state.apply(2, "place e1")
    assert taken(state) == {"a1", "c1", "e1"}


def test_mm13_only_the_joker_holder_swaps_in_his_own_slot() -> None:
    state = joker_third()
    state.apply(2, "place e1")
    assert all(a.verb == "place" for a in state.legal_actions(3))
    assert_illegal(state, 3, "swap a1 e4", "only the joker holder")


def test_mm13_swap_rules() -> None:
    state = joker_third()
    assert_illegal(state, 2, "swap e4 d1", "no cube has been placed on e4")
    assert_illegal(state, 2, "swap c1 a1", "already taken")
    assert_illegal(state, 2, "swap c1 b3", "table")
    state.apply(2, "swap a1 e3")
    table = state.view(None)["table"]
    assert (table[2]["cell"], table[0]["cell"]) == ("a1", "e3")
    swapped = [e for e in state.events(None) if e["kind"] == "swapped"]
    assert swapped == [{"kind": "swapped", "seat": 2, "cell": "a1", "moved": 0, "to": "e3"}]
    assert state.to_move == (3,) and taken(state) == {"a1", "c1", "e3"}


def test_mm13_no_swap_when_the_joker_has_the_ace_slot() -> None:
    state = new_game(first_cards=("joker", "two", "jack", "queen", "king"))
    choose_targets(state, {})
    assert all(a.verb == "place" for a in state.legal_actions(0))


# -- MM-14 / MM-22 what the views show -----------------------------------------------------
def in_draft() -> MurderState:
    state = new_game()
    quiet_nights(state, 1)
    choose_targets(state, {})
    assert state.phase == "draft" and state.to_move == (0,)
    return state


def test_mm14_only_the_drawer_sees_the_pile() -> None:
    state = in_draft()
    assert state.view(0)["draft"]["pile"] == ["ace", "two", "jack", "queen", "king", "joker"]
    for seat in (None, 1, 2, 3, 4):
        assert state.view(seat)["draft"]["pile"] is None
        assert state.view(seat)["draft"]["pile_size"] == 6
    state.apply(0, "draw queen")
    assert state.view(1)["draft"]["pile"] == ["ace", "two", "jack", "king", "joker"]
    assert state.view(0)["draft"]["pile"] is None
    mine = state.view(0)["you"]
    assert mine["card"] == "queen" and mine["pile_seen"][:4] == ["ace", "two", "jack", "queen"]
    for seat in (None, 1, 2, 3, 4):  # nobody else learns which card he took
        assert "queen" not in json.dumps(state.view(seat)["table"])
        assert all(e.get("card") != "queen" for e in state.events(seat))
    took = [e for e in state.events(0) if e["kind"] == "took"]
    assert took[-1]["private"] is True and took[-1]["card"] == "queen"


def test_mm14_extra_card_public_once_all_have_drawn() -> None:
    state = in_draft()
    assert state.view(None)["placement"] is None
    draft(state, {0: "joker", 1: "ace", 2: "two", 3: "jack", 4: "queen"})
    for seat in (None, *SEATS):
        placement = state.view(seat)["placement"]
        assert (placement["extra"], placement["joker"]) == ("king", 0)


def test_mm22_public_sets_and_counts() -> None:
    state = new_game()
    play_night(state, {C: T, A: D}, {C: "a1", T: "b1", A: "c3", D: "c4", S: "e2"})
    play_night(state, {A: D}, {A: "c3", D: "c4", C: "a1", T: "e2", S: "a3"})
    for seat in (None, *SEATS):
        view = state.view(seat)
        assert [harms(n) for n in view["nights"]] == [({T}, set(), {D}), (set(), set(), {D})]
        counts = [(row["captures"], row["poisons"]) for row in view["table"]]
        assert counts == [(0, 0), (1, 0), (0, 0), (0, 0), (0, 2)]
        assert all(n["left"] == [] for n in view["nights"])


# -- MM-15 / MM-24 who starts the draft ----------------------------------------------------
def test_mm15_ace_extra_joker_holder_starts_next_draft() -> None:
    state = new_game(first_cards=("two", "jack", "queen", "king", "joker"), seating=(0, 2, 4, 1, 3))
    play_night(state)
    assert state.view(None)["nights"][-1]["cards"]["4"] == "joker"
    choose_targets(state, {})
    assert state.view(None)["draft"]["drawers"] == [4, 1, 3, 0, 2]


def test_mm24_ace_holder_starts_night_two() -> None:
    state = new_game(first_cards=("king", "queen", "ace", "two", "jack"))
    play_night(state)
    choose_targets(state, {})
    assert state.to_move == (2,)


def test_mm24_night_one_deal_is_random_and_leftover_revealed() -> None:
    deals = set()
    for seed in range(40):
        state = new_game(seed=seed, first_cards=None)
        choose_targets(state, {})
        assert state.phase == "placement"  # night 1: no draft
        cards = state.view(None)["placement"]
        held = [row["card"] for row in state.view(None)["table"]]
        assert len(set(held)) == 5
        assert {*held, cards["extra"]} == {"ace", "two", "jack", "queen", "king", "joker"}
        order = [e for e in state.events(None) if e["kind"] == "order"][-1]
        assert order["extra"] == cards["extra"]
        deals.add(tuple(held))
    assert len(deals) > 30


# -- MM-16 the seating cycle ---------------------------------------------------------------
def test_mm16_pile_passes_along_the_seating_not_the_numbers() -> None:
    state = new_game(seating=(3, 0, 4, 2, 1), first_cards=("two", "jack", "queen", "ace", "king"))
    play_night(state)
    choose_targets(state, {})
    assert draft(state) == [3, 0, 4, 2, 1]


def test_mm16_default_seating_is_a_random_cycle() -> None:
    seatings = set()
    for seed in range(30):
        seating = new_game(seed=seed, seating=None).view(None)["seating"]
        assert sorted(seating) == [0, 1, 2, 3, 4]
        seatings.add(tuple(seating))
    assert len(seatings) > 10


# -- MM-17 fewer players -------------------------------------------------------------------
def test_mm17_pile_is_cut_from_the_king_down() -> None:
    state = new_game()
    poison_thug_nights(state, 3)
    choose_targets(state, {})
    assert [e for e in state.events(None) if e["kind"] == "draft"][-1]["cards"] == [
        "ace",
        "two",
        "jack",
        "queen",
        "joker",
    ]
    draft(state)
    assert len(state.view(None)["placement"]["order"]) == 4


def test_mm17_next_seat_starts_when_the_starter_has_left() -> None:
    # The Thug (seat 1) plays the Ace slot every night and dies in night 3.
    state = new_game(seating=(1, 3, 0, 2, 4), first_cards=("two", "ace", "jack", "queen", "king"))
    for _ in range(3):
        play_night(state, {A: T}, {A: "a1", T: "b1", C: "a3", S: "e2", D: "d4"}, {T: "ace"})
        assert state.view(None)["nights"][-1]["cards"]["1"] == "ace"
    assert state.view(None)["table"][T]["status"] == "dead"
    choose_targets(state, {})
    assert state.view(None)["draft"]["drawers"] == [3, 0, 2, 4]


# -- MM-18 departures ----------------------------------------------------------------------
def test_mm18_a_dying_player_still_acts_that_night() -> None:
    state = new_game()
    poison_thug_nights(state, 2)
    # Night 3: the Thug, poisoned a third time, still shields the Duke from the Seductress.
    record = play_night(state, {A: T, T: D, S: D}, {A: "c1", T: "b1", D: "a1", S: "a2", C: "e4"})
    assert harms(record) == (set(), set(), {T})
    assert record["left"] == [{"seat": T, "how": "dead"}]
    last = state.view(T)["you"]["results"][-1]
    assert (last["night"], last["colour"], last["effects"]) == (3, "GREEN", ["poisoned"])
    assert T not in state.to_move and state.night == 4


def test_mm18_the_role_of_a_departed_player_is_not_revealed() -> None:
    state = new_game()
    poison_thug_nights(state, 3)
    assert not state.is_over
    for seat in (None, C, S, A, D):
        view = state.view(seat)
        assert view["roles"] is None
        assert view["table"][T] == {
            "seat": T,
            "status": "dead",
            "captures": 0,
            "poisons": 3,
            "decided": None,
            "card": None,
            "cell": None,
        }
        roles_seen = [e["role"] for e in state.events(seat) if "role" in e]
        assert roles_seen == ([] if seat is None else [state.role_of(seat)])
        others = {key: value for key, value in view.items() if key != "you"}
        assert "thug" not in json.dumps(others)
    assert state.view(T)["you"]["role"] == "thug"  # he still knows who he was


def test_mm18_both_counts_high_leaves_once() -> None:
    state = new_game()
    for _ in range(2):  # two captures of the Thug...
        play_night(state, {C: T}, {C: "a1", T: "b1", A: "a3", S: "e2", D: "d4"})
    poison_thug_nights(state, 3)  # ...then three poisons
    departures = [left for n in state.view(None)["nights"] for left in n["left"]]
    assert departures == [{"seat": T, "how": "dead"}]
    row = state.view(None)["table"][T]
    assert (row["status"], row["captures"], row["poisons"]) == ("dead", 2, 3)


def test_mm18_capture_and_poison_never_hit_the_same_seat() -> None:
    """Why both thresholds can never be crossed in one night: a capture shields from poison.
    Likewise at most one terminal event a night (§1.3): a captured Assassin poisons nobody."""
    rng = random.Random(18)
    board = BOARDS["theta16"]
    for _ in range(3000):
        roles = list(SEATS)
        rng.shuffle(roles)
        # The Constable, Thug and Seductress may have left; the Duke and Assassin never have.
        active = [role in (ASSASSIN, DUKE) or rng.random() < 0.8 for role in roles]
        seats = [s for s in SEATS if active[s]]
        targets = [rng.choice([t for t in seats if t != s]) if active[s] else NOBODY for s in SEATS]
        spots = iter(rng.sample(["a1", "b1", "c1", "d1", "c2", "c3", "a2"], 5))
        cells = [next(spots) if active[s] else None for s in SEATS]
        result = resolve(roles, active, targets, cells, board.neighbours)
        assert result.captured == NOBODY or result.captured != result.poisoned
        assert result.captured != roles.index(ASSASSIN) or result.poisoned == NOBODY
        assert [c is None for c in result.colours] == [not a for a in active]


# -- MM-19 victory -------------------------------------------------------------------------
def kill_duke(state: MurderState) -> None:
    for _ in range(3):
        play_night(state, {A: D}, {A: "c3", D: "c4", C: "a1", T: "e2", S: "a3"})


def test_mm19_evil_team_wins_even_after_leaving() -> None:
    state = new_game()
    for _ in range(3):  # the Seductress is jailed first
        play_night(state, {C: S}, {C: "a1", S: "b1", T: "a3", A: "e2", D: "d4"})
    assert state.view(None)["table"][S]["status"] == "jailed" and not state.is_over
    kill_duke(state)
    assert state.outcome.winners == (T, S, A)


@pytest.mark.parametrize("mode", ["survive", "with_winner"])
def test_mm19_thug_mode(mode: str) -> None:
    state = new_game(thug_mode=mode)
    poison_thug_nights(state, 3)
    kill_duke(state)
    thug_wins = mode == "with_winner"
    assert (T in state.outcome.winners) is thug_wins
    assert set(state.outcome.winners) - {T} == {S, A}


def test_mm19_surviving_thug_wins_with_either_team() -> None:
    state = new_game(max_turns=1)
    quiet_nights(state, 1)
    assert state.outcome.winners == (C, T, D)
    state = new_game()
    kill_duke(state)
    assert state.outcome.winners == (T, S, A)


def test_mm19_good_team_member_wins_after_leaving() -> None:
    state = new_game(max_turns=4)
    for _ in range(3):  # the Constable dies
        play_night(state, {A: C}, {A: "a1", C: "b1", T: "a3", S: "e2", D: "d4"})
    quiet_nights(state, 1)
    assert state.view(None)["table"][C]["status"] == "dead"
    assert state.outcome.winners == (C, T, D)


# -- MM-20 game length ---------------------------------------------------------------------
def test_mm20_max_turns_good_wins_capped() -> None:
    state = new_game(max_turns=3)
    quiet_nights(state, 2)
    assert not state.is_over and state.view(None)["max_turns"] == 3
    quiet_nights(state, 1)
    outcome = state.outcome
    assert outcome.capped is True
    assert outcome.winners == (C, T, D)
    assert "with the Duke alive" in outcome.reason and state.to_move == ()


def test_mm20_unlimited_by_default() -> None:
    state = new_game()
    assert state.options["max_turns"] is None
    quiet_nights(state, 20)
    assert not state.is_over and state.night == 21


def test_mm20_death_on_the_last_night_is_not_capped() -> None:
    state = new_game(max_turns=3)
    kill_duke(state)
    assert state.outcome.capped is False
    assert state.outcome.winners == (T, S, A)


# -- MM-21 blocked attacks are never reported ----------------------------------------------
def test_mm21_blocked_attacks_never_reported() -> None:
    state = night({T: "a1", A: "c1", D: "b1"}, {T: D, A: D, D: S})  # the Thug saves the Duke
    for seat in (None, *SEATS):
        text = json.dumps([state.view(seat), state.events(seat)])
        for word in ("protect", "block", "attack", "shield", "guard"):
            assert word not in text
    assert state.view(D)["you"]["results"] == [
        {"night": 1, "target": S, "colour": "GREY", "effects": []}
    ]


def test_mm21_duke_reading_not_reported_to_its_target() -> None:
    read = night({C: "b1", D: "a1"}, {C: S, D: C})  # MM-T27
    assert colour(read, D) == "GREEN"
    assert read.view(C)["you"]["results"] == [
        {"night": 1, "target": S, "colour": "GREY", "effects": []}
    ]
    private = [e["kind"] for e in read.events(C) if e.get("private")]
    assert private == ["role", "targeted", "result"]  # only his own secrets


# -- MM-23 talk ----------------------------------------------------------------------------
def test_mm23_no_engine_action_for_talk() -> None:
    assert {a.verb for a in GAME.action_table} == {"target", "draw", "place", "swap"}
    for text in ("say hello", "chat i am the duke", "bribe 1", "offer 2"):
        with pytest.raises(InvalidAction):
            GAME.parse_action(text)


# -- MM-25 the ordering paradox ------------------------------------------------------------
def test_mm25_distracted_thug_protects_nobody() -> None:
    state = night({T: "b1", D: "a1", A: "a2", S: "c1"}, {T: D, S: T, A: D})
    assert harms(state.view(None)["nights"][-1]) == (set(), {T}, {D})
    assert colours(state) == grey_except(S="GREEN", A="GREEN")


def test_mm25_thug_cannot_shield_the_seductress_from_herself() -> None:
    state = night({T: "a1", S: "b1"}, {T: S, S: T})
    assert harms(state.view(None)["nights"][-1]) == (set(), {T}, set())
    assert colours(state) == grey_except(S="GREEN")


# -- MM-26 the Constable jails the Duke ----------------------------------------------------
def test_mm26_constable_jails_the_duke_evil_wins() -> None:
    state = new_game()
    for _ in range(3):
        play_night(state, {C: D, A: D}, {C: "a1", D: "b1", A: "c1", T: "a3", S: "e2"})
    assert state.view(None)["table"][D]["poisons"] == 0
    assert state.outcome.winners == (T, S, A)
    assert state.outcome.reason == "the Duke was jailed"


# -- the implementation's own rulings (MM-27..) --------------------------------------------
def test_mm27_order_and_cards_public_when_draft_ends() -> None:
    state = in_draft()
    draft(state, {0: "king", 1: "joker", 2: "two", 3: "ace", 4: "queen"})
    assert state.view(None)["placement"]["order"] == [3, 2, 1, 4, 0]  # Joker in the J slot
    for seat in (None, *SEATS):
        cards = [row["card"] for row in state.view(seat)["table"]]
        assert cards == ["king", "joker", "two", "ace", "queen"]
    order = [e for e in state.events(None) if e["kind"] == "order"][-1]
    assert order["cards"] == {"0": "king", "1": "joker", "2": "two", "3": "ace", "4": "queen"}


def test_mm28_roles_unmasked_at_game_end() -> None:
    state = new_game()
    kill_duke(state)
    for seat in (None, *SEATS):
        assert state.view(seat)["roles"] == ["constable", "thug", "seductress", "assassin", "duke"]
    unmasked = [e for e in state.events(None) if e["kind"] == "unmasked"]
    assert unmasked == [{"kind": "unmasked", "roles": state.view(None)["roles"]}]


def test_mm29_seats_are_numbered_from_zero(state: MurderState) -> None:
    assert state.to_move == (0, 1, 2, 3, 4)
    assert [str(a) for a in state.legal_actions(4)] == [f"target {t}" for t in range(4)]
    with pytest.raises(InvalidAction):
        state.apply(0, "target 5")


def test_mm30_returns_and_green_count_scores() -> None:
    state = new_game()
    play_night(state, {T: D, A: D, D: S}, {T: "a1", A: "c1", D: "b1", C: "a3", S: "e2"})
    kill_duke(state)  # the Assassin's three poisons: three more GREEN
    outcome = state.outcome
    assert outcome.returns == (-1.0, 1.0, 1.0, 1.0, -1.0)
    assert outcome.scores == (0.0, 1.0, 0.0, 4.0, 0.0)  # the Thug's tie-score: 1 GREEN
    greens = [sum(r["colour"] == "GREEN" for r in state.view(s)["you"]["results"]) for s in SEATS]
    assert list(outcome.scores) == greens


def test_mm31_with_winner_thug_wins_with_good_after_leaving() -> None:
    state = new_game(thug_mode="with_winner", max_turns=4)
    poison_thug_nights(state, 3)
    quiet_nights(state, 1)
    assert state.outcome.winners == (C, T, D)


def test_mm32_departures_apply_before_the_end_check() -> None:
    """The Thug dies the night the Duke is jailed: he is not in the game at the end."""
    state = new_game()
    for _ in range(3):
        play_night(state, {C: D, A: T}, {C: "a1", D: "a2", A: "c1", T: "b1", S: "e4"})
    last = state.view(None)["nights"][-1]
    assert last["left"] == [{"seat": T, "how": "dead"}, {"seat": D, "how": "jailed"}]
    assert state.outcome.winners == (S, A)


def test_mm33_the_cap_option_is_max_turns_counting_nights() -> None:
    names = [opt["name"] for opt in GAME.info()["options"]]
    assert names == ["max_turns", "roles", "seating", "first_cards", "board", "thug_mode"]
    state = new_game(max_turns=2)
    quiet_nights(state, 2)
    assert state.is_over and len(state.view(None)["nights"]) == 2


def test_mm34_nobody_holds_the_joker_when_it_is_the_extra(state: MurderState) -> None:
    choose_targets(state, {})
    placement = state.view(None)["placement"]
    assert (placement["extra"], placement["joker"]) == ("joker", None)
    for seat in placement["order"]:
        assert all(a.verb == "place" for a in state.legal_actions(seat))
        state.apply(seat, f"place {QUIET[seat]}")


def test_mm35_decided_is_public_the_target_private(state: MurderState) -> None:
    state.apply(3, "target 4")
    for seat in (None, 0, 1, 2, 4):
        assert [row["decided"] for row in state.view(seat)["table"]] == [
            False,
            False,
            False,
            True,
            False,
        ]
        assert [e for e in state.events(seat) if e["kind"] == "targeted"] == []
        assert {"kind": "decided", "seat": 3} in state.events(seat)
    assert state.view(3)["you"]["target"] == 4


def test_mm36_cells_on_no_board_are_not_actions(state: MurderState) -> None:
    choose_targets(state, {})
    for cell in ("b2", "d2", "f1", "a5"):
        with pytest.raises(InvalidAction):
            state.apply(0, f"place {cell}")
