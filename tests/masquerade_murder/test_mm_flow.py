"""The flow of a night through the engine protocol: phases, whose turn it is, what is public,
and every kind of illegal or invalid input (each leaving the state exactly as it was)."""

from __future__ import annotations

import random

import pytest
from mm_helpers import (
    GAME,
    QUIET,
    SEATS,
    A,
    C,
    D,
    T,
    assert_illegal,
    choose_targets,
    draft,
    new_game,
    place_all,
    play_night,
    quiet_nights,
    snapshot,
)

import intrigue
from intrigue.engine import Action, IllegalAction, InvalidAction, InvalidOption
from intrigue.games.masquerade_murder.rules import MurderState


def test_registered_and_new() -> None:
    assert "masquerade-murder" in intrigue.engine.game_ids()
    info = next(g for g in intrigue.games() if g["id"] == "masquerade-murder")
    assert info["players"] == [5]
    state = GAME.new(5, 1)
    assert state.night == 1 and state.phase == "target" and not state.is_over


def test_phases_of_the_first_nights(state: MurderState) -> None:
    phases = [(state.night, state.phase)]
    choose_targets(state, {})
    phases.append((state.night, state.phase))
    place_all(state, QUIET)
    phases.append((state.night, state.phase))
    choose_targets(state, {})
    phases.append((state.night, state.phase))
    draft(state)
    phases.append((state.night, state.phase))
    place_all(state, QUIET)
    phases.append((state.night, state.phase))
    assert phases == [
        (1, "target"),
        (1, "placement"),  # night 1: the cards are dealt, no draft
        (2, "target"),
        (2, "draft"),
        (2, "placement"),
        (3, "target"),
    ]
    kinds = [e["kind"] for e in state.events(None)]
    assert kinds.count("night") == 3 and kinds.count("revelation") == 2
    assert kinds.count("dealt") == 1 and kinds.count("draft") == 1


def test_to_move_in_the_target_phase_is_every_undecided_seat(state: MurderState) -> None:
    assert state.to_move == (0, 1, 2, 3, 4)
    for seat in (3, 0, 4, 1):
        state.apply(seat, f"target {(seat + 1) % 5}")
        assert seat not in state.to_move
        assert state.legal_actions(seat) == []
        assert state.phase == "target"
    assert state.to_move == (2,)
    state.apply(2, "target 0")
    assert state.phase == "placement" and state.to_move == (0,)


def test_decided_flags_public_targets_private(state: MurderState) -> None:
    state.apply(1, "target 4")
    state.apply(4, "target 0")
    for seat in (None, *SEATS):
        view = state.view(seat)
        assert [row["decided"] for row in view["table"]] == [False, True, False, False, True]
        targeted = [e for e in state.events(seat) if e["kind"] == "targeted"]
        mine = {1: [4], 4: [0]}.get(seat, []) if seat is not None else []
        assert [e["target"] for e in targeted] == mine
        if seat is not None:
            assert view["you"]["target"] == (mine[0] if mine else None)


def test_draft_passes_along_the_seating() -> None:
    state = new_game(seating=(2, 4, 1, 3, 0), first_cards=("two", "jack", "ace", "queen", "king"))
    play_night(state)
    choose_targets(state, {})
    for drawer in (2, 4, 1, 3, 0):
        assert state.to_move == (drawer,)
        view = state.view(None)["draft"]
        assert view["drawer"] == drawer and view["pile_size"] == 6 - view["drawers"].index(drawer)
        for other in set(SEATS) - {drawer}:
            assert state.legal_actions(other) == []
        state.apply(drawer, state.legal_actions(drawer)[-1])
    assert state.phase == "placement"
    drew = [e["seat"] for e in state.events(None) if e["kind"] == "drew"]
    assert drew == [2, 4, 1, 3, 0]


