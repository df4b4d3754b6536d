"""Seats at a table: who may sit (a human or a bot level) and the hashes of seat tokens.

The database keeps only sha256 hashes of seat tokens; a token itself is shown once, to whoever
the seat's link is given to.
"""

from __future__ import annotations

import hashlib

from ..storage.db import BOT, HUMAN, SeatRecord

BOT_LEVELS = ("easy", "medium", "hard", "expert")
SEAT_KINDS = (HUMAN, *BOT_LEVELS)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_seat_kinds(kinds: list[str] | None, players: int) -> list[str]:
    """Seat kinds, one per seat: 'human' or a bot level. Default: seat 0 human, medium bots."""
    if kinds is None:
        return [HUMAN] + ["medium"] * (players - 1)
    if len(kinds) != players:
        raise ValueError(f"give one seat kind per player: {players} expected, got {len(kinds)}")
    cleaned = [str(k).strip().lower() for k in kinds]
    for kind in cleaned:
        if kind not in SEAT_KINDS:
            raise ValueError(f"seat kind {kind[:40]!r} is not one of {', '.join(SEAT_KINDS)}")
    return cleaned


def seat_record(seat: int, kind: str, token: str | None) -> SeatRecord:
    if kind == HUMAN:
        return SeatRecord(seat, HUMAN, None, hash_token(token or ""))
    return SeatRecord(seat, BOT, kind, None)
