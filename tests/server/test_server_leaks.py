"""The leak check over the wire: random games of every game, every seat a real WebSocket client.

Each seat plays random legal moves; every message each connection gets (the spectator's too)
is checked against the test's own copy of the game by `wire_secrets.Watcher`: exactly the
seat's view, new events and legal moves, and no secret the seat may not know. Seats also
whisper now and then: a whisper reaches its two seats only.
"""

from __future__ import annotations

import copy
import json
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from server_driver import Player, ThreadServer, create_table
from wire_secrets import SECRET_CHECKS, PrivateLog, Watcher

import intrigue
from intrigue.engine import State
from intrigue.server.config import Settings
from intrigue.server.tables.messages import game_message

# (game, players, options, games): caps keep random games to a few dozen/hundred moves.
CASES = [
    ("masquerade-murder", 5, {"max_turns": 5}, 2),
    ("masquerade-ball", 2, {"max_turns": 80}, 2),
    ("masquerade-ball", 4, {"max_turns": 30}, 1),
    ("masquerade-ball", 4, {"max_turns": 30, "memory": "concentration"}, 1),
    ("project-assassination", 2, {}, 6),
    ("shadows-over-japan", 2, {}, 1),
    ("shadows-over-japan", 3, {"max_turns": 4}, 1),
    ("shadows-over-japan", 4, {"max_turns": 3}, 1),
]
# Longer and whole games, uncapped: `pytest -m slow`.
SLOW_CASES = [
    ("masquerade-murder", 5, {}, 3),
    ("masquerade-ball", 2, {}, 2),
    ("masquerade-ball", 4, {"max_turns": 150}, 1),
    ("shadows-over-japan", 3, {}, 2),
    ("shadows-over-japan", 4, {}, 1),
    ("project-assassination", 2, {}, 20),
]
WHISPER_ODDS = 0.02
MAX_WHISPERS = 6  # per seat and game: below the chat limiter's burst


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server without message-rate limits: the test's seats play as fast as they can."""
    db = tmp_path_factory.mktemp("leaks") / "leaks.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0, rate_per_second=1e6, rate_burst=10**6
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def delaying_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """The same, but updates to the seats not to move wait (`Settings.update_delay`): longer
    than any test, so that they reach a connection only with its next message, all at once."""
    db = tmp_path_factory.mktemp("leaks") / "delayed.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}",
        bot_delay=0,
        rate_per_second=1e6,
        rate_burst=10**6,
        update_delay=3600.0,
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


class Seat:
    """A connection and its watcher."""

    def __init__(
        self,
        server: ThreadServer,
        table_id: str,
        seat: int | None,
        token: str | None,
        patches: bool = False,
    ) -> None:
        self.player = Player(server.ws_url, table_id, token, patches)
        self.watcher = Watcher(seat)
        self.whispers: list[dict[str, Any]] = []  # chat lines received
        self.latest: dict[str, Any] = {}

    def next_update(self, mirror: State, log: PrivateLog) -> dict[str, Any]:
        """Read up to the next sync/update, checking it; chat lines met on the way are kept."""
        while True:
            message = self.player.recv()
            if message["type"] == "chat":
                self.whispers += message["lines"]
                continue
            self.watcher.check(message, mirror, log)
            self.latest = message
            return message

    def next_chat(self, mirror: State, log: PrivateLog) -> None:
        """Read the chat message that must come next (no move is pending meanwhile), after
        the update the connection was owed, if any (checked)."""
        message = self.player.recv()
        if message["type"] in ("sync", "update"):
            self.watcher.check(message, mirror, log)
            self.latest = message
            message = self.player.recv()
        assert message["type"] == "chat", message
        self.whispers += message["lines"]


