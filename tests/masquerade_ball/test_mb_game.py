"""Winning (MB-20, MB-23, the cap), knowledge and memory (MB-11), determinize, replays."""

from __future__ import annotations

import random

import pytest
from mb_helpers import dealt, game_obj, legal, play, play_randomly, position

import intrigue
from intrigue.engine import Rng


def _south_on_c1(*extra: str):
    # South's Queen stands on North's throne c1; North has no card on c1 or d1.
    return position("1:q@c2", "0:2@a3", "0:3@f3", "1:k@f7", *extra, first=1)


def test_t14_win_after_holding_the_enemy_throne_for_a_full_turn() -> None:
    state = _south_on_c1()
    play(state, "inspect c2", "move c2 c1", "end")  # South stands on c1 at the end of its turn
    assert state.view(None)["holding"] == [{"seat": 1, "side": 0}]
    play(state, "inspect a3", "move a3 a4", "end")  # North's turn ends without changing that
    assert not state.is_over
    play(state, "inspect f7", "end")  # South's following turn ends: the condition still holds
    assert state.is_over and state.outcome.winners == (1,)
    assert state.outcome.returns == (-1.0, 1.0)


def test_win_needs_the_condition_through_the_opponents_turn() -> None:
    # North retakes d1 during its turn: South's streak is broken even if it leaves again.
    state = position("1:q@c2", "0:k@e2", "0:3@f3", "1:k@f7", first=1)
    play(state, "inspect c2", "move c2 c1", "end")
    play(state, "inspect e2", "move e2 d1", "end")  # a North card on a North throne
    assert state.view(None)["holding"] == []
    play(state, "inspect f7", "end")
    assert not state.is_over


def test_win_needs_every_enemy_card_off_both_thrones() -> None:
    state = position("1:q@c2", "0:k@d1", "0:3@f3", "1:k@f7", first=1)
    play(state, "inspect c2", "move c2 c1", "end")
    play(state, "inspect f3", "end")
    play(state, "inspect f7", "end")
    assert not state.is_over


def test_win_path_by_conquest_of_the_throne_by_attack() -> None:
    # the other win path: South's Nun slays North's King on its throne, then holds it
    state = position("1:2@c2", "0:k@c1", "0:3@f3", "1:k@f7", first=1)
    play(state, "inspect c2", "move c2 c1", "end")
    assert state.rank_at("c1") == "2"
    play(state, "inspect f3", "end")
    play(state, "inspect f7", "end")
    assert state.outcome.winners == (1,)


def test_cap_is_a_draw() -> None:
    state = dealt(max_turns=2)
    rng = random.Random(3)
    while not state.is_over:
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.outcome.capped and state.outcome.winners == ()
    assert state.outcome.returns == (0.0, 0.0)


def test_inspection_is_private_and_remembered() -> None:
    state = dealt()
    play(state, "inspect c3", "move c3 b4", "end")
    seen = [e for e in state.events(0) if e["kind"] == "saw"]
    assert seen == [{"kind": "saw", "square": "c3", "rank": "4", "private": True}]
    assert not [e for e in state.events(1) if e["kind"] == "saw"]
    assert state.view(0)["board"]["b4"]["rank"] == "4"  # perfect memory (MB-11)
    assert state.view(1)["board"]["b4"]["rank"] is None
    assert state.view(None)["board"]["b4"]["rank"] is None


def test_concentration_memory_shows_own_cards_only_while_acting() -> None:
    state = dealt(memory="concentration")
    play(state, "inspect c3")
    assert state.view(0)["board"]["c3"]["rank"] == "4"
    play(state, "move c3 b4", "end")
    assert state.view(0)["board"]["b4"]["rank"] is None
    assert state.view(0)["board"]["c1"]["rank"] == "K"  # own thrones may be looked at


def test_views_show_piles_to_their_keepers_only() -> None:
    state = position("0:k@c3", "1:q@prison0", "0:5@grave", "1:k@f7", "0:2@hand")
    north, south = state.view(0)["sides"], state.view(1)["sides"]
    assert north[0]["prison"]["cards"] == ["Q"] and north[0]["hand"]["cards"] == ["2"]
    assert south[0]["prison"] == {"count": 1, "known": []}
    assert south[0]["graveyard"] == {"count": 1, "known": []}
    assert south[0]["hand"] == {"count": 1, "known": []}


def _random_state(seed: int, steps: int, players: int = 2):
    return play_randomly(game_obj().new(players, seed=seed, max_turns=60), seed, steps)


@pytest.mark.parametrize("seed", range(8))
def test_determinize_keeps_what_the_seat_saw_and_varies_the_rest(seed: int) -> None:
    state = _random_state(seed, 40 + 25 * seed)
    for seat in range(2):
        sample = state.determinize(seat, Rng(seed))
        assert sample.view(seat) == state.view(seat)
        assert sample.events(seat) == state.events(seat)
        assert sample.view(None) == state.view(None)
        again = intrigue.replay(sample.record().to_json())
        assert again.view(seat) == sample.view(seat)