def test_placement_follows_the_cards() -> None:
    state = new_game(first_cards=("king", "joker", "two", "queen", "ace"))  # extra: Jack
    choose_targets(state, {})
    assert state.view(None)["placement"]["order"] == [4, 2, 1, 3, 0]
    assert place_all(state, QUIET) == [4, 2, 1, 3, 0]
    placed = [e["seat"] for e in state.events(None) if e["kind"] == "placed"]
    assert placed == [4, 2, 1, 3, 0]


def test_action_text_round_trips(state: MurderState) -> None:
    for action in state.legal_actions(0):
        assert GAME.parse_action(str(action)) == action
        assert Action.from_json(action.to_json()) == action
        assert GAME.action_at(GAME.action_index(action)) == action


def test_replay_and_clone() -> None:
    state = new_game()
    play_night(state, {A: D}, {A: "a1", D: "b1", C: "a3", T: "e2", 2: "d4"})
    choose_targets(state, {})
    clone = state.clone()
    draft(clone)
    assert state.phase == "draft" and clone.phase == "placement"
    replayed = intrigue.replay(state.record().to_json())
    assert snapshot(replayed) == snapshot(state)


# -- illegal actions: IllegalAction with a reason, state unchanged -------------------------
def test_illegal_in_the_target_phase(state: MurderState) -> None:
    assert_illegal(state, 0, "target 0", "yourself")
    assert_illegal(state, 0, "place a1", "target phase", "target <seat>")
    assert_illegal(state, 0, "draw ace", "target phase")
    assert_illegal(state, 0, "swap a1 b1", "target phase")
    state.apply(0, "target 1")
    assert_illegal(state, 0, "target 2", "not this seat's turn")  # no changing one's mind
    with pytest.raises(IllegalAction, match="no seat 7"):
        state.apply(7, "target 1")


def test_illegal_in_the_draft() -> None:
    state = new_game()
    quiet_nights(state, 1)
    choose_targets(state, {})
    assert_illegal(state, 1, "draw ace", "not this seat's turn", "waiting for 0")
    assert_illegal(state, 0, "target 1", "draft phase", "draw <card>")
    assert_illegal(state, 0, "place a1", "draft phase")
    state.apply(0, "draw ace")
    assert_illegal(state, 1, "draw ace", "the pile holds only two, jack, queen, king, joker")


def test_illegal_in_the_placement() -> None:
    state = new_game(first_cards=("ace", "two", "joker", "queen", "king"))
    choose_targets(state, {})
    assert_illegal(state, 1, "place a1", "not this seat's turn", "waiting for 0")
    assert_illegal(state, 0, "target 1", "placement phase", "place <cell>")
    assert_illegal(state, 0, "draw ace", "placement phase")
    assert_illegal(state, 0, "place b3", "not a seat", "table")
    assert_illegal(state, 0, "swap a1 b1", "only the joker holder")
    state.apply(0, "place a1")
    assert_illegal(state, 1, "place a1", "already taken by seat 0")
    state.apply(1, "place c1")
    err = assert_illegal(state, 2, "target 1", "swap <placed cell> <empty cell>")
    assert "placement phase" in err.reason
    assert_illegal(state, 2, "swap d1 e1", "no cube has been placed on d1")
    assert_illegal(state, 2, "swap a1 c1", "already taken")
    assert_illegal(state, 2, "swap a1 d3", "table")


def test_illegal_after_the_end() -> None:
    state = new_game(max_turns=1)
    quiet_nights(state, 1)
    assert state.is_over and state.to_move == ()
    assert all(state.legal_actions(s) == [] for s in SEATS)
    for seat in SEATS:
        assert_illegal(state, seat, "target 1" if seat != 1 else "target 0", "game is over")
    assert_illegal(state, 0, "place a1", "game is over")


@pytest.mark.parametrize(
    "text",
    ["", "   ", "fly away", "target", "target x", "target 9", "draw ten", "place z9", "swap c1"],
)
def test_garbage_text_is_invalid(state: MurderState, text: str) -> None:
    before = snapshot(state)
    with pytest.raises(InvalidAction):
        state.apply(0, text)
    assert snapshot(state) == before