class RandomGame:
    """One all-human table, every seat and a spectator connected, played at random."""

    def __init__(
        self,
        server: ThreadServer,
        game: str,
        players: int,
        options: dict,
        patches: bool = False,
    ) -> None:
        # Updates to the seats not to move wait for the connection's next message.
        self.delayed = server.hub.settings.update_delay > 0
        table = create_table(
            server.url, game=game, players=players, seats=["human"] * players, options=options
        )
        self.id = table["id"]
        self.live = server.hub.tables[self.id]
        truth = self.live.state
        self.mirror = intrigue.load(game).new(players, truth.seed, **truth.options)
        self.log = PrivateLog(players)
        self.seats = [
            Seat(server, self.id, link["seat"], link["token"], patches) for link in table["links"]
        ]
        self.spectator = Seat(server, self.id, None, None, patches)
        self.said: dict[str, tuple[int, int]] = {}  # whisper text -> (from, to)
        for seat in self.everyone:
            seat.next_update(self.mirror, self.log)

    @property
    def everyone(self) -> list[Seat]:
        return [*self.seats, self.spectator]

    def play(self, chooser: random.Random, limit: int = 5000) -> None:
        while not self.mirror.is_over and len(self.mirror.history) < limit:
            if chooser.random() < WHISPER_ODDS:
                self.whisper(chooser)
            self.move(chooser)

    def move(self, chooser: random.Random) -> None:
        mover = chooser.choice(self.mirror.to_move)
        legal = self.seats[mover].latest["legal_actions"]
        action = chooser.choice(legal)["action"]
        step = len(self.mirror.history)
        self.seats[mover].player.send({"type": "act", "action": action, "step": step})
        before = set(self.mirror.to_move)
        self.mirror.apply(mover, action)
        for seat in self.told(before, mover):
            update = seat.next_update(self.mirror, self.log)
            mine = seat.watcher.seat == mover
            assert update.get("accepted") == (action if mine else None)
            assert update.get("accepted_step") == (step if mine else None)

    def told(self, before: set[int], mover: int) -> list[Seat]:
        """The connections told of a move at once: every one, or with delayed updates the
        mover and the seats whose turn it began or ended (everyone once the game is over)."""
        if not self.delayed or self.mirror.is_over:
            return self.everyone
        urgent = (before ^ set(self.mirror.to_move)) | {mover}
        return [seat for seat in self.seats if seat.watcher.seat in urgent]

    def whisper(self, chooser: random.Random) -> None:
        sender, to = chooser.sample(range(len(self.seats)), 2)
        if sum(1 for s, _ in self.said.values() if s == sender) >= MAX_WHISPERS:
            return
        text = f"psst {uuid.uuid4().hex}"
        self.said[text] = (sender, to)
        self.seats[sender].player.send({"type": "whisper", "to": to, "text": text})
        self.seats[sender].next_chat(self.mirror, self.log)
        self.seats[to].next_chat(self.mirror, self.log)

    def finish(self) -> None:
        """The whole game was told to each connection; whispers reached their two seats only."""
        truth = self.live.state
        assert truth.history == self.mirror.history and truth.is_over == self.mirror.is_over
        for seat in self.everyone:
            assert seat.watcher.events == self.mirror.events(seat.watcher.seat)
        if self.delayed and self.mirror.is_over:
            # Never to move nor whispered to: told of the whole game in one update.
            assert self.spectator.watcher.checked == 2  # with its sync
            received = json.dumps(seat.player.received)
            for text, (sender, to) in self.said.items():
                assert (text in received) == (seat.watcher.seat in (sender, to)), text
        for seat in self.everyone:
            seat.player.close()


def run_cases(server: ThreadServer, cases: list, seed: int, patches: bool = False) -> int:
    """Play every case; the number of messages checked (``patches``: every connection takes
    patches, as the table page does, and each frame is checked as sent and made whole)."""
    chooser = random.Random(seed)
    checked = 0
    for game, players, options, count in cases:
        for _ in range(count):
            table = RandomGame(server, game, players, options, patches)
            table.play(chooser)
            table.finish()
            checked += sum(s.watcher.checked for s in table.everyone)
    return checked


