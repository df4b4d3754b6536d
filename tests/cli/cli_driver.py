"""Helpers for driving the real ``intrigue`` console script through a pseudo-terminal."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pexpect

INTRIGUE = str(Path(sys.executable).with_name("intrigue"))
PROMPT = r"Your move \(seat (\d)\)> "
PASS = r"Pass to seat (\d) — press Enter when only seat \d is looking"
GAME_OVER = "=== Game over ==="
TIMEOUT = 20  # seconds per expect: generous, only hit when something hangs


def cli_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"NO_COLOR": "1", "TERM": "dumb", "COLUMNS": "120", "LINES": "40"})
    return env


Spawn = Callable[..., pexpect.spawn]


class Transcript:
    """What a played-out game printed, and which seat each prompt was for."""

    def __init__(self) -> None:
        self.text = ""
        self.prompts: list[int] = []


def play_out(child: pexpect.spawn, answer: str = "1") -> Transcript:
    """Answer every prompt with ``answer`` (and every pass-the-screen message with Enter)
    until the game is over and the program has exited."""
    out = Transcript()
    while True:
        index = child.expect([PROMPT, PASS, GAME_OVER])
        out.text += child.before + child.after
        if index == 0:
            out.prompts.append(int(child.match.group(1)))
            child.sendline(answer)
        elif index == 1:
            child.sendline("")
        else:
            break
    child.expect(pexpect.EOF)
    out.text += child.before
    child.close()
    return out


def plain(text: str) -> str:
    """The transcript without the carriage returns the pty adds."""
    return re.sub(r"\r", "", text)
