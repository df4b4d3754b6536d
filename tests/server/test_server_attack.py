"""Bad input and attack against the real server: fuzzed WebSocket messages, seat tokens,
leaving a seat for good, and what every HTTP route tells a caller without a token.

The WebSocket fuzz (hypothesis) throws malformed, oversized, wrong-typed, out-of-turn,
wrong-seat, replayed and random messages, text and binary, at a live table whose five seats
and a spectator are connected. Each message must be answered on its own connection — an error,
or (for a message that happens to be a legal move or a chat line) its acceptance — and a
refused message must change nothing: the table's state object, its chat and its stand-ins
stay as they were, and nobody else hears anything. After each message every connection still
answers. The leak check over the wire (every message against the seat's view) is in
`test_server_leaks.py`; the OpenAPI fuzz (schemathesis) in `test_server_openapi.py`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from server_driver import (
    TIMEOUT,
    Player,
    ThreadServer,
    create_table,
    custom_deal,
    first_action,
    is_over,
    play_until,
    wait_until,
)
from websockets.exceptions import ConnectionClosed
from wire_secrets import PrivateLog, Watcher

import intrigue
from intrigue.server.config import Settings
from intrigue.server.storage.db import Store
from intrigue.server.tables.leave import has_left, left_mark
from intrigue.server.tables.messages import game_message
from intrigue.server.tables.seats import hash_token

ROLES = ["constable", "thug", "seductress", "assassin", "duke"]
STATIC = Path(intrigue.__file__).parent / "server" / "static"
LIMIT = Settings().max_message_bytes  # larger messages get an error
FRAME = Settings().max_frame_bytes  # larger frames close the connection
MURDER = intrigue.load("masquerade-murder")
MOVES = [str(MURDER.action_at(i)) for i in range(MURDER.num_actions)]
PROBE = {"type": "probe"}  # an unknown type: always answered with an error, changes nothing


@pytest.fixture(scope="module")
def attack_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A server without message-rate limits, so every fuzzed message reaches the table."""
    db = tmp_path_factory.mktemp("attack") / "attack.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=0, rate_per_second=1e6, rate_burst=10**6
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