@pytest.mark.parametrize("patches", [False, True], ids=["whole", "patches"])
@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{len(c[2])}")
def test_no_message_to_a_seat_holds_a_secret_it_may_not_know(open_server, case, patches):
    assert run_cases(open_server, [case], seed=len(case[0]) * 10 + case[1], patches=patches) > 0


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0]}-{c[1]}-{len(c[2])}")
def test_delayed_updates_tell_everything_and_nothing_more(delaying_server, case):
    """With `Settings.update_delay`, a seat not to move hears of the moves only with its
    next message (its whisper, its turn, the end), in one update: each checked as above,
    and by the end every connection was told every event of its seat, once, in order."""
    seed = len(case[0]) * 10 + case[1]
    assert run_cases(delaying_server, [case], seed=seed, patches=True) > 0


@pytest.mark.slow
@pytest.mark.parametrize("patches", [False, True], ids=["whole", "patches"])
def test_whole_random_games_leak_nothing(open_server, patches):
    assert run_cases(open_server, SLOW_CASES, seed=7, patches=patches) > 0


# -- the checker itself must catch a planted secret ---------------------------------------------
def played(game: str, players: int, moves: int) -> State:
    state = intrigue.load(game).new(players, 0x5DEECE66D1234)  # a 63-bit seed, as the server's
    chooser = random.Random(moves)
    for _ in range(moves):
        mover = chooser.choice(state.to_move)
        state.apply(mover, chooser.choice(state.legal_actions(mover)))
    return state


def checked_sync(state: State, seat: int | None) -> tuple[Watcher, PrivateLog, dict[str, Any]]:
    """A faithful sync for ``seat``, which the watcher accepts."""
    watcher, log = Watcher(seat), PrivateLog(state.players)
    message = game_message("sync", state, seat, 0)
    message.update(chat={}, notes=[], table={"standins": []})
    watcher.check(message, state, log)
    return watcher, log, message


def hidden_private_event(state: State, seat: int) -> dict[str, Any]:
    own = state.events(seat)
    others = (e for j in range(state.players) for e in state.events(j) if e.get("private"))
    return next(e for e in others if e not in own)


PLANTS = {
    "seed": lambda state, seat: state.seed,
    "generator": lambda state, seat: {"rng": hex(state.rng.state)},
    "private event": hidden_private_event,
    "its text": lambda state, seat: state.game.describe_event(
        hidden_private_event(state, seat), state.view((seat + 1) % state.players)
    ),
    "another seat's view": lambda state, seat: state.view((seat + 1) % state.players),
}


@pytest.mark.parametrize("plant", list(PLANTS))
@pytest.mark.parametrize(
    ("game", "players"),
    [("masquerade-murder", 5), ("masquerade-ball", 4), ("shadows-over-japan", 3)],
)
def test_the_checker_catches_a_planted_secret(game, players, plant):
    state = played(game, players, 30)
    watcher, log, message = checked_sync(state, 0)
    message["chat"] = {"planted": PLANTS[plant](state, 0)}  # anywhere in the message
    with pytest.raises(AssertionError):
        watcher.check(message, state, log)


@pytest.mark.parametrize(
    ("game", "players", "plant"),
    [
        ("masquerade-murder", 5, lambda s, v: v["table"][1].update(role=s.role_of(1))),
        ("masquerade-ball", 2, lambda s, v: [c.update(rank="K") for c in v["board"].values()]),
        ("shadows-over-japan", 3, lambda s, v: v["players"][1].update(noble=s.noble_of(1))),
    ],
    ids=lambda c: c if isinstance(c, str) else "",
)
def test_the_checker_knows_each_games_secrets(game, players, plant):
    """A secret put where the view would show it if the game told it (only the game's own
    rule of who knows what finds it)."""
    state = played(game, players, 30)
    _watcher, _log, message = checked_sync(state, 0)
    # The message's view is the game's shared view, whose parts other views hold too (the
    # Ball's card views: every later game's): the secret goes into a copy.
    message["view"] = copy.deepcopy(message["view"])
    plant(state, message["view"])
    assert SECRET_CHECKS[game](state, 0, message)
