"""What both adapters share: defaults, length bounds, option parameters and view strings.

Neither OpenSpiel nor PettingZoo is imported here, so this module loads without the extras.
"""

from __future__ import annotations

import json
import numbers
from collections.abc import Mapping
from typing import Any

from intrigue.engine import Game, Option, State

# The adapters always cap games (OpenSpiel needs a finite maximum length; RL episodes must
# end). ``max_turns`` counts what each game documents: nights, turns, player turns, seasons.
DEFAULT_MAX_TURNS = {
    "masquerade-murder": 20,
    "masquerade-ball": 200,
    "project-assassination": 60,
    "shadows-over-japan": 30,
}
FALLBACK_MAX_TURNS = 100

# Upper bounds on the decisions in one unit of ``max_turns``, from each game's rules:
# * masquerade-murder, a night: 5 targets + at most 5 draws + 5 placements or swaps (the
#   Joker holder places in the extra card's slot): 15, reached in practice.
# * masquerade-ball, a turn: inspect, play and place (3), one move, one unmasking and one
#   placement or delivery per acting card (3 x 14), one rotation per ballroom card (14),
#   a release per prisoner (at most 42) and `end`: 102 < 128.
# * project-assassination, a player turn: draw and discard (2), at most 6 Items, 4 moves,
#   2 shots, 4 teleports, one prompt per card collected (at most 35) and `end`, plus the
#   enemy placement of the round: 55 < 128.
# * shadows-over-japan, a season, per seat: 6 actions, an extra action per gold (the game
#   has 25) and per claimed mission (72 cards), a claim per action, 20 marches, the spending
#   step (gold and claims again) and the discards of the cards it can draw: < 512.
# Set-up moves (Shadows over Japan's styles, 3 per seat) are covered by an allowance per seat.
TURN_BOUNDS = {
    "masquerade-murder": 15,
    "masquerade-ball": 128,
    "project-assassination": 128,
    "shadows-over-japan": 512,
}
SETUP_PER_SEAT = {"shadows-over-japan": 4}
FALLBACK_TURN_BOUND = 512

# Those worst cases are far beyond play: in random and `medium` games (docs/interop.md) no night
# took more than 15 decisions, no ball turn or player turn more than 14, no season more than 13
# per seat. So the adapters also end a game once it has taken a number of decisions, its
# *decision cap*: 16 per unit of ``max_turns`` (per seat and season in Shadows over Japan),
# above the most any single unit took, plus the set-up. ``max_game_length`` is then the lower of
# the two bounds, a tight one the cap guarantees. A game stopped by the cap has no result:
# PettingZoo and Gymnasium truncate it (rewards 0), OpenSpiel ends it with 0 for everyone.
DECISIONS_PER_TURN = {
    "masquerade-murder": 15,  # the rules' own maximum: the cap never stops a game
    "masquerade-ball": 16,
    "project-assassination": 16,
    "shadows-over-japan": 16,
}
FALLBACK_DECISIONS_PER_TURN = 32
LIST_SEPARATOR = ";"  # list options as one parameter string ("," splits OpenSpiel game strings)
UNSET_INT = -1  # an int parameter of -1 leaves an unset-by-default option unset


def default_max_turns(game_id: str) -> int:
    return DEFAULT_MAX_TURNS.get(game_id, FALLBACK_MAX_TURNS)


def _units(game: Game, players: int, max_turns: int) -> int:
    """Units of ``max_turns`` whose decisions are bounded: seasons count per seat."""
    return max_turns * (players if game.id == "shadows-over-japan" else 1)


def rules_bound(game: Game, players: int, max_turns: int) -> int:
    """The most decisions the rules allow in a game capped at ``max_turns`` (see above)."""
    per_turn = TURN_BOUNDS.get(game.id, FALLBACK_TURN_BOUND)
    return SETUP_PER_SEAT.get(game.id, 0) * players + per_turn * _units(game, players, max_turns)


def default_max_decisions(game: Game, players: int, max_turns: int) -> int:
    """The decision cap of a game capped at ``max_turns`` (see `DECISIONS_PER_TURN`)."""
    per_turn = DECISIONS_PER_TURN.get(game.id, FALLBACK_DECISIONS_PER_TURN)
    setup = SETUP_PER_SEAT.get(game.id, 0) * players
    return setup + per_turn * _units(game, players, max_turns)


def max_game_length(game: Game, players: int, max_turns: int, max_decisions: int = 0) -> int:
    """An upper bound on the decisions in a game capped at ``max_turns`` turns and (unless 0)
    ``max_decisions`` decisions."""
    bound = rules_bound(game, players, max_turns)
    return min(bound, max_decisions) if max_decisions > 0 else bound


def decision_cap(
    game: Game, players: int, options: Mapping[str, Any], max_decisions: int | None
) -> int:
    """The decision cap asked for: None gives the game's default, 0 none."""
    if max_decisions is None:
        turns = options.get("max_turns")
        return 0 if turns is None else default_max_decisions(game, players, int(turns))
    if max_decisions < 0:
        raise ValueError(f"max_decisions must be 0 (no cap) or more, not {max_decisions}")
    return max_decisions


