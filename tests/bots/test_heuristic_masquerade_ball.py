"""The Masquerade Ball heuristic: legal, view-only, sensible, and far stronger than random."""

from __future__ import annotations

import random

import pytest

import intrigue
from intrigue.bots import make_bot
from intrigue.bots.heuristic import policy_for
from intrigue.bots.heuristics import masquerade_ball as ball
from intrigue.bots.heuristics.masquerade_ball import choose
from intrigue.bots.match import bot_move
from intrigue.engine import Rng
from intrigue.games.masquerade_ball.rules import BallState
from intrigue.lab.arena import run_arena

GAME = intrigue.load("masquerade-ball")


def position(*cards: str, first: int = 0, players: int = 2, **options: object) -> BallState:
    state = GAME.new(players, seed=7, setup=list(cards), first=first, **options)
    assert isinstance(state, BallState)
    return state


def decide(state: BallState, seed: int = 0) -> str:
    (seat,) = state.to_move
    action = choose(state.view(seat), state.legal_actions(seat), Rng(seed))
    assert action in state.legal_actions(seat)
    return str(action)


def test_registered_as_the_games_heuristic() -> None:
    assert policy_for("masquerade-ball") is choose


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("opponent", ["heuristic", "random"])
def test_only_legal_actions_over_whole_games(players: int, opponent: str) -> None:
    bots = {"heuristic": make_bot("heuristic"), "random": make_bot("random")}
    for seed in range(4 if players > 2 else 8):
        names = ["heuristic" if (s + seed) % 2 == 0 else opponent for s in range(players)]
        state = GAME.new(players, seed=seed, max_turns=120)
        rng = random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_move
            legal = state.legal_actions(seat)
            action = bot_move(bots[names[seat]], state, seat, Rng(rng.getrandbits(64)))
            assert action in legal
            state.apply(seat, action)


def test_steps_onto_an_empty_enemy_throne() -> None:
    state = position("0:q@c6", "0:k@a1", "1:k@f6", "1:j@a7")
    state.apply(0, "inspect c6")
    assert decide(state) in ("move c6 c7", "move c6 d7")


def test_attacks_an_intruder_on_its_own_throne() -> None:
    # South's card sits on North's throne c1; North's Nun on c2 can strike it by the link.
    state = position("1:k@c1", "0:2@b2", "0:q@e1", "1:q@f7", first=0)
    assert decide(state) == "inspect b2"
    state.apply(0, "inspect b2")
    assert decide(state) == "move b2 c1"


def test_prefers_a_winning_attack_to_a_losing_one() -> None:
    # North's known 9 (Aristocracy) can take a face-up Spy (State) or a face-up Queen.
    state = position("0:9@c4", "1:5@b5!", "1:q@d5!", "0:k@c1", "1:k@f7")
    state.apply(0, "inspect c4")
    assert decide(state) == "move c4 b5"


def test_inspects_unknown_cards_rather_than_idle_known_ones() -> None:
    state = GAME.new(2, seed=1, first=0)
    choice = decide(state)
    assert choice not in ("inspect c1", "inspect d1")  # its throne cards are already known


def test_a_known_card_on_an_enemy_throne_is_not_inspected_again() -> None:
    """East's Jack stands on West's throne c1, West's face-up Queen, which beats it, on the
    other: inspecting the Jack (known, as far forward as a card goes) would only let it step
    off or stand, so another card acts (a four-player ball's `medium` seat inspected such a
    card every turn for 400 turns, docs/games/masquerade-ball.md, *What the balls still
    capped were made of*)."""
    cards = ("1:j@wc1!", "1:10@ee3!", "1:k@ec1", "0:k@nc1", "2:k@sc1", "3:q@wd1!")
    state = position(*cards, first=1, players=4)
    assert decide(state) == "inspect ee3"
    state.apply(1, "inspect ee3")
    assert decide(state) == "move ee3 ball"  # towards the other courtrooms


def test_a_known_card_with_nowhere_further_to_go_is_not_inspected_every_turn() -> None:
    """Four players: East's known King stands next to North's thrones, one held by a Queen
    that beats it, the other by North's King; its every step is sideways or back. Inspecting
    it would lose the turn to it, so another card acts (ball 525 of the four-player ladder:
    two `medium` seats each inspected one such card every turn for 150 turns,
    docs/games/masquerade-ball.md, *Cards inspected for nothing*)."""
    cards = ("1:k@nd2!", "1:10@ee3!", "1:q@ec1", "0:q@nd1!", "0:k@nc1!", "2:k@sc1", "3:q@wd1")
    state = position(*cards, first=1, players=4)
    assert decide(state) == "inspect ee3"