def test_non_action_objects_are_invalid(state: MurderState) -> None:
    before = snapshot(state)
    for thing in (3, None, ("target", 1)):
        with pytest.raises(InvalidAction):
            state.apply(0, thing)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_departed_seat_is_skipped_everywhere() -> None:
    state = new_game()
    for _ in range(3):
        play_night(state, {A: T}, {A: "a1", T: "b1", C: "a3", 2: "e2", D: "d4"})
    assert state.to_move == (0, 2, 3, 4)
    assert state.view(T)["table"][T]["decided"] is None
    choose_targets(state, {})
    assert T not in draft(state)
    assert T not in state.view(None)["placement"]["order"]


# -- options -------------------------------------------------------------------------------
def test_option_defaults() -> None:
    state = GAME.new(5, 3)
    assert {k: state.options[k] for k in ("max_turns", "board", "thug_mode")} == {
        "max_turns": None,
        "board": "theta16",
        "thug_mode": "survive",
    }
    deals = {GAME.new(5, seed).roles for seed in range(30)}
    assert all(sorted(deal) == [0, 1, 2, 3, 4] for deal in deals)
    assert len(deals) > 10  # roles are dealt at random


@pytest.mark.parametrize(
    "options",
    [
        {"roles": ["duke", "duke", "thug", "assassin", "seductress"]},
        {"roles": ["constable", "thug", "seductress", "assassin"]},
        {"roles": ["constable", "thug", "seductress", "assassin", "king"]},
        {"seating": ["0", "1", "2", "3"]},
        {"seating": ["0", "1", "2", "3", "3"]},
        {"first_cards": ["ace", "two", "jack", "queen"]},
        {"first_cards": ["ace", "ace", "jack", "queen", "king"]},
        {"first_cards": ["ace", "two", "ten", "queen", "king"]},
        {"board": "hex"},
        {"thug_mode": "always"},
        {"max_turns": 0},
        {"colour": "blue"},
    ],
)
def test_bad_options_are_rejected(options: dict) -> None:
    with pytest.raises(InvalidOption):
        GAME.new(5, 1, **options)


def test_five_players_only() -> None:
    for players in (4, 6):
        with pytest.raises(InvalidOption):
            GAME.new(players, 1)


def test_night_events_are_logged_as_references_and_read_as_the_nights_records() -> None:
    """A finished night's revelation and each seat's result are logged as numbers into the
    state's records (no function object kept for the rest of the game, which the garbage
    collector would walk), and read back as those records say, in clones too."""
    state = new_game(seed=11)
    rng = random.Random(11)
    clones = []
    while not state.is_over and len(state.nights) < 4:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        clones.append(state.clone())
    assert len(state.nights) >= 2
    for kind, data, _ in state._log_entries():
        assert type(data) is dict or (kind in ("revelation", "result") and not callable(data))
    for later in (state, clones[-1]):
        for seat in SEATS:
            results = [e for e in later.events(seat) if e["kind"] == "result"]
            expected = [r.private(seat) for r in later.nights if r.active[seat]]
            assert [
                {k: v for k, v in e.items() if k not in ("kind", "private")} for e in results
            ] == expected
        revelations = [e for e in later.events(None) if e["kind"] == "revelation"]
        assert [{k: v for k, v in e.items() if k != "kind"} for e in revelations] == [
            r.public() for r in later.nights
        ]


def test_views_own_their_night_lists_and_shared_views_share_the_empty_ones() -> None:
    """`view` hands out lists its caller may change; `shared_view` (read only) lets every
    night's empty fields share one list, so changing a view never changes another."""
    state = new_game(seed=3)
    quiet_nights(state, 2)
    shared = [state.shared_view(seat)["you"]["results"][0]["effects"] for seat in SEATS]
    assert all(effects == [] for effects in shared)
    assert all(effects is shared[0] for effects in shared)  # one list, not one a seat
    mine = state.view(0)
    mine["you"]["results"][0]["effects"].append("poisoned")
    mine["nights"][0]["captured"].append(4)
    assert state.view(0) == state.shared_view(0) != mine
    assert shared[0] == []