def cut_off(state: State, max_decisions: int) -> bool:
    """Whether the decision cap stops ``state`` now: unfinished, with that many decisions."""
    return 0 < max_decisions <= state.actions_played and not state.is_over


def zero_sum(game: Game, players: int) -> bool:
    """Whether every outcome's returns sum to 0: two-player games with a single winner or a draw
    (Shadows over Japan shares the win on a complete tie, so it is general-sum)."""
    return players == 2 and game.id in {"masquerade-ball", "project-assassination"}


# -- options as flat parameters -----------------------------------------------------------------


def parameter_default(option: Option, game_id: str) -> int | str | bool:
    """The OpenSpiel-style scalar default of an option (lists are ';'-joined strings)."""
    if option.name == "max_turns":
        return default_max_turns(game_id)
    if option.kind is list:
        return LIST_SEPARATOR.join(map(str, option.default or []))
    if option.kind is int:
        return UNSET_INT if option.default is None else int(option.default)
    if option.kind is bool:
        return bool(option.default)
    return "" if option.default is None else str(option.default)


def options_from_parameters(game: Game, params: Mapping[str, Any]) -> dict[str, Any]:
    """Turn flat parameters back into ``game.new`` options; defaults are left out."""
    options: dict[str, Any] = {}
    for option in game.options:
        if option.name not in params:
            continue
        value = params[option.name]
        if option.kind is list:
            parts = [p.strip() for p in str(value).split(LIST_SEPARATOR) if p.strip()]
            if parts:
                options[option.name] = parts
        elif option.kind is int:
            if int(value) != UNSET_INT or option.default is not None:
                options[option.name] = int(value)
        elif option.kind is bool:
            options[option.name] = bool(value)
        elif value != "" or option.default is not None:
            options[option.name] = str(value)
    return options


def integer_action(action: Any) -> int:
    """``action`` as an action index. Integers (numpy's too, and 0-d integer arrays) pass;
    a float, a bool, text or None is refused rather than silently cut to an integer."""
    if getattr(action, "shape", None) == () and getattr(action, "dtype", None) is not None:
        action = action.item() if action.dtype.kind in "iu" else action
    if isinstance(action, bool) or not isinstance(action, numbers.Integral):
        raise TypeError(f"an action is an integer index, not {action!r}")
    return int(action)


# -- strings -------------------------------------------------------------------------------


def canonical_json(data: Any) -> str:
    """Compact JSON with sorted keys: equal data, equal text."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def observation_string(state: State, seat: int | None) -> str:
    """What ``seat`` sees now: the canonical JSON of its view."""
    return canonical_json(state.view(seat))


def information_state_string(state: State, seat: int | None) -> str:
    """Everything ``seat`` has observed: its view and the log as it saw it (perfect recall)."""
    return canonical_json({"view": state.view(seat), "events": state.events(seat)})


def private_part(mine: Any, public: Any) -> Any:
    """What ``mine`` (a seat's view) holds beyond ``public`` (the spectator's): the keys of a
    dict whose values differ, recursively; lists of equal length by the positions that differ
    (``{"3": ...}``); any other difference whole. Equal values give None."""
    if mine == public:
        return None
    if isinstance(mine, dict) and isinstance(public, dict):
        return {
            key: private_part(value, public.get(key))
            for key, value in mine.items()
            if key not in public or value != public[key]
        }
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        pairs = enumerate(zip(mine, public, strict=True))
        return {str(i): private_part(a, b) for i, (a, b) in pairs if a != b}
    return mine


def private_string(state: State, seat: int, perfect_recall: bool) -> str:
    """Only ``seat``'s private information: its view beyond the spectator's and, with perfect
    recall, the events it saw that a spectator did not."""
    data: dict[str, Any] = {"view": private_part(state.view(seat), state.view(None))}
    if perfect_recall:
        data["events"] = private_events(state.events(seat), state.events(None))
    return canonical_json(data)


def private_events(mine: list[Any], public: list[Any]) -> list[Any]:
    """The events of ``mine`` that are not in ``public`` (a subsequence of it), in order."""
    private, i = [], 0
    for event in mine:
        if i < len(public) and event == public[i]:
            i += 1
        else:
            private.append(event)
    return private


def render_text(game: Game, view: dict[str, Any]) -> str:
    """The game's terminal drawing of ``view`` as plain text, as wide as the drawing needs
    (nothing is wrapped or cut at a terminal's width)."""
    drawing = game.render(view)
    if isinstance(drawing, str):
        return drawing
    from rich.console import Console
    from rich.measure import Measurement

    probe = Console(width=10_000, file=_Sink(), color_system=None)
    width = max(Measurement.get(probe, probe.options, drawing).maximum, 1)
    console = Console(record=True, width=width, file=_Sink(), color_system=None)
    console.print(drawing)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


def print_drawing(game: Game, view: dict[str, Any]) -> None:
    """Print the game's terminal drawing of ``view`` to the terminal (rich, in colour)."""
    from rich.console import Console

    Console().print(game.render(view))


class _Sink:
    """A file that swallows what rich prints while recording."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass
