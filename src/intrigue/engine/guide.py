"""How to play a game, in people's words, from one source per game.

A game package may hold a ``guide`` module with ``GUIDE``, a `Guide`: the goal in two
sentences, a turn in short steps, and a reference entry for every role, card, unit, weapon or
Honour the game has. The terminal's ``rules`` command and the browser's "How to play" panel
both show it, so they always say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Entry:
    """One thing a player meets: ``key`` as the game's data names it, ``name`` as players do;
    ``facts``: numbers a page may draw with (a Project Assassination enemy's range and damage,
    read from the same tables as the text), never shown as they are."""

    key: str
    name: str
    text: str
    facts: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"key": self.key, "name": self.name, "text": self.text}
        if self.facts:
            out["facts"] = dict(self.facts)
        return out


@dataclass(frozen=True)
class Section:
    """A group of entries ("Roles", "Enemies", ...)."""

    title: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Guide:
    goal: str
    turn: tuple[str, ...]
    sections: tuple[Section, ...]
    notes: tuple[str, ...] = ()  # anything else a first game needs (the end, free actions)

    def section(self, title: str) -> Section:
        for section in self.sections:
            if section.title == title:
                return section
        raise KeyError(title)

    def keys(self, title: str) -> set[str]:
        """The keys of one section's entries."""
        return {entry.key for entry in self.section(title).entries}

    def to_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal,
            "turn": list(self.turn),
            "notes": list(self.notes),
            "sections": [
                {
                    "title": s.title,
                    "entries": [e.to_json() for e in s.entries],
                }
                for s in self.sections
            ],
        }

    def lines(self) -> list[str]:
        """The guide as plain lines for the terminal."""
        out = ["Goal", f"  {self.goal}", "A turn"]
        out += [f"  {i}. {step}" for i, step in enumerate(self.turn, 1)]
        for note in self.notes:
            out.append(f"  {note}")
        for section in self.sections:
            out.append(section.title)
            out += [f"  {e.name}: {e.text}" for e in section.entries]
        return out
