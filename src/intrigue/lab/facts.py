"""What the balance lab reads from a finished game: only its public view and public log.

Everything here works from ``state.view(None)`` and ``state.events(None)``, as a spectator
would see the game once it is over, so the lab never depends on a game's internals. The few
facts that differ between games (which view key counts turns, which roles form a team) sit in
small tables, with generic fallbacks for games added later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from intrigue.engine import State

# The view key counting the unit ``max_turns`` counts in, and that unit's name.
TURN_KEYS: dict[str, tuple[str, str]] = {
    "masquerade-murder": ("night", "nights"),
    "masquerade-ball": ("turn", "turns"),
    "project-assassination": ("turns", "player turns"),
    "shadows-over-japan": ("round", "seasons"),
}
# Tried in order for games not in TURN_KEYS.
FALLBACK_TURN_KEYS = ("turns", "turn", "round", "night")

# Team of each role, for games whose roles play in teams (docs/games/masquerade-murder.md:
# Good wins when the Assassin is jailed, Evil when the Duke falls, the Thug plays for himself).
TEAMS: dict[str, dict[str, str]] = {
    "masquerade-murder": {
        "constable": "good",
        "duke": "good",
        "seductress": "evil",
        "assassin": "evil",
        "thug": "thug",
    },
}


@dataclass
class GameFacts:
    """The public facts of one finished game that the balance report aggregates."""

    steps: int
    turns: int | None
    first: int | None
    # category ("role", "team", "faction") -> the label of every seat
    labels: dict[str, list[str]] = field(default_factory=dict)


def turn_unit(game_id: str) -> str:
    """What the ``turns`` of a game count (the unit of its ``max_turns``)."""
    return TURN_KEYS.get(game_id, ("", "turns"))[1]


def game_facts(state: State) -> GameFacts:
    """Steps, turns, first player and seat labels of a finished game, from public sources."""
    view = state.view(None)
    return GameFacts(
        steps=state.actions_played,
        turns=_turns(state.game.id, view),
        first=first_player(state.events(None)),
        labels=seat_labels(state.game.id, view),
    )


def _turns(game_id: str, view: dict[str, Any]) -> int | None:
    keys = (TURN_KEYS[game_id][0],) if game_id in TURN_KEYS else FALLBACK_TURN_KEYS
    for key in keys:
        value = view.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def first_player(events: list[dict[str, Any]]) -> int | None:
    """The seat of the first public ``turn`` event: who moved first in a game of turns.

    Games with simultaneous phases and no turns (Masquerade Murder) have no first player.
    """
    for event in events:
        if event.get("kind") == "turn" and isinstance(event.get("seat"), int):
            return int(event["seat"])
    return None


def dealt_teams(state: State) -> list[str] | None:
    """Each seat's team in a game just dealt, for a lab that seats bots by team (`intrigue
    ladder --by-team`): the role each seat's own view names (``you.role``), through `TEAMS`;
    None for a game without teams. The lab may know every seat's secret; a bot never reads
    this."""
    teams = TEAMS.get(state.game.id)
    if teams is None:
        return None
    roles = [(state.view(seat).get("you") or {}).get("role") for seat in range(state.players)]
    if not all(isinstance(r, str) and r in teams for r in roles):
        return None
    return [teams[str(r)] for r in roles]


def seat_labels(game_id: str, view: dict[str, Any]) -> dict[str, list[str]]:
    """Per-seat labels the final public view names: roles (and their teams), factions."""
    labels: dict[str, list[str]] = {}
    roles = view.get("roles")
    if isinstance(roles, list) and roles and all(isinstance(r, str) for r in roles):
        labels["role"] = list(roles)
        teams = TEAMS.get(game_id)
        if teams is not None and all(r in teams for r in roles):
            labels["team"] = [teams[r] for r in roles]
    factions = _factions(view)
    if factions is not None:
        labels["faction"] = factions
    return labels


def _factions(view: dict[str, Any]) -> list[str] | None:
    """The faction each seat plays (Shadows over Japan: its Noble), when the view shows it."""
    players = view.get("players")
    if not isinstance(players, list) or not players:
        return None
    nobles = [p.get("noble") if isinstance(p, dict) else None for p in players]
    if all(isinstance(n, str) for n in nobles):
        return [str(n) for n in nobles]
    return None