def test_a_known_card_that_reaches_an_empty_enemy_throne_is_inspected_and_takes_it() -> None:
    """Four players, as two: a known card is inspected for what it can do from where it
    stands: East's King next to North's empty throne c1 steps onto it."""
    cards = ("1:k@nd2!", "1:10@ee3!", "1:q@ec1", "0:q@nd1!", "0:5@na1", "2:k@sc1", "3:q@wd1")
    state = position(*cards, first=1, players=4)
    assert decide(state) == "inspect nd2"
    state.apply(1, "inspect nd2")
    assert decide(state) == "move nd2 nc1"


def test_never_releases_and_keeps_what_it_conquers() -> None:
    state = position("0:k@c3", "1:q@prison0", "1:k@f7", "0:2@a1")
    assert "release 0" in {str(a) for a in state.legal_actions(0)}
    assert not decide(state).startswith("release")
    state.apply(0, "inspect c3")
    state.apply(0, "move c3 c4")
    state.apply(0, "end")
    assert state.phase == "release"
    assert decide(state) == "pass"


def test_beats_the_random_bot_clearly() -> None:
    """40 seeded games, seats alternating. Measured: 40 wins of 40, none capped."""
    result = run_arena("masquerade-ball", ["heuristic", "random"], 40, options={"max_turns": 200})
    assert result.by_bot["heuristic"].rate >= 0.8
    assert result.by_bot["random"].rate <= 0.2


def test_moves_before_using_an_ability() -> None:
    # The seed's order: an ability ends the movement, so the played Queen advances first and
    # only then does the Diplomat (not bound to move: a2 and b2 are taken) free its prisoner.
    state = position("0:6@a1", "0:k@b1", "0:j@b2", "0:q@hand", "0:10@prison1", "1:k@f7")
    for action in ("inspect a1", "play 0", "place c3"):
        state.apply(0, action)
    assert "free 0" in {str(a) for a in state.legal_actions(0)}
    assert decide(state).startswith("move c3")
    state.apply(0, decide(state))
    assert decide(state) == "free 0"


def test_a_position_that_came_round_again_gets_another_move():
    """The first time, the best move; when the turn starts from the same position again, the
    next best that is worth nearly as much (here a Spy, 0.01 below the move), so that the
    ball does not go round in circles."""
    setup = ["0:5@a3", "0:3@f3", "1:k@f7", "1:q@a6"]
    state = intrigue.load("masquerade-ball").new(2, seed=7, setup=setup, first=0)
    state.apply(0, "inspect a3")
    assert state.view(0)["repeats"] == 0
    assert str(choose(state.view(0), state.legal_actions(0), Rng(1))) == "move a3 b4"
    for seat, action in [(0, "end"), (1, "inspect f7"), (1, "end"), (0, "inspect a3")]:
        state.apply(seat, action)
    assert state.view(0)["repeats"] == 1
    again = {str(choose(state.view(0), state.legal_actions(0), Rng(s))) for s in range(8)}
    assert again == {"spy f7", "spy a6"}


def test_keeps_an_enemy_throne_it_has_held_since_its_last_turn():
    """MB-20: South's 4 has stood on North's throne c1 since South's last turn, North's
    thrones free of North's cards. Ending the turn now wins; the heuristic does not inspect
    the 4 (an even card inspected must move if it can) but its other card, and ends the turn
    (before, a medium ball in fifty ended at the 200-turn cap this way: the card stepped off
    again, often moved by the loop-breaker, docs/games/masquerade-ball.md)."""
    state = position("1:4@c1", "1:k@f7", "0:k@a4", "0:q@e6", first=1)
    for seat, action in [(1, "inspect f7"), (1, "end"), (0, "inspect a4"), (0, "end")]:
        state.apply(seat, action)
    assert {"seat": 1, "side": 0} in state.view(1)["holding"]
    for seed in range(8):
        turn = state.clone()
        assert decide(turn, seed) == "inspect f7"
        turn.apply(1, "inspect f7")
        assert decide(turn, seed) == "end"
        turn.apply(1, "end")
        assert turn.is_over and turn.outcome.winners == (1,)


@pytest.mark.parametrize("players", [2, 4])
def test_the_shortlist_puts_the_policy_move_first_then_the_rest_by_score(players: int) -> None:
    """The search's ``width`` keeps the shortlist's first moves: the policy's own move (for
    the same generator), then every other legal move, best scored first."""
    state = GAME.new(players, seed=11, max_turns=200)
    rng = random.Random(11)
    checked = 0
    while not state.is_over and checked < 60:
        seat = state.to_move[0]
        legal = state.legal_actions(seat)
        if len(legal) > 2:
            ranked = ball.shortlist(state, seat, legal, Rng(checked))
            assert sorted(map(str, ranked)) == sorted(map(str, legal))
            assert ranked[0] == ball.rollout_policy(state, seat, legal, Rng(checked))
            worth = {a: s for s, a in ball._scores(ball._Reader(state.view(seat)), legal)}
            rest = [worth[a] for a in ranked[1:]]
            assert rest == sorted(rest, reverse=True)
            checked += 1
        state.apply(seat, ball.rollout_policy(state, seat, legal, Rng(rng.getrandbits(64))))
    assert checked == 60