def closed_code(player: Player) -> int:
    """Read until the server closes the connection; its close code."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            player.recv()
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def easy_table(server: ThreadServer, game: str, seats: list[str], **options: Any) -> dict:
    """A table whose stand-ins are easy bots (quick to decide on a busy machine)."""
    body = {"game": game, "seats": seats, "options": options, "clock_bot": "easy"}
    body["custom_deal"] = custom_deal(game, options)
    answer = httpx.post(f"{server.url}/api/tables", json=body, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def next_error(player: Player) -> str:
    """The text of the next error (messages that come first, such as updates, are skipped)."""
    while (message := player.recv())["type"] != "error":
        pass
    return str(message["message"])


def refused_with(server: ThreadServer, table_id: str, token: str) -> int:
    """Open a seat link the server must refuse; the close code after its error message."""
    player = Player(server.ws_url, table_id, token)
    try:
        first = player.recv()
        assert first["type"] == "error", first
        return closed_code(player)
    finally:
        player.close()


# -- the fuzzed table ---------------------------------------------------------------------------
class Arena:
    """A Masquerade Murder table of five humans (fixed roles), all seats and a spectator
    connected; rebuilt when its game is over."""

    def __init__(self, server: ThreadServer) -> None:
        self.server = server
        self.tables: list[str] = []
        self.players: list[Player] = []
        self.build()

    def build(self) -> None:
        for player in self.players:
            player.close()
        table = create_table(self.server.url, seats=["human"] * 5, options={"roles": ROLES})
        self.id = table["id"]
        self.tables.append(self.id)
        self.tokens = [link["token"] for link in table["links"]]
        self.players = [Player(self.server.ws_url, self.id, t) for t in self.tokens]
        self.players.append(Player(self.server.ws_url, self.id))  # the spectator, last
        for player in self.players:
            player.sync()

    @property
    def live(self) -> Any:
        return self.server.hub.tables[self.id]

    def snapshot(self) -> tuple[Any, ...]:
        """What a refused message must not change."""
        live = self.live
        clock = live.clock
        seats = [(s.token_hash, s.standin) for s in live.seats.values()]
        votes = {k: set(v) for k, v in clock.votes.items()}
        return live.state, len(live.chat.lines), dict(clock.standins), votes, seats

    def seat_of(self, index: int) -> int | None:
        return None if index == 5 else index

    def expect_one(self, index: int) -> dict[str, Any]:
        """The next message of connection ``index``."""
        return self.players[index].recv()

    def probe_all(self) -> None:
        """Every connection still answers, and had nothing else waiting before the answer."""
        for player in self.players:
            player.send(PROBE)
        for player in self.players:
            answer = player.recv()
            assert answer["type"] == "error" and "unknown message type" in answer["message"], answer


@pytest.fixture(scope="module")
def arena(attack_server: ThreadServer) -> Iterator[Arena]:
    made = Arena(attack_server)
    yield made
    for player in made.players:
        player.close()


def json_values() -> st.SearchStrategy[Any]:
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(min_value=-(2**70), max_value=2**70)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=30)
    )
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
        max_leaves=12,
    )


TYPES = ["act", "say", "whisper", "vote_replace", "reclaim", "rematch", "ACT", " act", "", "chat"]
SEATS = st.integers(min_value=-3, max_value=7) | json_values()
TEXTS = st.text(max_size=40) | st.sampled_from(["", " ", "\x00\x1b[31m", "<script>x</script>"])


@dataclass(frozen=True)
class Pick:
    """A move chosen when the message is sent: the ``k``-th legal move of a seat to move, or
    of the moves played so far (a replayed, stale move); or (pool "now") the step ``k`` moves
    back from the current one. Strategies cannot read the table: its state changes between
    examples, and hypothesis needs the same draws to give the same data."""

    pool: str  # "legal", "played" or "now"
    k: int

    def text(self, state: Any) -> Any:
        if self.pool == "now":
            return max(0, len(state.history) - self.k)
        if self.pool == "legal":
            moves = [str(a) for seat in state.to_move for a in state.legal_actions(seat)]
        else:
            moves = [str(a) for _, a in state.history]
        moves = moves or MOVES
        return moves[self.k % len(moves)]


PICKS = st.builds(Pick, st.sampled_from(["legal", "played"]), st.integers(0, 999))
ACTIONS = st.sampled_from(MOVES) | PICKS | json_values() | TEXTS
SHAPED = st.fixed_dictionaries(
    {"type": st.sampled_from(TYPES) | json_values()},
    optional={"action": ACTIONS, "seat": SEATS, "to": SEATS, "text": TEXTS | json_values()},
)
TALK = st.builds(
    lambda kind, to, text: {"type": kind, "to": to, "text": text},
    st.sampled_from(["say", "whisper"]),
    st.integers(0, 4),
    TEXTS,
)
# One frame's content: a dict (sent as JSON text or bytes), text or bytes.
MESSAGES = st.one_of(
    SHAPED,
    SHAPED,
    TALK,
    st.builds(
        lambda k: {"type": "act", "action": Pick("legal", k), "step": Pick("now", 0)},
        st.integers(0, 999),
    ),
    st.builds(
        lambda a, s, n: {"type": "act", "action": a, "seat": s, "step": n},
        ACTIONS,
        SEATS,
        st.builds(Pick, st.just("now"), st.integers(0, 3)) | st.integers(-2, 30) | TEXTS,
    ),
    st.builds(lambda m, n: {**m, "pad": "x" * n}, SHAPED, st.integers(LIMIT - 200, FRAME - 1000)),
    json_values(),
    st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=200),
    st.binary(max_size=200),
)


def resolve(content: Any, state: Any) -> Any:
    """The content with its `Pick` (if any) turned into a move text of the table now."""
    if not isinstance(content, dict):
        return content
    return {k: v.text(state) if isinstance(v, Pick) else v for k, v in content.items()}


def frame(content: Any, as_bytes: bool) -> str | bytes:
    if isinstance(content, str | bytes):
        return content
    text = json.dumps(content)
    return text.encode("utf-8") if as_bytes else text


def check_answer(arena: Arena, index: int, sent: Any, before: tuple[Any, ...]) -> None:
    """The sender's answer, and what the others must hear of it (nothing, if refused)."""
    answer = arena.expect_one(index)
    kind = answer["type"]
    event(f"answer: {kind}")
    if kind == "error":
        assert isinstance(answer["message"], str) and answer["message"]
        assert arena.snapshot() == before, f"a refused message changed the table: {sent!r}"
        return
    seat = arena.seat_of(index)
    assert isinstance(sent, dict) and seat is not None, (sent, answer)
    if kind == "update" and answer.get("repeated"):  # a move resent: acknowledged, not played
        assert sent["type"] == "act" and sent["step"] < len(before[0].history)
        assert arena.snapshot() == before, f"a repeated move changed the table: {sent!r}"
        assert (seat, MURDER.parse_action(answer["accepted"])) in before[0].history[sent["step"] :]
        return
    if kind == "update":  # a legal move of the sender's seat
        assert sent["type"] == "act" and answer["accepted"] is not None
        state = arena.live.state
        assert state.history[-1] == (seat, MURDER.parse_action(answer["accepted"]))
        assert len(state.history) == len(before[0].history) + 1
        hearing = [i for i in range(6) if i != index]
    else:  # a chat line
        assert kind == "chat" and sent["type"] in ("say", "whisper"), (sent, answer)
        assert arena.live.state is before[0] and len(arena.live.chat.lines) == before[1] + 1
        (line,) = answer["lines"]
        hearing = [i for i in range(6) if i != index and line["to"] in (None, i)]
    for other in hearing:
        heard = arena.expect_one(other)
        assert heard["type"] == kind and heard.get("accepted") is None, heard


