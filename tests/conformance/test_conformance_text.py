"""Text shown to people is for people, in every game (issue #17, item 5).

Random games of every game and player count are played to the end; every text a person can be
shown is gathered for every seat and the spectator: the log lines (the terminal's and the
server's ``event_texts``), the move menu, the prompt, the terminal board, the outcome lines,
and the reasons given for refused moves. None may hold a leftover ``{``/``}``, a ruling code
("(MB-13)": codes belong in docs and tests), an internal key ("takeda", "bushido",
"game_over", "max_turns"), "side 1", or a "you plays"-style agreement error; and every event
must have a line of its own (the page would otherwise fall back on the raw event).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from conformance_support import GAME_IDS
from rich.console import Console

import intrigue
from intrigue.cli.output import event_lines, outcome_lines
from intrigue.engine import IllegalAction, State
from intrigue.server.tables.messages import game_message

SEEDS = range(3)
TURN_CAPS = (2, 6, 40)

CODE = re.compile(r"\b(?:MM|MB|PA|SJ)-\d+[a-z]?\b")
# "you plays", "you has", "you is", "you was" (but "you pass", "you access", "gives you its")
NOT_VERBS = r"(?:its|this|thus|his|us|as|plus|always|yes|towards)\b"
AGREEMENT = re.compile(rf"\b[Yy]ou (?:has|is|was|(?!{NOT_VERBS})(?!\w+ss\b)\w+s)\b")
SIDE_NUMBER = re.compile(r"\b[Ss]ide \d")
IDENTIFIER = re.compile(r"\b[a-z]+_[a-z_]+\b")  # game_over, max_turns, loses_next_turn


def _raw_keys(game_id: str) -> frozenset[str]:
    """The internal keys of a game that players know by another name (derived from its data,
    so a new key is checked without editing this test)."""
    if game_id == "shadows-over-japan":
        from intrigue.games.shadows_over_japan import data

        keys = {*data.KEYS, *data.NOBLES, *data.HONOUR_KEYS, *data.STYLES}
        names = {*data.NAMES, *data.NOBLE_NAMES, *data.STYLE_NAMES}
        return frozenset(k for k in keys if k not in names)
    if game_id == "masquerade-murder":
        from intrigue.games.masquerade_murder.resolution import ROLE_NAMES

        return frozenset(ROLE_NAMES)
    return frozenset()


def problems(text: str | None, raw_keys: frozenset[str]) -> list[str]:
    """What is wrong with one text (empty when it reads well)."""
    if text is None:
        return ["no text at all"]
    found = []
    if "{" in text or "}" in text:
        found.append("a brace")
    for pattern, what in (
        (CODE, "a ruling code"),
        (AGREEMENT, "a 'you' agreement error"),
        (SIDE_NUMBER, "a numbered side"),
        (IDENTIFIER, "an internal identifier"),
    ):
        match = pattern.search(text)
        if match:
            found.append(f"{what} ({match.group(0)!r})")
    words = set(re.findall(r"[a-z]+(?:-[a-z]+)*", text))
    leftovers = sorted(words & raw_keys)
    if leftovers:
        found.append(f"raw keys {leftovers}")
    return found


def _board_text(state: State, view: dict[str, Any]) -> str:
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(state.game.render(view))
    return console.file.getvalue()  # type: ignore[attr-defined]


def _refusals(state: State, seat: int, rng: random.Random) -> Iterator[str]:
    """The reasons given for a few moves the rules forbid now."""
    legal = set(state.legal_actions(seat))
    table = list(state.game.action_table)
    for action in rng.sample(table, min(25, len(table))):
        if action in legal:
            continue
        try:
            state.clone().apply(seat, action)
        except IllegalAction as refused:
            yield refused.reason


def _texts_during(state: State, rng: random.Random) -> Iterator[tuple[str, str | None]]:
    """Play ``state`` out at random, yielding (where, text) for what each step shows."""
    game = state.game
    step = 0
    while not state.is_over:
        seat = rng.choice(state.to_move)
        view = state.view(seat)
        for action in state.legal_actions(seat):
            yield "move menu", game.describe_action(action, view)
        if isinstance(view.get("prompt"), str):
            yield "prompt", view["prompt"]
        if step % 8 == 0:
            # Drawing boards is slow: one reader in turn mid-game, every reader at the end.
            readers = [*range(state.players), None]
            reader = readers[step // 8 % len(readers)]
            yield "terminal board", _board_text(state, state.view(reader))
            for reason in _refusals(state, seat, rng):
                yield "refusal", reason
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        step += 1


def _texts_at_the_end(state: State) -> Iterator[tuple[str, str | None]]:
    game = state.game
    for reader in [*range(state.players), None]:
        view = state.view(reader)
        events = state.events(reader)
        for event in events:
            yield f"log line ({event['kind']})", game.describe_event(event, view)
        for line in event_lines(game, events, view):
            yield "terminal log", line
        for line in outcome_lines(view):
            yield "terminal outcome", line
        yield "terminal board", _board_text(state, view)
        message = game_message("sync", state, reader, 0)
        for text in message["event_texts"]:
            yield "server event text", text


def _games(game_id: str) -> Iterator[State]:
    game = intrigue.load(game_id)
    for players in game.player_counts:
        for seed in SEEDS:
            cap = TURN_CAPS[seed % len(TURN_CAPS)]
            yield game.new(players=players, seed=seed, max_turns=cap)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_text_a_person_sees_reads_as_text(game_id: str) -> None:
    raw_keys = _raw_keys(game_id)
    bad: dict[tuple[str, str], str] = {}
    for state in _games(game_id):
        rng = random.Random(state.seed)
        for where, text in [*_texts_during(state, rng), *_texts_at_the_end(state)]:
            for problem in problems(text, raw_keys):
                bad.setdefault((where, problem), str(text)[:300])
    report = "\n".join(f"{where}: {problem}: {text!r}" for (where, problem), text in bad.items())
    assert not bad, f"{game_id}: texts that are not for people:\n{report}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Turn 1: you plays side 0.",
            ["a 'you' agreement error ('you plays')", "a numbered side ('side 0')"],
        ),
        ("the Duke survived (MM-20)", ["a ruling code ('MM-20')"]),
        ('game_over {"winners": [1]}', ["a brace", "an internal identifier ('game_over')"]),
        ("Honour bushido awarded to takeda.", ["raw keys ['bushido', 'takeda']"]),
        ("You pass. You attack e4 and you win. It hands you its cards.", []),
        (None, ["no text at all"]),
    ],
)
def test_the_checker_finds_each_kind_of_slip(text: str | None, expected: list[str]) -> None:
    assert problems(text, frozenset({"takeda", "bushido"})) == expected
