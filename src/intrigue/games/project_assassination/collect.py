"""Collecting cards (rendezvous points, cards on the board) and answering the prompts they raise.

`Collecting` is mixed into `AssassinationState` (rules.py) and works on its attributes. The
cards collected in one step wait in ``queue`` and are used in `COLLECT_ORDER`; a card that needs
a choice (a third weapon, a Sight with two candidates, a Loot Crate overflow, a Cage or Grenade
target, a teleport tie) sets ``prompt`` and the phase to ``choice`` until the player answers.
Then the teleport back to spawn and the enemy-damage check of the step follow (PA-7, PA-21).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from .board import (
    CELL,
    CELLS,
    GRENADE_BLOCK,
    GRENADE_DAMAGE,
    HEALTH_PACK_HP,
    MAX_BOOTS,
    MAX_HP,
    MAX_RESERVE,
    NAMES,
    POINT,
    WEAPON_STATS,
    manhattan,
)
from .pieces import CHOICE, FOREVER, NOBODY, TURN, Weapon, payload

# Order in which the cards on a rendezvous point are used (PA-35): weapons first so a Sight or
# Muzzle collected with them can go on them; weapons keep the order they were placed in.
COLLECT_ORDER = {
    "uzi": 0,
    "shotgun": 0,
    "paralysis_pistol": 0,
    "sniper": 0,
    "boot": 1,
    "sight": 2,
    "muzzle": 2,
    "health_pack": 3,
    "loot_crate": 4,
    "cage": 5,
    "grenade": 6,
}


class Collecting:
    """Using collected cards one by one, the prompts they raise, and the teleport to spawn."""

    def _mod_slots(self, seat: int, card: str) -> list[int]:
        """Slots whose weapon can take this Sight or Muzzle (PA-12, PA-36)."""
        out = []
        for slot in (1, 2):
            w = self.weapon(seat, slot)
            if (
                w is not None
                and WEAPON_STATS[w.kind].moddable
                and not (w.sight if card == "sight" else w.muzzle)
            ):
                out.append(slot)
        return out

    def _resume(self, seat: int) -> None:
        """Use the collected cards in order; stop at a prompt; then teleport (PA-21/22/35)."""
        while self.queue:
            card = self.queue.pop(0)
            if not self._collect(seat, card):
                self.phase = CHOICE
                return
            if self._outcome is not None:
                return
        self.phase = TURN
        self.prompt = None
        if self.then_teleport:
            self.then_teleport = False
            if not self._teleport(seat):
                return
        self._after_move(seat, heal=False)

    def _collect(self, seat: int, card: str) -> bool:
        """Use one collected card; False when the player must choose something first."""
        if card in WEAPON_STATS:
            return self._equip(seat, card)
        if card == "boot":
            if self.boots[seat] < MAX_BOOTS:
                self.boots[seat] += 1
                self._emit("boot", seat=seat, boots=self.boots[seat])
            else:
                self.coll_discard.append(card)  # boots are identical: no choice (PA-11)
            return True
        if card in ("sight", "muzzle"):
            slots = self._mod_slots(seat, card)
            if len(slots) == 1:
                self._attach(seat, card, slots[0])
            elif not slots:
                self.coll_discard.append(card)
                self._emit("wasted", seat=seat, card=card)
            else:
                self.prompt = ("attach", card)
                return False
            return True
        if card == "health_pack":
            if self.hp[seat] < MAX_HP:
                self.hp[seat] = min(MAX_HP, self.hp[seat] + HEALTH_PACK_HP)
                self.coll_discard.append(card)
                self._emit("heal", seat=seat, hp=self.hp[seat], source="health pack")
            else:
                self.points[seat].append(card)  # stays on the point (PA-21, PA-25)
            return True
        if card == "loot_crate":
            return self._loot(seat)
        if card == "cage":
            if any(e.caged_by == NOBODY for e in self.enemies.values()):
                self.prompt = ("cage", card)
                return False
            self.coll_discard.append(card)
            self._emit("wasted", seat=seat, card=card)
            return True
        self.prompt = ("grenade", card)
        return False

    def _equip(self, seat: int, card: str) -> bool:
        for i in (0, 1):
            if self.slots[2 * seat + i] is None:
                self.slots[2 * seat + i] = Weapon(card)
                self._emit("equip", seat=seat, weapon=card, slot=i + 1)
                self._update_slots(seat)
                return True
        self.prompt = ("weapon", card)
        return False

    def _update_slots(self, seat: int) -> None:
        if self.slots[2 * seat] is not None and self.slots[2 * seat + 1] is not None:
            self.two_slots = True

    def _attach(self, seat: int, card: str, slot: int) -> None:
        w = self.weapon(seat, slot)
        assert w is not None
        w = w._replace(sight=True) if card == "sight" else w._replace(muzzle=True)
        if self.slots[2 * seat + slot - 1] is None:
            self.pistol[seat] = w
        else:
            self.slots[2 * seat + slot - 1] = w
        self._emit("attach", seat=seat, card=card, slot=slot, weapon=w.kind)

    def _loot(self, seat: int) -> bool:
        discard = self.item_discard
        self.coll_discard.append("loot_crate")
        if not discard:
            self._emit("wasted", seat=seat, card="loot_crate")
            return True
        taken = [discard.pop() for _ in range(min(2, len(discard)))]
        self.reserve[seat].extend(taken)
        self._emit_lazy("loot", None, partial(payload, seat=seat, cards=tuple(taken)))
        if len(self.reserve[seat]) > MAX_RESERVE:
            self.prompt = ("loot", "loot_crate")
            return False
        return True

    def _discard_weapon(self, w: Weapon) -> None:
        """A weapon leaves with its Sight and Muzzle (PA-11); the Sniper has its own pile."""
        (self.sniper_discard if w.kind == "sniper" else self.coll_discard).append(w.kind)
        self.coll_discard.extend(m for m, on in (("sight", w.sight), ("muzzle", w.muzzle)) if on)

    def _answer(self, seat: int, verb: str, args: tuple[Any, ...]) -> None:
        kind, card = self.prompt  # type: ignore[misc]
        if kind == "teleport":
            self.prompt = None
            self.phase = TURN
            self.pos[seat] = CELL[args[0]]
            self._emit("teleport", seat=seat, to=args[0])
            self._after_move(seat, heal=False)
            return
        if kind == "weapon":
            if verb == "decline":
                self._discard_weapon(Weapon(card))
                self._emit("decline", seat=seat, weapon=card)
            else:
                i = 2 * seat + args[0] - 1
                self._discard_weapon(self.slots[i])  # type: ignore[arg-type]
                self._emit("replace", seat=seat, slot=args[0], old=self.slots[i].kind, new=card)  # type: ignore[union-attr]
                self.slots[i] = Weapon(card)
                self._update_slots(seat)
        elif kind == "attach":
            self._attach(seat, card, args[0])
        elif kind == "loot":
            self.reserve[seat].remove(args[0])
            self.item_discard.append(args[0])
            self._emit("discard", seat=seat, card=args[0])
            if len(self.reserve[seat]) > MAX_RESERVE:
                return
        elif kind == "cage":
            cell = CELL[args[0]]
            by = FOREVER if self.options["cage"] == "permanent" else seat
            self.enemies[cell] = self.enemies[cell]._replace(caged_by=by)
            self.marked += 1
            self.coll_discard.append(card)
            self._emit("cage", seat=seat, at=args[0])
            if self._check_end():
                return
        else:  # grenade
            self.coll_discard.append(card)
            self._emit("grenade", seat=seat, at=args[0])
            for c in GRENADE_BLOCK[CELL[args[0]]]:
                self._hit(seat, c, GRENADE_DAMAGE, grenade=True)
            if self._check_end():
                return
        self.prompt = None
        self._resume(seat)

    def _teleport(self, seat: int) -> bool:
        """Back to spawn after a rendezvous point; a choice when the spawn is taken (PA-44)."""
        spawn = self.spawn(seat)
        if spawn != self.pos[1 - seat]:
            self.pos[seat] = spawn
            self._emit("teleport", seat=seat, to=NAMES[spawn])
            return True
        points = (POINT[1], POINT[2])
        free = [c for c in range(CELLS) if self._free(c) and c not in points]
        best = min(manhattan(spawn, c) for c in free)
        nearest = tuple(c for c in free if manhattan(spawn, c) == best)
        if len(nearest) == 1:
            self.pos[seat] = nearest[0]
            self._emit("teleport", seat=seat, to=NAMES[nearest[0]])
            return True
        self.teleports = nearest
        self.prompt = ("teleport", "")
        self.phase = CHOICE
        return False