@settings(
    max_examples=500,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_fuzzed_messages_get_an_answer_and_refused_ones_change_nothing(arena, data):
    if arena.live.state.is_over:
        arena.build()
    index = data.draw(st.integers(0, 5), label="connection (5: the spectator)")
    content = resolve(data.draw(MESSAGES, label="message"), arena.live.state)
    as_bytes = data.draw(st.booleans(), label="binary frame")
    before = arena.snapshot()
    arena.players[index].send(frame(content, as_bytes))
    check_answer(arena, index, content, before)
    arena.probe_all()


def test_the_fuzzed_tables_are_stored_as_played(arena):
    """Everything accepted during the fuzz is in the database, and nothing else."""
    store = Store(arena.server.hub.store.url)
    try:
        for table_id in arena.tables:
            live = arena.server.hub.tables[table_id]
            record = store.load(table_id)
            assert record is not None
            assert record.actions == [(seat, str(a)) for seat, a in live.state.history]
            assert len(record.messages) == len(live.chat.lines)
    finally:
        store.close()


# -- oversized, replayed and out-of-turn messages -------------------------------------------
@pytest.mark.parametrize("binary", [False, True], ids=["text", "binary"])
def test_a_frame_over_the_limit_closes_that_connection_only(attack_server, binary):
    table = create_table(attack_server.url, seats=["human"] * 5, options={"roles": ROLES})
    tokens = [link["token"] for link in table["links"]]
    attacker, other = (Player(attack_server.ws_url, table["id"], t) for t in tokens[:2])
    try:
        attacker.sync()
        other.sync()
        before = attack_server.hub.tables[table["id"]].state
        payload = "x" * (FRAME + 1)
        attacker.send(payload.encode() if binary else payload)
        assert closed_code(attacker) == 1009  # message too big
        assert attack_server.hub.tables[table["id"]].state is before
        assert other.act("target 2")["accepted"] == "target 2"  # the table plays on
        again = Player(attack_server.ws_url, table["id"], tokens[0])  # and the link still works
        assert again.sync()["seat"] == 0
        again.close()
    finally:
        attacker.close()
        other.close()


def test_replayed_and_stale_moves_are_refused(attack_server):
    table = create_table(attack_server.url, seats=["human"] * 5, options={"roles": ROLES})
    players = [Player(attack_server.ws_url, table["id"], link["token"]) for link in table["links"]]
    try:
        for player in players:
            player.sync()
        live = attack_server.hub.tables[table["id"]]
        assert players[0].act("target 2")["accepted"] == "target 2"
        decided = live.state
        replayed = players[0].act("target 2", 0)  # the same frame again: answered, not played
        assert replayed["accepted"] == "target 2" and replayed["repeated"] is True
        assert live.state is decided
        again = players[0].act("target 2")  # a new move at step 1: not its turn any more
        assert again["type"] == "error" and "not your turn" in again["message"]
        assert live.state is decided
        for seat in range(1, 5):
            assert players[seat].act(f"target {(seat + 1) % 5}")["type"] == "update"
        moved_on = live.state
        stale = players[3].act("target 4")  # a targeting move after the targeting phase
        assert stale["type"] == "error" and live.state is moved_on
    finally:
        for player in players:
            player.close()


ODD_VALUES = [None, "x", ["x", "y"], {}]


def test_odd_option_values_are_refused_or_accepted_never_a_server_error(attack_server):
    """Every option of every game, given odd JSON values: 201 or 400 with a reason, never a
    500 (a null once reached the rules as a value; an unknown key in a list option crashed)."""
    for game in intrigue.games():
        for option in game["options"]:
            for value in ODD_VALUES:
                body = {
                    "game": game["id"],
                    "seats": ["human"] * game["players"][0],
                    "options": {option["name"]: value},
                    "custom_deal": True,
                }
                answer = httpx.post(f"{attack_server.url}/api/tables", json=body, timeout=TIMEOUT)
                assert answer.status_code in (201, 400), (game["id"], option["name"], value)
                assert answer.status_code == 201 or answer.json()["detail"]


# -- seat tokens ------------------------------------------------------------------------------
def test_seat_tokens_are_long_random_and_stored_only_as_hashes(attack_server):
    tables = [
        create_table(attack_server.url, seats=["human"] * 5, options={"roles": ROLES})
        for _ in range(4)
    ]
    tokens = [link["token"] for table in tables for link in table["links"]]
    assert len(set(tokens)) == len(tokens) == 20
    for token in tokens:
        # secrets.token_urlsafe(24): 32 characters of base64url, 192 random bits.
        assert re.fullmatch(r"[A-Za-z0-9_-]{32,}", token), token
    store = Store(attack_server.hub.store.url)
    try:
        for table in tables:
            record = store.load(table["id"])
            assert record is not None
            hashes = [seat.token_hash for seat in record.seats]
            assert hashes == [hash_token(link["token"]) for link in table["links"]]
    finally:
        store.close()
    stored = Path(attack_server.hub.store.url.removeprefix("sqlite:///")).read_bytes()
    assert not any(token.encode() in stored for token in tokens)
    # No other answer repeats a token.
    for table in tables:
        for path in (f"/api/tables/{table['id']}", "/api/tables"):
            text = httpx.get(attack_server.url + path, timeout=TIMEOUT).text
            assert not any(token in text for token in tokens)


def test_a_token_opens_its_own_seat_of_its_own_table_only(attack_server):
    first, second = (
        create_table(attack_server.url, seats=["human", "human", "easy", "easy", "easy"])
        for _ in range(2)
    )
    for link in first["links"]:
        player = Player(attack_server.ws_url, first["id"], link["token"])
        assert player.sync()["seat"] == link["seat"]
        player.close()
    token = first["links"][1]["token"]
    forged = [
        second["links"][1]["token"],  # the same seat of another table
        token[:-1] + ("A" if token[-1] != "A" else "B"),  # one character changed
        token[:-1],
        token + "x",
        token.upper(),
        "",
        hash_token(token),  # what the database holds is no key
        "x" * 2000,
    ]
    for guess in forged:
        assert refused_with(attack_server, first["id"], guess) == 4403, guess[:40]
    # A token of the first table does not open the second.
    assert refused_with(attack_server, second["id"], token) == 4403


# -- leaving a seat for good --------------------------------------------------------------------
def test_leaving_hands_the_seat_to_a_bot_and_the_link_stops_working(attack_server):
    table = easy_table(attack_server, "masquerade-murder", ["human"] * 5, roles=ROLES)
    tokens = [link["token"] for link in table["links"]]
    leaver, second_tab = (Player(attack_server.ws_url, table["id"], tokens[2]) for _ in range(2))
    others = [Player(attack_server.ws_url, table["id"], t) for t in tokens[:2]]
    spectator = Player(attack_server.ws_url, table["id"])
    live = attack_server.hub.tables[table["id"]]
    try:
        for player in [leaver, second_tab, *others, spectator]:
            player.sync()
        leaver.send({"type": "leave"})
        for tab in (leaver, second_tab):  # every connection of the seat is told, then closed
            left = tab.recv()
            assert left["type"] == "left" and left["seat"] == 2
            assert closed_code(tab) == 4403
        for player in [*others, spectator]:
            told = player.recv()
            assert told["type"] == "table" and "seat 2 left" in told["notes"][0]["text"]
            assert told["table"]["standins"] == [{"seat": 2, "bot": "easy"}]
        # The stand-in plays the seat: it picks a target at once.
        wait_until(lambda: 2 not in live.state.to_move, "the stand-in's move")
        assert any(seat == 2 for seat, _ in live.state.history)
        # The old link opens nothing any more, here, in "your tables", and after a restart.
        assert refused_with(attack_server, table["id"], tokens[2]) == 4403
        mine = httpx.post(
            f"{attack_server.url}/api/my-tables", json={"tokens": tokens[1:3]}, timeout=TIMEOUT
        ).json()
        assert [t["seat"] for t in mine["tables"]] == [1] and mine["unknown"] == [1]
        store = Store(attack_server.hub.store.url)
        record = store.load(table["id"])
        store.close()
        assert record is not None and has_left(record.seats[2])
        assert record.seats[2].standin == "easy"
        assert all(hash_token(t) != record.seats[2].token_hash for t in tokens)
        # A stand-in's seat cannot be voted on.
        others[0].send({"type": "vote_replace", "seat": 2})
        assert "already stands in" in next_error(others[0])
    finally:
        for player in [leaver, second_tab, *others, spectator]:
            player.close()


def test_a_connection_whose_seat_was_given_up_elsewhere_is_closed_at_its_next_message(
    attack_server,
):
    """Another server process stored the leave, and this one reread the seat (bus.py): the
    connection it still holds for the seat may not reclaim, play or talk for it."""
    table = create_table(attack_server.url, seats=["human"] * 5, options={"roles": ROLES})
    stale = Player(attack_server.ws_url, table["id"], table["links"][1]["token"])
    try:
        stale.sync()
        live = attack_server.hub.tables[table["id"]]
        live.seats[1].token_hash = left_mark(table["id"], 1)  # as `refresh_seats` leaves it
        before = live.state
        stale.send({"type": "reclaim"})
        assert stale.recv()["type"] == "left"
        assert closed_code(stale) == 4403
        assert live.state is before and live.clock.standins == {}
    finally:
        stale.close()


def test_leaving_is_refused_to_spectators_and_after_the_end(attack_server):
    table = create_table(attack_server.url, seats=["human"] * 5, options={"roles": ROLES})
    spectator = Player(attack_server.ws_url, table["id"])
    try:
        spectator.sync()
        spectator.send({"type": "leave"})
        assert "spectators" in spectator.recv()["message"]
    finally:
        spectator.close()
    done = create_table(
        attack_server.url,
        game="project-assassination",
        seats=["human", "easy"],
        options={"max_turns": 4},
    )
    player = Player(attack_server.ws_url, done["id"], done["links"][0]["token"])
    try:
        player.sync()
        play_until(player, is_over, first_action)
        player.send({"type": "leave"})
        assert "game is over" in next_error(player)
    finally:
        player.close()


def test_a_seat_given_up_is_a_bot_in_the_rematch(attack_server):
    table = easy_table(attack_server, "project-assassination", ["human"] * 2, max_turns=4)
    tokens = [link["token"] for link in table["links"]]
    stayer = Player(attack_server.ws_url, table["id"], tokens[0])
    leaver = Player(attack_server.ws_url, table["id"], tokens[1])
    live = attack_server.hub.tables[table["id"]]
    try:
        stayer.sync()
        leaver.sync()
        leaver.send({"type": "leave"})
        assert leaver.recv()["type"] == "left"
        play_until(stayer, is_over, first_action)  # against the stand-in
        assert live.state.is_over
        stayer.send({"type": "rematch"})
        answer = stayer.recv()
        while answer["type"] != "rematch":
            answer = stayer.recv()
        rematch = attack_server.hub.tables[answer["table"]]
        kinds = {seat: record.kind for seat, record in rematch.seats.items()}
        assert kinds[answer["seat"]] == "human"
        assert kinds[1 - answer["seat"]] == "bot"
        # The rematch came from the database (SQLite: naive times) and sorts with the others.
        listed = httpx.get(f"{attack_server.url}/api/tables", timeout=TIMEOUT)
        assert listed.status_code == 200
        assert answer["table"] in [t["id"] for t in listed.json()["tables"]]
        assert all(t["created"].endswith("+00:00") for t in listed.json()["tables"])
    finally:
        stayer.close()
        leaver.close()


# -- no endpoint shows a caller without a token more than the public view --------------------------
ROUTES = {
    # pages: the same static file whatever the table
    ("GET", "/"): "page",
    ("GET", "/rules/{game_id}"): "page",
    ("GET", "/table/{table_id}"): "page",
    ("GET", "/table/{table_id}/screen"): "page",
    ("GET", "/table/{table_id}/replay"): "page",
    ("GET", "/openapi.json"): "the same for every table",
    ("GET", "/api/games"): "the same for every table",
    ("GET", "/api/tables"): "public",
    ("GET", "/api/tables/{table_id}"): "public",
    ("GET", "/api/tables/{table_id}/replay"): "after the end",
    ("GET", "/api/tables/{table_id}/replay/{step}"): "after the end",
    ("POST", "/api/tables"): "creates a table",
    ("POST", "/api/my-tables"): "tokens in the body",
    ("WS", "/ws/{table_id}"): "the spectator without a token",
    ("MOUNT", "/static"): "static files",
}


def routes(server: ThreadServer) -> set[tuple[str, str]]:
    found = set()
    for route in server.app.routes:  # type: ignore[attr-defined]
        methods = getattr(route, "methods", None)
        if methods is not None:
            found |= {(m, route.path) for m in methods - {"HEAD"}}
        elif type(route).__name__.endswith("WebSocketRoute"):
            found.add(("WS", route.path))
        else:
            found.add(("MOUNT", route.path))
    return found


def test_every_route_is_classified(attack_server):
    """A new route must be looked at for leaks (and added to ROUTES) before it ships."""
    assert routes(attack_server) == set(ROUTES)


@pytest.fixture(scope="module")
def midgame(attack_server: ThreadServer) -> dict[str, Any]:
    """A Masquerade Murder table some moves in, so seats hold private events."""
    table = create_table(attack_server.url, seats=["human"] * 5, options={"roles": ROLES})
    players = [Player(attack_server.ws_url, table["id"], link["token"]) for link in table["links"]]
    for seat, player in enumerate(players):
        player.sync()
        assert player.act(f"target {(seat + 2) % 5}")["type"] == "update"
    for player in players:
        player.close()
    return table


def public_only(server: ThreadServer, table_id: str, answer: Any) -> None:
    """``answer`` (any JSON) holds nothing a spectator may not know."""
    state = server.hub.tables[table_id].state
    watcher, log = Watcher(None), PrivateLog(state.players)
    message = game_message("sync", state, None, 0)
    message.update(chat=answer, notes=[], table={"standins": []})
    watcher.check(message, state, log)  # the answer rides along: every secret check applies


def test_no_route_gives_a_caller_without_a_token_a_seats_view(attack_server, midgame):
    table_id = midgame["id"]
    state = attack_server.hub.tables[table_id].state
    base = attack_server.url
    for (_method, path), kind in ROUTES.items():
        url = base + path.replace("{table_id}", table_id).replace("{step}", "1")
        if kind == "page":
            answer = httpx.get(url, timeout=TIMEOUT)
            served = {p.read_text() for p in STATIC.glob("*.html")}
            assert answer.status_code == 200 and answer.text in served, path
        elif kind == "the same for every table":
            answer = httpx.get(url, timeout=TIMEOUT)
            app = attack_server.app  # type: ignore[attr-defined]
            guides = {g: intrigue.load(g).guide().to_json() for g in intrigue.engine.game_ids()}
            games = [{**g, "guide": guides[g["id"]]} for g in intrigue.games()]
            expected = app.openapi() if path == "/openapi.json" else games
            assert answer.json() == json.loads(json.dumps(expected)), path
        elif kind == "public":
            answer = httpx.get(url, timeout=TIMEOUT)
            assert answer.status_code == 200, path
            public_only(attack_server, table_id, answer.json())
        elif kind == "after the end":
            for seat in ("0", "1", "spectator", "all"):
                answer = httpx.get(url, params={"seat": seat}, timeout=TIMEOUT)
                assert answer.status_code == 409, (path, seat)
                public_only(attack_server, table_id, answer.json())
    info = httpx.get(f"{base}/api/tables/{table_id}", timeout=TIMEOUT).json()
    assert info["view"] == state.view(None)
    spectator = Player(attack_server.ws_url, table_id)
    try:
        sync = spectator.sync()
        assert sync["seat"] is None and sync["view"] == state.view(None)
        assert sync["events"] == state.events(None) and sync["legal_actions"] == []
    finally:
        spectator.close()


def test_my_tables_tells_each_token_public_facts_only(attack_server, midgame):
    table_id = midgame["id"]
    tokens = [link["token"] for link in midgame["links"]]
    answer = httpx.post(
        f"{attack_server.url}/api/my-tables",
        json={"tokens": [*tokens, "not-a-token"]},
        timeout=TIMEOUT,
    ).json()
    assert answer["unknown"] == [5]
    info = attack_server.hub.tables[table_id].info()
    state = attack_server.hub.tables[table_id].state
    for entry in answer["tables"]:
        seat = entry["index"]
        assert entry["seat"] == seat and entry["your_turn"] == (seat in state.to_move)
        mine = {"index", "seat", "your_turn", "rematch"}
        assert set(entry) == set(info) | mine
        assert {k: v for k, v in entry.items() if k not in mine} == json.loads(json.dumps(info))
    public_only(attack_server, table_id, answer)
