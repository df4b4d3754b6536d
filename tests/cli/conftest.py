"""Fixtures for the terminal tests: ``spawn`` starts the console script in a pty."""

from __future__ import annotations

from collections.abc import Iterator

import pexpect
import pytest
from cli_driver import INTRIGUE, TIMEOUT, Spawn, cli_env


@pytest.fixture
def spawn() -> Iterator[Spawn]:
    """Start ``intrigue ARGS...`` in a pty; every child is closed after the test."""
    children: list[pexpect.spawn] = []

    def start(*args: str) -> pexpect.spawn:
        child = pexpect.spawn(
            INTRIGUE,
            list(args),
            env=cli_env(),
            encoding="utf-8",
            timeout=TIMEOUT,
            dimensions=(40, 120),
        )
        children.append(child)
        return child

    yield start
    for child in children:
        child.close(force=True)
