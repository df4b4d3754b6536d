"""A move is played once: each ``act`` names the step it answers (issue 18, item 5).

The attack: an ``act`` carried no position, so the same frame sent twice played twice whenever
the move was still legal. In Shadows over Japan one ``end`` sent twice ended the actions phase
and then the whole gold phase of the player. Now a repeat of the move played at that step is
acknowledged again and not played; a move chosen on an older screen is refused with a reason.
"""

from __future__ import annotations

import json
from typing import Any

from server_driver import Player, create_table, first_action


def seated(server, connect, game: str, seats: list[str]) -> list[Player]:
    table = create_table(server.url, game=game, seats=seats, players=len(seats))
    players = [connect(table["id"], link["token"]) for link in table["links"]]
    for player in players:
        player.sync()
    return players


def answer(player: Player) -> dict[str, Any]:
    """The answer to the player's last move: an error or the update accepting it."""
    while True:
        message = player.recv()
        if message["type"] == "error" or message.get("accepted") is not None:
            return message


def mover(players: list[Player]) -> Player:
    return next(p for p in players if p.latest and p.latest["legal_actions"])


def play_until_end_is_legal(players: list[Player]) -> Player:
    """Play first legal moves until the seat to move may say ``end``; that seat."""
    while True:
        player = mover(players)
        if any(a["action"] == "end" for a in player.latest["legal_actions"]):
            return player
        assert player.act(first_action(player.latest))["type"] == "update"
        for other in players:
            if other is not player:
                other.recv()


def test_the_same_end_sent_twice_ends_one_phase_only(server, connect):
    players = seated(server, connect, "shadows-over-japan", ["human", "human"])
    player = play_until_end_is_legal(players)
    step, phase = player.latest["view"]["step"], player.latest["view"]["phase"]
    frame = json.dumps({"type": "act", "action": "end", "step": step})
    player.send(frame)
    player.send(frame)  # a resend after a lost answer, or a double click
    first, second = answer(player), answer(player)
    assert first["accepted"] == "end" and "repeated" not in first
    assert second["accepted"] == "end" and second["repeated"] is True
    assert second["view"]["step"] == step + 1  # played once: the next phase is still to come
    assert second["view"]["phase"] != phase
    assert any(a["action"] == "end" for a in second["legal_actions"])  # the gold phase waits


def test_a_move_from_an_older_screen_is_refused_and_changes_nothing(server, connect):
    players = seated(server, connect, "shadows-over-japan", ["human", "human"])
    player = play_until_end_is_legal(players)
    step = player.latest["view"]["step"]
    other_move = next(a["action"] for a in player.latest["legal_actions"] if a["action"] != "end")
    assert player.act(other_move)["accepted"] == other_move
    # Another move, chosen on the screen of that same step: refused, nothing played.
    player.send({"type": "act", "action": "end", "step": step})
    refused = answer(player)
    assert refused["type"] == "error" and "already played for your seat" in refused["message"]
    player.send({"type": "act", "action": "end", "step": step + 5})
    assert "no step" in answer(player)["message"]
    assert player.act("end")["view"]["step"] == step + 2  # the current step still plays


def test_a_seat_that_stopped_being_to_move_cannot_answer_an_old_step(server, connect):
    players = seated(server, connect, "shadows-over-japan", ["human", "human"])
    first = mover(players)
    second = next(p for p in players if p is not first)
    seen_by_second = second.latest["view"]["step"]  # second is not to move here
    while not second.latest["legal_actions"]:
        assert first.act(first_action(first.latest))["type"] == "update"
        second.recv()
    move = first_action(second.latest)
    second.send({"type": "act", "action": move, "step": seen_by_second})
    refused = answer(second)
    assert refused["type"] == "error" and "moved on" in refused["message"]
    assert second.act(move)["accepted"] == move


def test_moves_chosen_at_the_same_time_are_not_stale(server, connect):
    """Masquerade Murder's night choices are made together: a seat that chose on the screen of
    step 0 is still answered after another seat chose first."""
    players = seated(server, connect, "masquerade-murder", ["human"] * 5)
    assert all(p.latest["legal_actions"] for p in players[:2])
    targets = ["target 1", "target 2"]
    players[0].send({"type": "act", "action": targets[0], "step": 0})
    assert answer(players[0])["accepted"] == targets[0]
    players[1].send({"type": "act", "action": targets[1], "step": 0})
    accepted = answer(players[1])
    assert accepted["accepted"] == targets[1] and "repeated" not in accepted
