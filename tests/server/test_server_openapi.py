"""Schemathesis against the real server: every operation of ``/openapi.json`` fuzzed over HTTP
on 127.0.0.1 — never a server error (5xx), and every answer as the description says (status
code, content type, body schema).

A finished and an unfinished table exist while it runs, and their ids are among the table ids
tried, so the replay and table routes are reached past their 404s. Bots of tables the fuzzer
creates wait an hour before moving: the fuzz measures the HTTP layer, not the bots.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from server_driver import Player, ThreadServer, create_table, first_action, is_over

from intrigue.server.config import Settings

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


@pytest.fixture(scope="module")
def fuzzed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    db = tmp_path_factory.mktemp("openapi") / "openapi.sqlite3"
    settings = Settings(
        database_url=f"sqlite:///{db}", bot_delay=3600, rate_per_second=1e6, rate_burst=10**6
    )
    running = ThreadServer(settings).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def table_ids(fuzzed_server: ThreadServer) -> list[str]:
    """A finished table (its replay opens) and one in play."""
    finished = create_table(
        fuzzed_server.url,
        game="project-assassination",
        seats=["human"] * 2,
        options={"max_turns": 4},  # so the scripted moves are sure to end it
    )
    links = finished["links"]
    players = [Player(fuzzed_server.ws_url, finished["id"], link["token"]) for link in links]
    for player in players:
        player.sync()
    while not is_over(players[0].latest):
        mover = next(p for p in players if p.latest["legal_actions"])
        answer = mover.act(first_action(mover.latest))
        assert answer["type"] == "update", answer
        for player in players:
            if player is not mover:
                player.recv()
    for player in players:
        player.close()
    playing = create_table(fuzzed_server.url, seats=["human"] * 5)
    return [finished["id"], playing["id"]]


@pytest.fixture(scope="module")
def api_schema(fuzzed_server: ThreadServer, table_ids: list[str]) -> Any:
    schema = schemathesis.openapi.from_url(f"{fuzzed_server.url}/openapi.json")

    @schema.hook
    def flatmap_path_parameters(_context: Any, parameters: dict[str, Any] | None) -> Any:
        """Often a real table (and a step it has), else what the fuzzer made up."""
        if not parameters or "table_id" not in parameters:
            return st.just(parameters)
        real = st.fixed_dictionaries(
            {"table_id": st.sampled_from(table_ids), "step": st.integers(-2, 60)}
        ).map(lambda p: {k: v for k, v in p.items() if k in parameters})
        return st.one_of(st.just(parameters), real)

    @schema.hook
    def flatmap_query(context: Any, query: dict[str, Any] | None) -> Any:
        """Often a real perspective of a replay, else what the fuzzer made up."""
        if "/replay" not in context.operation.path:
            return st.just(query)
        seats = st.sampled_from(["0", "1", "2", "spectator", "all", "revealed", "-1", " 1"])
        return st.one_of(st.just(query), seats.map(lambda seat: {**(query or {}), "seat": seat}))

    return schema


# Every operation of the description (a new one must be added here, so it gets fuzzed too).
OPERATIONS = [
    ("GET", "/api/games"),
    ("GET", "/api/tables"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{table_id}"),
    ("GET", "/api/tables/{table_id}/replay"),
    ("GET", "/api/tables/{table_id}/replay/{step}"),
    ("POST", "/api/my-tables"),
]
# Operations whose input can be made invalid (the others take no input but strings). The
# server ignores query parameters it does not know, as HTTP servers do, so for a GET an invalid
# request need not be refused: it must still get an answer the description allows.
NEGATIVE = [
    ("POST", "/api/tables", CHECKS),
    ("POST", "/api/my-tables", CHECKS),
    ("GET", "/api/tables/{table_id}/replay/{step}", CHECKS[:-1]),
]


def test_every_operation_is_fuzzed(api_schema):
    described = {
        (result.ok().method.upper(), result.ok().path) for result in api_schema.get_all_operations()
    }
    assert described == set(OPERATIONS)


def fuzz(strategy: Any, checks: list[Any]) -> None:
    """Send what ``strategy`` makes; every answer passes ``checks``. (No shrinking: the
    failure report has a curl command to reproduce, and shrinking over HTTP takes long.)"""

    @given(case=strategy)
    @settings(
        max_examples=100,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=[Phase.explicit, Phase.reuse, Phase.generate],
    )
    def run(case: Any) -> None:
        case.call_and_validate(checks=checks)

    run()


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=lambda v: v)
def test_valid_requests_get_the_described_answers(api_schema, method, path):
    operation = api_schema[path][method]
    fuzz(operation.as_strategy(GenerationMode.POSITIVE, hooks=api_schema.hooks), CHECKS)


@pytest.mark.parametrize(("method", "path", "checks"), NEGATIVE, ids=lambda v: v)
def test_invalid_requests_get_the_described_answers(api_schema, method, path, checks):
    operation = api_schema[path][method]
    fuzz(operation.as_strategy(GenerationMode.NEGATIVE), checks)
