"""The batch text hooks the server uses (`Game.describe_actions`, `Game.describe_events`) say
exactly what the one-at-a-time hooks say, for every game, seat and position of random games."""

from __future__ import annotations

import random

import pytest
from conformance_support import GAME_IDS

import intrigue


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_batch_texts_are_the_single_texts(game_id: str) -> None:
    game = intrigue.load(game_id)
    chooser = random.Random(11)
    for count in game.player_counts[:2]:
        state = game.new(count, 20261126 + count)
        since = 0
        while not state.is_over and len(state.history) < 400:
            for seat in [*range(state.players), None]:
                view = state.view(seat)
                legal = [] if seat is None else state.legal_actions(seat)
                assert game.describe_actions(legal, view) == [
                    game.describe_action(a, view) for a in legal
                ]
                events = state.events(seat, since=since)
                assert game.describe_events(events, view) == [
                    game.describe_event(e, view) for e in events
                ]
            since = state.log_length
            mover = chooser.choice(state.to_move)
            state.apply(mover, chooser.choice(state.legal_actions(mover)))
