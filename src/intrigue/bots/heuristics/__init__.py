"""Per-game heuristic policies: ``policy(view, legal_actions, rng) -> Action``, by game id."""

from __future__ import annotations

HEURISTICS: dict[str, str] = {
    "masquerade-ball": "intrigue.bots.heuristics.masquerade_ball:choose",
    "masquerade-murder": "intrigue.bots.heuristics.masquerade_murder:choose",
    "project-assassination": "intrigue.bots.heuristics.project_assassination:choose",
    "shadows-over-japan": "intrigue.bots.heuristics.shadows_over_japan:choose",
}
