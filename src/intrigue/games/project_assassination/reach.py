"""Where things may go and what a player could hit: placement legality (PA-18, PA-27, PA-28).

`Reach` is mixed into `AssassinationState` (rules.py) and works on its attributes: the
players' squares and weapons, the obstacles, the enemies and the cards lying on the board.
"""

from __future__ import annotations

from operator import or_

from .board import (
    CELLS,
    ENEMY_STATS,
    NO_ENEMY,
    NO_OBSTACLE,
    RAYS,
    SHOTGUN,
    STRATEGY_REACH,
    WEAPON_STATS,
)
from .pieces import NOBODY

OBSTACLE_OK = tuple(c for c in range(CELLS) if not NO_OBSTACLE[c])


class Reach:
    """Shotgun patterns, weapon reach and the squares obstacles and enemies may take."""

    def _blast(self, cells: tuple[int, int, int, int], sight: bool) -> tuple[int, ...]:
        """The squares a shotgun blast hits (PA-9): the front row, plus beyond with a Sight."""
        front, side1, side2, beyond = cells
        if sight and front >= 0 and not self.obst[front]:
            return (front, side1, side2, beyond)
        return (front, side1, side2)

    def obstacle_squares(self) -> list[int]:
        """Where an Obstacle card may go (PA-28)."""
        taken = {*self.enemies, *self.loose, *self.pos}
        obst = self.obst
        return [c for c in OBSTACLE_OK if not obst[c] and c not in taken]

    def threat(self, seat: int, mask: list[bool] | None = None) -> list[bool]:
        """Squares ``seat`` could hit right now with any weapon he holds (PA-18, PA-43).

        Marks them in ``mask`` when given (a fresh all-False list otherwise).
        """
        if mask is None:
            mask = [False] * CELLS
        p = self.pos[seat]
        obst = self.obst
        for slot in (1, 2):
            w = self.weapon(seat, slot)
            if w is None:
                continue
            if w.kind == "shotgun":
                for cells in SHOTGUN[p].values():
                    for c in self._blast(cells, w.sight):
                        if c >= 0:
                            mask[c] = True
            elif w.kind == "sniper":
                for ray in RAYS[p].values():
                    for c in ray:
                        mask[c] = True
            else:
                reach = WEAPON_STATS[w.kind].range + w.sight
                for ray in RAYS[p].values():
                    for c in ray[:reach]:
                        mask[c] = True
                        if obst[c]:
                            break
        return mask

    def enemy_forbidden(self, kind: str) -> list[bool]:
        """PA-18 for every square at once: True where this enemy may not be placed.

        Skull-crossed or occupied squares, squares either player could hit, and squares from
        which a player would be within the enemy's range (range is symmetric: walk the rays
        out of each player).
        """
        obst = self.obst
        mask = list(map(or_, NO_ENEMY, obst))
        for c in self.enemies:
            mask[c] = True
        for c in self.loose:
            mask[c] = True
        reach = ENEMY_STATS[kind].range
        for seat in (0, 1):
            p = self.pos[seat]
            mask[p] = True
            self.threat(seat, mask)
            if reach:
                for ray in RAYS[p].values():
                    for c in ray[:reach]:
                        mask[c] = True
                        if obst[c]:
                            break
        return mask

    def enemy_squares(self, kind: str) -> list[int]:
        mask = self.enemy_forbidden(kind)
        return [c for c in range(CELLS) if not mask[c]]

    def strategy_moves(self) -> list[tuple[int, int]]:
        """(from, to) pushes a Strategy card allows (PA-27, PA-42)."""
        moves = []
        forbidden: dict[str, list[bool]] = {}
        enemies, obst, pos, loose = self.enemies, self.obst, self.pos, self.loose

        def passable(m: int) -> bool:
            # PA-27: an empty square; PA-48: a card lying on the board occupies its square.
            return not (obst[m] or m in enemies or m in loose or m == pos[0] or m == pos[1])

        sources = [c for c, e in enemies.items() if e.caged_by == NOBODY]
        sources += [c for c in range(CELLS) if obst[c]]
        for src in sources:
            enemy = enemies.get(src)
            for dst, paths in STRATEGY_REACH[src]:
                if not self._free(dst):
                    continue
                if enemy is None:
                    if NO_OBSTACLE[dst]:
                        continue
                else:
                    if enemy.kind not in forbidden:
                        forbidden[enemy.kind] = self.enemy_forbidden(enemy.kind)
                    if forbidden[enemy.kind][dst]:
                        continue
                if any(all(passable(m) for m in path) for path in paths):
                    moves.append((src, dst))
        return moves
