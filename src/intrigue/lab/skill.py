"""The skill trace: how much more a stronger bot wins than a weaker one in the same games.

A game where the stronger bot barely wins more rewards luck; one where it nearly always wins
rewards skill (Ludii's "skill trace" metric, measured here on the bots we have).
"""

from __future__ import annotations

from typing import Any

from .stats import Tally, compare_tallies

# Bot kinds from weakest to strongest; ISMCTS gets stronger with more iterations.
STRENGTH = {"random": 0, "easy": 0, "heuristic": 1, "medium": 1, "ismcts": 2, "hard": 2}
DEFAULT_ISMCTS_ITERATIONS = 400


def bot_strength(name: str) -> tuple[int, float] | None:
    """(kind, search budget) ordering of a bot name; None for bots of unknown strength."""
    kind, *settings = name.lower().split(":")
    if kind not in STRENGTH:
        return None
    budget = float(DEFAULT_ISMCTS_ITERATIONS if STRENGTH[kind] == 2 else 0)
    for item in settings:
        key, _, value = item.partition("=")
        if key == "iterations":
            budget = float(value)
    return (STRENGTH[kind], budget)


def skill_report(by_bot: dict[Any, Tally]) -> dict[str, Any] | None:
    """Win-rate gaps between bots of increasing strength: the skill the game rewards.

    ``pairs`` compares each bot with the next weaker one; ``trace`` is the gap between the
    strongest and the weakest (0: strength does not matter, 1: the stronger always wins).
    """
    ranked = sorted(
        ((s, str(n)) for n in by_bot if (s := bot_strength(str(n))) is not None),
        key=lambda item: item[0],
    )
    names = [name for _, name in ranked]
    if len(names) < 2:
        return None
    pairs = [_gap(names[i + 1], names[i], by_bot) for i in range(len(names) - 1)]
    overall = _gap(names[-1], names[0], by_bot)
    return {
        "order": names,
        "pairs": pairs,
        "strongest_vs_weakest": overall,
        "trace": overall["delta"],
    }


def skill_gaps(skill: dict[str, Any]) -> list[dict[str, Any]]:
    """The gaps worth showing: each step up in strength, and the whole ladder if longer."""
    pairs = list(skill["pairs"])
    return [*pairs, skill["strongest_vs_weakest"]] if len(pairs) > 1 else pairs


def _gap(stronger: str, weaker: str, by_bot: dict[Any, Tally]) -> dict[str, Any]:
    a, b = by_bot[stronger], by_bot[weaker]
    return {"stronger": stronger, "weaker": weaker, **compare_tallies(b, a)}