def _reference_strength(state: BallState, seat: int) -> list[float]:
    """The evaluation's counts for one seat, written out seat by seat (as they were before
    `_strengths` counted every seat in one pass)."""
    geo, ctrl, owner, rank, pos = state.geo, state.ctrl, state.owner, state.rank, state.pos
    mine = [e for e in range(len(ctrl)) if ctrl[e] == seat]
    cards = value = advance = 0.0
    for cid in range(state.ncards):
        sq = pos[cid]
        if ctrl[owner[cid]] != seat or (sq < 0 and sq not in ball.AFOOT):
            continue
        cards += 1
        value += ball.VALUE[rank[cid]]
        if sq < 0 or geo.court[sq] < 0:
            advance += 3
        else:
            row = geo.local[sq][0]
            advance += row if ctrl[geo.court[sq]] == seat else 6 - row
    thrones = guards = intruders = 0
    for court, squares in enumerate(geo.thrones):
        for sq in squares:
            cid = state.board[sq]
            if cid < 0:
                continue
            holder = ctrl[owner[cid]]
            if ctrl[court] == seat:
                guards += holder == seat
                intruders += holder != seat
            elif holder == seat:
                thrones += 1
    n = state.players
    return [
        cards,
        value / 4,
        advance / 4,
        sum(len(state.hand[e]) for e in mine),
        sum(len(state.prison[e]) for e in mine),
        thrones,
        guards - intruders,
        float(any(state.holding[seat * n + c] for c in range(n))),
    ]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seats_features_come_from_one_count_of_the_board(players: int) -> None:
    """`seat_features` counts every seat in one pass: each seat's row is its own counts less
    those of its strongest rival (the first of equals), then who is to move, exactly as the
    counts made seat by seat give them."""
    rivals_fallen = 0
    for seed in range(3):
        state = GAME.new(players, seed=seed, max_turns=150)
        rng = random.Random(seed)
        while not state.is_over:
            rows = [_reference_strength(state, s) for s in range(players)]
            mover = state.to_move[0]
            for seat, features in enumerate(ball.seat_features(state)):
                others = [row for s, row in enumerate(rows) if s != seat]
                theirs = max(others, key=lambda row: row[1] + 2 * row[5])
                expected = [a - b for a, b in zip(rows[seat], theirs, strict=True)]
                assert features == [*expected, 1.0 if mover == seat else -1.0]
                assert ball.features(state, seat) == features
            rivals_fallen += min(state.ctrl) < 0 or len(set(state.ctrl)) < players
            legal = state.legal_actions(mover)
            action = ball.rollout_policy(state, mover, legal, Rng(rng.getrandbits(64)))
            state.apply(mover, rng.choice(legal) if rng.random() < 0.3 else action)
    # In the palace, positions after a side fell or was conquered were checked too.
    assert rivals_fallen > 0 or players == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_reader_of_the_state_reads_the_board_and_unseen_ranks_as_the_view_shows_them(
    players: int,
) -> None:
    """What a reader of a determinization works out for the rollouts (every square's card, the
    ranks a seat has not seen, whose the sides and thrones are) is what the seat's view shows:
    for every seat at every position of seeded balls, prisons and finished balls included."""
    prisoners = 0
    for seed in range(3):
        state = GAME.new(players, seed=seed, max_turns=150)
        rng = random.Random(seed)
        while True:
            for seat in range(players):
                view = state.view(seat)
                from_view, from_state = ball._Reader(view), ball._Reader.from_state(state, seat)
                assert from_state.unseen == from_view.unseen
                facts = ("mine", "my_thrones", "enemy_thrones", "holds")
                assert [getattr(from_state, f) for f in facts] == [
                    getattr(from_view, f) for f in facts
                ]
                for square in state.geo.names:
                    assert (square in from_state.board) == (square in view["board"])
                    assert from_state.board.get(square) == view["board"].get(square)
                assert sorted(map(str, from_state.board.values())) == sorted(
                    map(str, view["board"].values())
                )
            prisoners += sum(map(len, state.prison))
            if state.is_over:
                break
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if rng.random() < 0.3:
                action = rng.choice(legal)
            else:
                action = ball.rollout_policy(state, seat, legal, Rng(rng.getrandbits(64)))
            state.apply(seat, action)
    assert prisoners > 0  # the prisons' rule was exercised


