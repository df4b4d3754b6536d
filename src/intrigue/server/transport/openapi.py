"""The OpenAPI description (``/openapi.json``) told the way the server really answers.

FastAPI documents a ``422`` validation error for every route that reads input, while the
server answers bad input with ``400`` and one readable sentence (``{"detail": "..."}``), and
it cannot know that a ``table_id`` may be unknown (``404``), that a replay waits for the end
(``409``) or that the database may be out of reach (``503``). `document_errors` rewrites the
generated description once, so clients and schema-driven tests (schemathesis, in
``tests/server/test_server_openapi.py``) read the truth.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI

PROBLEM = {
    "type": "object",
    "title": "Problem",
    "properties": {"detail": {"type": "string", "title": "Detail"}},
    "required": ["detail"],
}
REF = {"$ref": "#/components/schemas/Problem"}
REASONS = {
    "400": "Bad input: the detail says what is wrong",
    "404": "No such table (or replay step)",
    "409": "The game is not over yet: its replay opens at the end",
    "429": "Too many new tables from this address; Retry-After says when to try again",
    "503": "The database is unavailable, or the server is full, right now; nothing was saved",
}


def errors_of(path: str, operation: dict[str, Any]) -> list[str]:
    """The error statuses the route at ``path`` answers with."""
    codes = []
    if operation.get("parameters") or operation.get("requestBody"):
        codes.append("400")
    if "{table_id}" in path:
        codes.append("404")
    if "/replay" in path:
        codes.append("409")
    if path.startswith(("/api/tables", "/api/my-tables")):
        codes.append("503")
    if path == "/api/tables" and "requestBody" in operation:
        codes.append("429")  # creation is rate-limited per address
    return codes


def rewrite(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each operation's real error responses (in place; returned)."""
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.pop("422", None)
            for code in errors_of(path, operation):
                responses[code] = {
                    "description": REASONS[code],
                    "content": {"application/json": {"schema": REF}},
                }
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    components["Problem"] = PROBLEM
    return schema


def document_errors(app: FastAPI) -> None:
    """Make ``app.openapi()`` (and ``/openapi.json``) give the rewritten description."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = rewrite(generate())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