def test_determinize_resamples_unseen_ranks() -> None:
    state = dealt()
    play(state, "inspect c3")
    unseen = ["b5", "c5", "d5", "e5", "a6", "b6"]
    samples = [state.determinize(0, Rng(i)) for i in range(12)]
    layouts = {tuple(s.rank_at(sq) for sq in unseen) for s in samples}
    assert len(layouts) > 1
    assert all(s.rank_at("c3") == "4" and s.rank_at("c1") == "K" for s in samples)


def test_clone_is_independent_and_replay_exact() -> None:
    state = _random_state(11, 30)
    clone = state.clone()
    seat = clone.to_move[0]
    clone.apply(seat, clone.legal_actions(seat)[0])
    assert len(state.history) == 30 or state.is_over
    again = intrigue.replay(state.record().to_json())
    assert again.view(0) == state.view(0) and again.view(1) == state.view(1)


def test_setup_option_is_checked() -> None:
    from intrigue.engine import InvalidOption

    for bad in (["0:q@c3", "0:q@d3"], ["0:zz@c3"], ["0:q@z9"], ["0:q@c3", "1:k@c3"], ["0:q@ball"]):
        with pytest.raises(InvalidOption):
            game_obj().new(2, setup=bad)
    with pytest.raises(InvalidOption):
        game_obj().new(2, first=3)


def test_every_legal_action_is_in_the_table_and_round_trips() -> None:
    state = _random_state(5, 80)
    game = game_obj()
    for action in state.legal_actions(state.to_move[0]) if not state.is_over else []:
        assert game.action_at(game.action_index(action)) == action
        assert game.parse_action(str(action)) == action
    assert "end" in {str(a) for a in game.action_table}
    assert legal(dealt())


def _last_card_lost(**options: object):
    # South's Jack attacks North's Queen on c3 and is imprisoned: South has nothing left.
    state = position("0:q@c3", "0:k@a1", "1:j@c4", first=1, **options)
    play(state, "inspect c4", "move c4 c3", "end")
    return state


def test_mb23_a_side_left_with_nothing_loses_right_after_the_verdicts() -> None:
    state = _last_card_lost()
    assert state.is_over and state.outcome.winners == (0,)
    assert "no card left" in state.outcome.reason
    # North never gets a release window in which it could revive South's Jack
    assert not any(e["kind"] == "turn" and e["seat"] == 0 for e in state.events(None))


def test_mb23_comes_before_the_cap() -> None:
    state = _last_card_lost(max_turns=1)
    assert state.is_over and not state.outcome.capped and state.outcome.winners == (0,)


def test_mb23_the_side_that_loses_its_last_card_attacking_loses_in_its_own_turn() -> None:
    state = position("0:q@c3", "0:j@e3", "1:2@d4", "1:k@f7", first=0)
    # North's Queen is imprisoned by the Nun (Church beats Royalty); its Jack is left.
    play(state, "inspect c3", "move c3 d4", "end")
    assert not state.is_over
    state = position("0:j@c4", "1:q@c5", "1:k@f7", first=0)
    play(state, "inspect c4", "move c4 c5", "end")  # the Jack is imprisoned: North is empty
    assert state.is_over and state.outcome.winners == (1,)


def test_mb23_both_sides_emptied_by_a_tie_is_a_draw() -> None:
    state = position("0:k@c4", "1:k@c5", first=0)
    play(state, "inspect c4", "move c4 c5", "end")
    assert state.is_over and state.outcome.winners == () and not state.outcome.capped


def test_a_position_coming_round_again_is_counted_for_everyone() -> None:
    """Both sides inspect and end: every second turn starts from the same public position."""
    state = position("0:5@a3", "0:3@f3", "1:k@f7", "1:q@a6", first=0)
    assert state.view(0)["repeats"] == 0 and state.repetitions == 0
    play(state, "inspect a3", "end")
    play(state, "inspect f7", "end")
    assert state.view(0)["repeats"] == state.view(None)["repeats"] == 1
    assert state.repetitions == 1
    play(state, "inspect f3", "end")  # another card inspected: the same public position
    assert state.view(1)["repeats"] == 1 and state.repetitions == 2
    play(state, "inspect f7", "move f7 e7", "end")  # a move makes a new position
    assert state.view(0)["repeats"] == 0 and state.repetitions == 2
    # Samples know the public past: the same counts, whatever ranks they draw.
    sample = state.determinize(1, Rng(4))
    assert (sample.repeats, sample.repetitions) == (0, 2)
    assert sample.positions == state.positions


def test_the_count_reads_no_hidden_rank() -> None:
    """Two deals that differ only in face-down ranks count the same repeats."""
    counts = []
    for south in ("1:k@f7", "1:9@f7"):
        state = position("0:5@a3", "0:3@f3", south, "1:q@a6", first=0)
        play(state, "inspect a3", "end", "inspect f7", "end", "inspect a3", "end")
        counts.append((state.positions, state.repetitions))
    assert counts[0] == counts[1] and counts[0][1] == 2  # turns 3 and 4 came round again