@pytest.mark.parametrize("players", [3, 4])
def test_a_seat_out_of_the_ball_is_beaten_and_evaluated_lost(players: int) -> None:
    """`beaten` holds for exactly the seats the referee announced eliminated (MB-29: every
    courtroom they controlled lost) and not liberated since (MB-28), and the evaluation gives
    each of them -1 whatever the board (MB-54: a seat out has lost), the seats still in the
    ball their strengths' value."""
    eliminated_seen = 0
    for seed in range(4):
        state = GAME.new(players, seed=seed, max_turns=600)
        rng = random.Random(seed)
        out: set[int] = set()
        read = 0
        while not state.is_over:
            news = state.events(None, since=read)
            read = state.log_length
            for event in news:  # a conqueror may hand a courtroom back: its owner is in again
                if event["kind"] == "eliminated":
                    out.add(event["seat"])
                elif event["kind"] == "liberated":
                    out.discard(event["side"])
            values = ball.evaluate(state)
            stall = ball.stalling(state)
            strengths = [v - stall * (v + 1.0) for v in ball._evaluate_strengths(state)]
            for seat in range(players):
                assert ball.beaten(state, seat) == (seat in out)
                assert values[seat] == (-1.0 if seat in out else strengths[seat])
            eliminated_seen += len(out)
            mover = state.to_move[0]
            legal = state.legal_actions(mover)
            action = ball.rollout_policy(state, mover, legal, Rng(rng.getrandbits(64)))
            state.apply(mover, rng.choice(legal) if rng.random() < 0.3 else action)
    assert eliminated_seen > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_state_counts_the_turns_since_an_attack_was_settled(players: int) -> None:
    """`fought` is the turn count at the end of the last turn whose attacks were settled (a
    `verdict` announced to everyone), whatever else happened since."""
    for seed in range(3):
        state = GAME.new(players, seed=seed, max_turns=300)
        rng = random.Random(seed)
        read, fought, settled = 0, 0, 0
        while not state.is_over:
            mover = state.to_move[0]
            legal = state.legal_actions(mover)
            action = ball.rollout_policy(state, mover, legal, Rng(rng.getrandbits(64)))
            state.apply(mover, rng.choice(legal) if rng.random() < 0.3 else action)
            news = [e["kind"] for e in state.events(None, since=read)]
            read = state.log_length
            if "verdict" in news:
                assert "untap" in news  # verdicts come at the end of a turn
                fought = state.turns
                settled += 1
            assert state.fought == fought
        assert settled > 0


def _quiet_ball(players: int, rounds: float) -> BallState:
    """A ball of ``players`` seats, all still in, whose last attack was ``rounds`` rounds ago."""
    state = GAME.new(players, seed=3)
    state.turns = 500
    state.fought = 500 - round(rounds * players)
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_a_ball_without_attacks_fades_towards_a_loss_for_every_seat(players: int) -> None:
    """With three or four players, `stalling` is 0 while some attack was settled within
    `QUIET_ROUNDS` rounds, then grows to 1 at twice as many; the evaluation draws every seat's
    value that far towards -1, so that lines in which an attack breaks a standoff score above
    those in which it goes on (docs/games/masquerade-ball.md, *Breaking a standoff*)."""
    quiet = ball.QUIET_ROUNDS
    assert ball.stalling(_quiet_ball(players, 0)) == 0.0
    assert ball.stalling(_quiet_ball(players, quiet)) == 0.0
    assert ball.stalling(_quiet_ball(players, 1.5 * quiet)) == pytest.approx(0.5, abs=0.05)
    assert ball.stalling(_quiet_ball(players, 2 * quiet)) == 1.0
    assert ball.stalling(_quiet_ball(players, 5 * quiet)) == 1.0
    half = _quiet_ball(players, 1.5 * quiet)
    stall = ball.stalling(half)
    fresh = ball._evaluate_strengths(half)
    assert ball.evaluate(half) == pytest.approx([v - stall * (v + 1) for v in fresh])
    assert ball.evaluate(_quiet_ball(players, 2 * quiet)) == [-1.0] * players


def test_rounds_are_counted_in_turns_of_the_seats_still_in() -> None:
    """A seat out of the ball takes no turns, so a round of three survivors is three turns."""
    state = _quiet_ball(4, 0)
    state.ctrl = [1, 1, 2, 3]  # seat 0 conquered by seat 1
    state.fought = state.turns - round(3 * 1.5 * ball.QUIET_ROUNDS)
    assert ball.stalling(state) == pytest.approx(0.5, abs=0.05)  # 0.125 in rounds of four


def test_two_player_balls_never_stall() -> None:
    """With two players the evaluation is unchanged however long since an attack: their
    balls do not stall (docs/games/masquerade-ball.md, *Loops*)."""
    state = _quiet_ball(2, 10 * ball.QUIET_ROUNDS)
    assert ball.stalling(state) == 0.0
    assert ball.evaluate(state) == ball._evaluate_strengths(state)
