"""``intrigue serve`` on the command line (the running server is tested elsewhere)."""

from __future__ import annotations

import pytest

from intrigue.cli.main import USAGE_ERROR, build_parser, main
from intrigue.server.config import (
    DEFAULT_DATABASE_URL,
    choose_bot_delay,
    choose_database_url,
)


def test_serve_defaults_to_localhost_port_8000():
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.db) == ("127.0.0.1", 8000, None)


def test_a_bad_port_is_a_usage_error(capsys):
    assert main(["serve", "--port", "70000"]) == USAGE_ERROR
    assert "--port 70000" in capsys.readouterr().err


def test_the_database_url_comes_from_the_flag_then_the_environment(monkeypatch):
    monkeypatch.delenv("INTRIGUE_DATABASE_URL", raising=False)
    assert choose_database_url(None) == DEFAULT_DATABASE_URL
    monkeypatch.setenv("INTRIGUE_DATABASE_URL", "postgresql://db.example/intrigue")
    assert choose_database_url(None) == "postgresql+psycopg://db.example/intrigue"
    assert choose_database_url("sqlite:///other.sqlite3") == "sqlite:///other.sqlite3"


@pytest.mark.parametrize(
    ("flag", "env", "expected"),
    [(None, None, 0.8), (None, "0", 0.0), (0.25, "3", 0.25), (-1.0, None, 0.0)],
)
def test_the_bot_delay_comes_from_the_flag_then_the_environment(monkeypatch, flag, env, expected):
    if env is None:
        monkeypatch.delenv("INTRIGUE_BOT_DELAY", raising=False)
    else:
        monkeypatch.setenv("INTRIGUE_BOT_DELAY", env)
    assert choose_bot_delay(flag) == expected
