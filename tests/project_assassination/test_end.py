"""The end of the game (PA-30, PA-40, PA-41, PA-T17)."""

from pa_helpers import P1, P2, arm, empty_board, enemy, new, only, put

from intrigue.bots import make_bot
from intrigue.bots.match import play_match
from intrigue.games.project_assassination import GAME
from intrigue.games.project_assassination.board import CELL


def last_enemy(vp, hp=(10, 10)):
    """The Enemy deck is empty and one Grunt (1 HP) is left, next to Player 1."""
    state = empty_board(new())
    state.enemy_deck = only()
    enemy(state, "d3", "grunt", hp=1)
    put(state, P1, "d4")
    state.vp[:] = vp
    state.hp[:] = hp
    return state


def test_pa_t17_clear_board_most_vp_wins():
    state = last_enemy((6, 5))
    state.apply(P1, "shoot 2 d3")
    assert state.is_over and state.outcome.winners == (P1,)
    assert state.outcome.scores == (7.0, 5.0) and "cleared" in state.outcome.reason
    assert state.to_move == () and state.legal_actions(P1) == []


def test_clear_board_equal_vp_higher_hp_wins_else_draw():
    state = last_enemy((4, 5), hp=(6, 9))
    state.apply(P1, "shoot 2 d3")
    assert state.outcome.winners == (P2,) and "HP" in state.outcome.reason
    state = last_enemy((4, 5), hp=(9, 9))
    state.apply(P1, "shoot 2 d3")
    assert state.outcome.winners == () and state.outcome.returns == (0.0, 0.0)


def test_no_end_while_enemies_remain_in_the_deck():
    state = empty_board(new())
    enemy(state, "d3", "grunt", hp=1)
    put(state, P1, "d4")
    state.apply(P1, "shoot 2 d3")
    assert not state.is_over and not state.enemies


def test_twelve_vp_wins_at_once_mid_turn():
    state = empty_board(new())
    state.vp[P1] = 11
    enemy(state, "d3", "grunt", hp=1)
    put(state, P1, "d4")
    state.actions = 2
    state.apply(P1, "shoot 2 d3")
    assert state.is_over and state.outcome.winners == (P1,) and "12 VP" in state.outcome.reason


def test_a_hit_on_the_rival_can_be_the_twelfth_vp():
    state = empty_board(new())
    state.vp[P2] = 11
    state.apply(P1, "end")
    put(state, P2, "a6")
    state.apply(P2, "shoot 2 a7")
    assert state.outcome.winners == (P2,)


def test_pa_t17_death_by_a_heavy_on_his_own_move():
    state = empty_board(new())
    enemy(state, "d1", "heavy")
    put(state, P1, "c3")
    state.hp[P1] = 5
    state.apply(P1, "move d3")
    assert state.is_over and state.outcome.winners == (P2,) and state.outcome.returns == (-1, 1)


def test_killing_the_rival_wins():
    state = empty_board(new())
    put(state, P1, "d4")
    put(state, P2, "d5")
    state.hp[P2] = 1
    state.apply(P1, "shoot 2 d5")
    assert state.outcome.winners == (P1,) and "died" in state.outcome.reason


def test_both_dead_at_once_higher_vp_wins_or_draw():
    for vp, winners in (((3, 1), (P1,)), ((1, 2), ()), ((0, 3), (P2,))):
        state = empty_board(new())
        put(state, P1, "a2")
        put(state, P2, "b2")
        state.hp[:] = [2, 2]
        state.vp[:] = vp
        state.points[P1] = ["grenade"]
        state.apply(P1, "move a1")
        state.apply(P1, "grenade a1")
        assert state.is_over and state.outcome.winners == winners
        # the hit on the rival scored before the end was checked
        assert state.outcome.scores[P1] == vp[P1] + 1


def test_death_comes_before_twelve_vp():
    state = empty_board(new())
    put(state, P1, "a2")
    put(state, P2, "g1")
    state.hp[P1] = 2
    state.vp[P1] = 11
    enemy(state, "b2", "grunt", hp=1)
    state.points[P1] = ["grenade"]
    state.apply(P1, "move a1")
    state.apply(P1, "grenade a1")
    assert state.outcome.winners == (P2,)


def test_turn_cap_most_vp_wins_equal_is_a_draw():
    state = new(max_turns=2)
    state.vp[P2] = 1
    state.apply(P1, "end")
    state.apply(P2, "end")
    assert state.is_over and state.outcome.capped and state.outcome.winners == (P2,)
    state = new(max_turns=1)
    state.hp[P2] = 3  # HP does not break a capped tie (RULINGS §0)
    state.apply(P1, "end")
    assert state.outcome.capped and state.outcome.winners == ()


def test_skipped_turns_count_towards_the_cap():
    state = empty_board(new(max_turns=2))
    arm(state, P1, "paralysis_pistol")
    put(state, P1, "a3")
    put(state, P2, "g3")
    state.apply(P1, "shoot 1 g3")
    state.apply(P1, "end")
    assert state.is_over and state.turns == 2 and state.outcome.winners == (P1,)
    assert state.pos[P2] == CELL["g3"]


def test_the_end_gives_every_seats_vp_by_source():
    """Shots at the rival and each kind of enemy killed, once the game is over (issue #17)."""
    state = last_enemy((0, 0))  # a 1 HP Grunt on d3, Player 1 on d4, the Enemy deck empty
    enemy(state, "c3", "heavy", hp=1)
    put(state, P2, "e3")
    arm(state, P1, "shotgun")  # its northern blast hits c3, d3 and e3
    assert "final" not in state.view(P1)
    state.apply(P1, "shoot 1 n")
    assert state.is_over and state.vp == [5, 0]
    final = {"vp_by_source": [{"rival": 1, "grunt": 1, "heavy": 3}, {}]}
    assert state.view(P1)["final"] == state.view(P2)["final"] == state.view(None)["final"] == final


def test_vp_by_source_adds_up_in_bot_games():
    """Every VP comes from a hit on the rival (1) or a kill (the enemy's VP), as the log says."""
    for seed in range(3):  # medium bots score from several sources (random ones hardly score)
        state = play_match(GAME.id, [make_bot("medium"), make_bot("medium")], seed)
        from_log: list[dict[str, int]] = [{}, {}]
        for event in state.events(None):
            gain = {"hit": 1 if event.get("target") == "rival" else 0, "kill": event.get("vp", 0)}
            source = "rival" if event["kind"] == "hit" else event.get("enemy")
            if gain.get(event["kind"]):
                mine = from_log[event["seat"]]
                mine[source] = mine.get(source, 0) + gain[event["kind"]]
        by_source = state.view(None)["final"]["vp_by_source"]
        assert by_source == from_log
        assert [sum(s.values()) for s in by_source] == state.vp and sum(state.vp) > 0
