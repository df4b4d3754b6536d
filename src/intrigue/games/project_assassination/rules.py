"""Project Assassination: the referee (seed 003, RULINGS Part 3, rulings PA-1..PA-58).

Two rival assassins on a 7x7 bar board. A round is Player 1's turn, Player 2's turn, then one
enemy-placement phase and the Medics' healing. A turn is a sequence of small actions: an
optional draw (``draw item`` / ``draw collectible``), Items played before the first action
(``obstacle c4``, ``strategy d3 d1``, ``ambush``, ``cover``), then up to 2-4 actions (``move
b7``, ``shoot 1 d5``, ``shoot 2 n``) and ``end``. Choices that arise mid-action (a third weapon,
where a Sight goes, a Loot Crate overflow, a Cage or Grenade target, a teleport tie) are asked
as prompts (``replace 1``, ``decline``, ``attach 2``, ``discard cover``, ``cage d3``, ``grenade
c4``, ``teleport b7``). The placer answers ``place <cell>`` in the placement phase.

Everything is public but the deck orders (RULINGS §3.2); chance (shuffles, coins) comes only
from the state's `Rng`, and options fix every random deal so tests can set up exact situations.

The state is split over a few modules: `actions` (the action table), `pieces` (weapons,
enemies, phases), `reach` (what a player could hit, where obstacles and enemies may go),
`collect` (collecting cards and answering the prompts they raise), `explain` (the view and the
reasons for refusals) and `belief` (determinization). This module holds the turn, the moves,
the attacks, the rounds with their placement phase, and the end.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from intrigue.engine import (
    MAX_TURNS,
    Action,
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    Outcome,
    Rng,
    State,
)

from .actions import (
    ACTIONS,
    AMBUSH,
    ATTACH,
    CAGE,
    COVER,
    DECLINE,
    DISCARD,
    DRAW_COLLECTIBLE,
    DRAW_ITEM,
    END,
    GRENADE,
    MOVE,
    OBSTACLE,
    PLACE,
    REPLACE,
    SHOOT_AT,
    SHOOT_DIR,
    STRATEGY,
    TELEPORT,
)
from .board import (
    BASE_ACTIONS,
    BETWEEN,
    BOSS_NEEDS,
    CELL,
    CELLS,
    COLLECTIBLE_DECK,
    DISTANCE,
    ENEMY_DECK,
    ENEMY_STATS,
    HEAL_POINT_HP,
    HEAL_POINTS,
    ITEM_DECK,
    ITEMS,
    MAX_BOOTS,
    MAX_HP,
    MAX_RESERVE,
    MEDIC_HEAL,
    NAMES,
    NEIGHBOURS,
    POINT,
    PRESET_COLLECTIBLES,
    PRESET_GRUNTS,
    PRESET_OBSTACLES,
    RAYS,
    SHOTGUN,
    SIZE,
    SPAWN,
    TUNNELS,
    WEAPON_STATS,
    WIN_VP,
)
from .collect import COLLECT_ORDER, Collecting
from .deck import Deck
from .pieces import (
    CHOICE,
    FOREVER,
    NOBODY,
    OVER,
    PISTOL,
    PLACEMENT,
    TURN,
    Enemy,
    Weapon,
    payload,
)
from .reach import Reach

PLAYERS = 2
HEAL_BIT = {cell: 1 << i for i, cell in enumerate(HEAL_POINTS)}
ATTACK = {kind: (e.range, e.damage) for kind, e in ENEMY_STATS.items()}  # reach 0: never
REACH = {kind: w.range for kind, w in WEAPON_STATS.items()}
# LINES[cell][reach]: the four rays out of ``cell`` cut to ``reach`` squares (empty ones dropped).
LINES = tuple(
    tuple(tuple(ray[:reach] for ray in RAYS[c].values() if ray) for reach in range(SIZE + 2))
    for c in range(CELLS)
)


# -- options -------------------------------------------------------------------------------
def _deck_check(name: str, contents: tuple[str, ...]) -> Any:
    def check(value: list[str]) -> None:
        rest = list(contents)
        for card in value:
            if card not in rest:
                raise InvalidOption(
                    f"option {name}: the top cards must come from the deck's contents "
                    f"({', '.join(sorted(contents))}); {card!r} is not (or not that often)"
                )
            rest.remove(card)

    return check


def _check_coins(value: list[str]) -> None:
    if any(v not in ("heads", "tails") for v in value):
        raise InvalidOption("option coins: every coin is heads or tails")


OPTIONS = (
    MAX_TURNS,
    Option(
        "first_player",
        int,
        None,
        "Seat that is Player 1 and moves first (default: a coin flip).",
        choices=(0, 1),
        fixes="who plays first",
    ),
    Option(
        "item_deck",
        list,
        None,
        "Fix the top of the Item deck, top card first; the rest is random.",
        check=_deck_check("item_deck", ITEM_DECK),
        fixes="the top of the Item deck",
    ),
    Option(
        "collectible_deck",
        list,
        None,
        "Fix the top of the Collectible deck, top card first; the rest is random.",
        check=_deck_check("collectible_deck", COLLECTIBLE_DECK),
        fixes="the top of the Collectible deck",
    ),
    Option(
        "enemy_deck",
        list,
        None,
        "Fix the top of the Enemy deck, top card first; the rest is random.",
        check=_deck_check("enemy_deck", ENEMY_DECK),
        fixes="the top of the Enemy deck",
    ),
    Option(
        "coins",
        list,
        None,
        "Fix the placement coin flips in order (heads: Player 1 places); then random.",
        check=_check_coins,
        fixes="the placement coin flips",
    ),
    Option(
        "cage",
        str,
        "until_next_turn",
        "How long a Cage holds (PA-16).",
        choices=("until_next_turn", "permanent"),
    ),
    Option(
        "paralysis_reusable",
        bool,
        False,
        "Keep the Paralysis Pistol after a shot instead of discarding it (PA-14).",
    ),
)


class AssassinationState(Collecting, Reach, State):
    """One game of Project Assassination. Seats 0 and 1; the coin decides who is Player 1."""

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.first = 0
        self.number = [1, 2]  # player number (1 moves first) of each seat
        self.points_at = (POINT[1], POINT[2])  # each seat's rendezvous point
        self.pos = [0, 0]
        self.hp = [MAX_HP, MAX_HP]
        self.vp = [0, 0]
        # where each seat's VP came from: "rival" (its shots at the rival) or an enemy kind
        self.vp_from: list[dict[str, int]] = [{}, {}]
        self.slots: list[Weapon | None] = [None] * 4  # seat*2 + slot index (slot 1 -> 0)
        self.pistol = [PISTOL, PISTOL]
        self.boots = [0, 0]
        self.reserve: list[list[str]] = [[], []]
        self.points: list[list[str]] = [[], []]  # cards on each seat's rendezvous point
        self.ambushed = [False, False]  # this seat's point is blocked for its next turn
        self.skip = [False, False]  # this seat loses its next turn (paralysed)
        self.obst = [False] * CELLS
        self.enemies: dict[int, Enemy] = {}
        self.loose: dict[int, str] = {}  # collectibles lying on the board (preset squares)
        self.item_deck: Deck
        self.coll_deck: Deck
        self.enemy_deck: Deck
        self.marked = 0  # enemies that may carry a paralysis or a cage (0: none do)
        self.item_discard: list[str] = []  # top card last
        self.coll_discard: list[str] = []
        self.sniper_discard: list[str] = []
        self.coins: list[str] = []
        self.round = 0
        self.turns = 0  # completed player turns (skipped ones included)
        self.phase = TURN
        self.current = 0
        # the turn in progress
        self.stage = 0  # 0: may draw; 1: drew or played an Item; 2: moved or attacked
        self.actions = 0
        self.attacks = 0
        self.fired = 0  # bit per slot fired this turn
        self.two_slots = False
        self.healed = 0  # bit per Heal Point used this turn
        self.cover = False
        # a pending choice inside an action
        self.prompt: tuple[str, str] | None = None  # (kind, card)
        self.queue: list[str] = []
        self.then_teleport = False
        self.teleports: tuple[int, ...] = ()
        # the placement phase
        self.placer = NOBODY
        self.drawn_enemy: str | None = None
        self.place_cells: tuple[int, ...] = ()
        self._cache: tuple[int, tuple[Action, ...]] | None = None

    # -- set-up -----------------------------------------------------------------------------
    def _start(self) -> None:
        opts = self.options
        self.item_deck = Deck.build(ITEM_DECK, opts["item_deck"])
        self.coll_deck = Deck.build(COLLECTIBLE_DECK, opts["collectible_deck"])
        self.enemy_deck = Deck.build(ENEMY_DECK, opts["enemy_deck"])
        for c in PRESET_OBSTACLES:
            self.obst[c] = True
        self.loose = dict(PRESET_COLLECTIBLES)
        self.enemies = {c: Enemy("grunt", ENEMY_STATS["grunt"].hp) for c in PRESET_GRUNTS}
        first = opts["first_player"]
        if first is None:
            first = self.rng.randrange(2)  # the coin flip for Player 1
        self.first = first
        self.number = [1 if seat == first else 2 for seat in range(PLAYERS)]
        self.points_at = (POINT[self.number[0]], POINT[self.number[1]])
        self.pos = [SPAWN[n] for n in self.number]
        self._emit("setup", first=first)
        self._begin_turn(first)

    def _copy_mutables(self, new: State) -> None:
        assert isinstance(new, AssassinationState)
        new.number = self.number.copy()
        new.pos = self.pos.copy()
        new.hp = self.hp.copy()
        new.vp = self.vp.copy()
        new.vp_from = [self.vp_from[0].copy(), self.vp_from[1].copy()]
        new.slots = self.slots.copy()
        new.pistol = self.pistol.copy()
        new.boots = self.boots.copy()
        new.reserve = [self.reserve[0].copy(), self.reserve[1].copy()]
        new.points = [self.points[0].copy(), self.points[1].copy()]
        new.ambushed = self.ambushed.copy()
        new.skip = self.skip.copy()
        new.obst = self.obst.copy()
        new.enemies = self.enemies.copy()
        new.loose = self.loose.copy()
        new.item_deck = self.item_deck.copy()
        new.coll_deck = self.coll_deck.copy()
        new.enemy_deck = self.enemy_deck.copy()
        new.item_discard = self.item_discard.copy()
        new.coll_discard = self.coll_discard.copy()
        new.sniper_discard = self.sniper_discard.copy()
        new.coins = self.coins.copy()
        new.queue = self.queue.copy()

    # -- small queries ----------------------------------------------------------------------
    def spawn(self, seat: int) -> int:
        return SPAWN[self.number[seat]]

    def point(self, seat: int) -> int:
        return POINT[self.number[seat]]

    def weapon(self, seat: int, slot: int) -> Weapon | None:
        """The weapon in slot 1 or 2; the printed Pistol shows while slot 2 is uncovered."""
        w = self.slots[2 * seat + slot - 1]
        if w is None and slot == 2:
            return self.pistol[seat]
        return w

    def _free(self, cell: int) -> bool:
        """No player, enemy, obstacle or collectible on the square."""
        return not (
            self.obst[cell]
            or cell in self.enemies
            or cell in self.loose
            or cell == self.pos[0]
            or cell == self.pos[1]
        )

    def _is_target(self, cell: int, opp: int) -> bool:
        e = self.enemies.get(cell)
        return cell == self.pos[opp] or self.obst[cell] or (e is not None and e.caged_by == NOBODY)

    def allowance(self) -> int:
        """Attacks allowed this turn (PA-10, PA-38)."""
        return 2 if self.two_slots else 1

    def counted_enemies(self) -> int:
        """Enemies that keep the board from being clear (permanent cages do not, PA-16)."""
        if self.options["cage"] == "permanent":
            return sum(1 for e in self.enemies.values() if e.caged_by != FOREVER)
        return len(self.enemies)

    # -- whose turn -------------------------------------------------------------------------
    @property
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (TURN, CHOICE):
            return (self.current,)
        if phase == PLACEMENT:
            return (self.placer,)
        return ()

    def _may_move(self, seat: int) -> bool:
        if seat.__class__ is not int:  # no bools or floats passing for seats
            return False
        phase = self.phase
        if phase in (TURN, CHOICE):
            return seat == self.current
        return phase == PLACEMENT and seat == self.placer

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self._legal(seat))

    def _legal(self, seat: int) -> tuple[Action, ...]:
        cache = self._cache
        if cache is not None and cache[0] == seat:
            return cache[1]
        phase = self.phase
        if phase == TURN and seat == self.current:
            acts = tuple(self._turn_actions(seat))
        elif phase == CHOICE and seat == self.current:
            acts = tuple(self._choice_actions(seat))
        elif phase == PLACEMENT and seat == self.placer:
            acts = tuple(PLACE[c] for c in self.place_cells)
        else:
            acts = ()
        self._cache = (seat, acts)
        return acts

    def _turn_actions(self, me: int) -> list[Action]:
        acts: list[Action] = []
        opp = 1 - me
        reserve = self.reserve[me]
        stage = self.stage
        if stage == 0 and self.turns > 0:  # Player 1 draws nothing on the first turn
            if self.item_deck and len(reserve) < MAX_RESERVE:
                acts.append(DRAW_ITEM)
            if self.coll_deck and not self.ambushed[me]:
                acts.append(DRAW_COLLECTIBLE)
        if stage <= 1 and reserve:
            self._item_actions(me, opp, reserve, acts)
        if self.actions > 0:
            # moves: orthogonal, never onto the rival, an enemy, an obstacle or his point
            pos = self.pos
            o = pos[opp]
            blocked = self.points_at[opp]
            own = self.points_at[me] if self.ambushed[me] else NOBODY
            obst, enemies = self.obst, self.enemies
            for n in NEIGHBOURS[pos[me]]:
                if n != o and n != blocked and n != own and not obst[n] and n not in enemies:
                    acts.append(MOVE[n])
            if self.attacks < (2 if self.two_slots else 1):
                self._attack_actions(me, opp, acts)
        acts.append(END)
        return acts

    def _item_actions(self, me: int, opp: int, reserve: list[str], acts: list[Action]) -> None:
        if self.stage == 0 and len(reserve) >= MAX_RESERVE and self.item_deck and self.turns > 0:
            # Discarding only serves to make room for a draw (PA-34).
            acts.extend(DISCARD[k] for k in ITEMS if k in reserve)
        if "obstacle" in reserve:
            acts.extend(OBSTACLE[c] for c in self.obstacle_squares())
        if "strategy" in reserve:
            acts.extend(STRATEGY[m] for m in self.strategy_moves())
        if "ambush" in reserve and not self.ambushed[opp]:
            acts.append(AMBUSH)
        if "cover" in reserve and not self.cover:
            acts.append(COVER)

    def _attack_actions(self, me: int, opp: int, acts: list[Action]) -> None:
        p = self.pos[me]
        op = self.pos[opp]
        obst, enemies = self.obst, self.enemies
        for slot in (1, 2):
            if self.fired & slot:
                continue
            w = self.slots[2 * me + slot - 1]
            if w is None:
                if slot == 1:
                    continue
                w = self.pistol[me]
            kind = w.kind
            if kind == "shotgun" or kind == "sniper":
                target = self._is_target
                shoot_dir = SHOOT_DIR[slot]
                if kind == "shotgun":
                    for d, cells in SHOTGUN[p].items():
                        if any(c >= 0 and target(c, opp) for c in self._blast(cells, w.sight)):
                            acts.append(shoot_dir[d])
                else:
                    for d, ray in RAYS[p].items():
                        if any(target(c, opp) for c in ray):
                            acts.append(shoot_dir[d])
                continue
            shoot = SHOOT_AT[slot]
            for ray in LINES[p][REACH[kind] + w.sight]:
                for c in ray:
                    if c == op:
                        acts.append(shoot[c])
                    elif obst[c]:
                        acts.append(shoot[c])
                        break  # nothing is hit past an obstacle (PA-6)
                    else:
                        e = enemies.get(c)
                        if e is not None and e.caged_by == NOBODY:
                            acts.append(shoot[c])

    def _choice_actions(self, me: int) -> list[Action]:
        kind, card = self.prompt  # type: ignore[misc]
        if kind == "weapon":
            return [REPLACE[1], REPLACE[2], DECLINE]
        if kind == "attach":
            return [ATTACH[s] for s in self._mod_slots(me, card)]
        if kind == "loot":
            return [DISCARD[k] for k in ITEMS if k in self.reserve[me]]
        if kind == "cage":
            return [CAGE[c] for c, e in self.enemies.items() if e.caged_by == NOBODY]
        if kind == "grenade":
            return list(GRENADE.values())
        return [TELEPORT[c] for c in self.teleports]

    # -- playing ----------------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> None:
        if action not in self._legal(seat):
            raise IllegalAction(seat, action, self._reason(seat, action))
        self._cache = None
        verb, args = action.verb, action.args
        if self.phase == PLACEMENT:
            self._place_enemy(seat, CELL[args[0]])  # type: ignore[index]
        elif self.phase == CHOICE:
            self._answer(seat, verb, args)
        elif verb == "move":
            self._move(seat, CELL[args[0]])  # type: ignore[index]
        elif verb == "shoot":
            self._shoot(seat, args[0], args[1])  # type: ignore[arg-type]
        elif verb == "end":
            self._emit("end", seat=seat)
            self._end_turn()
        elif verb == "draw":
            self._draw(seat, args[0])  # type: ignore[arg-type]
        elif verb == "discard":
            self.reserve[seat].remove(args[0])  # type: ignore[arg-type]
            self.item_discard.append(args[0])  # type: ignore[arg-type]
            self._emit("discard", seat=seat, card=args[0])
        else:
            self._play_item(seat, verb, args)

    def _draw(self, seat: int, deck: str) -> None:
        self.stage = 1
        if deck == "item":
            card = self.item_deck.draw(self.rng)
            self.reserve[seat].append(card)
        else:
            card = self.coll_deck.draw(self.rng)
            self.points[seat].append(card)
        self._emit("draw", seat=seat, deck=deck, card=card)

    def _play_item(self, seat: int, verb: str, args: tuple[Any, ...]) -> None:
        self.stage = 1
        self.reserve[seat].remove(verb)
        opp = 1 - seat
        if verb == "obstacle":
            self.obst[CELL[args[0]]] = True
        elif verb == "strategy":
            src, dst = CELL[args[0]], CELL[args[1]]
            if src in self.enemies:
                self.enemies[dst] = self.enemies.pop(src)
            else:
                self.obst[src], self.obst[dst] = False, True
            self.item_discard.append(verb)
        elif verb == "ambush":
            self.ambushed[opp] = True  # its card goes to the discard when it expires
        else:  # cover
            self.cover = True
            self.item_discard.append(verb)
        self._emit_lazy("item", None, partial(payload, seat=seat, card=verb, cells=args))

    # -- moving -----------------------------------------------------------------------------
    def _move(self, seat: int, cell: int) -> None:
        self.actions -= 1
        self.stage = 2
        self.pos[seat] = cell
        self._emit("move", seat=seat, to=NAMES[cell])
        if cell == self.point(seat):
            cards = self.points[seat]
            self.points[seat] = []
            self._emit_lazy("collect", None, partial(payload, seat=seat, cards=tuple(cards)))
            self.queue = sorted(cards, key=COLLECT_ORDER.__getitem__)
            self.then_teleport = True
            self._resume(seat)
            return
        loose = self.loose.pop(cell, None)
        if loose is not None:
            self._emit_lazy("collect", None, partial(payload, seat=seat, cards=(loose,)))
            self.queue = [loose]
            self.then_teleport = False
            self._resume(seat)
            return
        partner = TUNNELS.get(cell)
        if partner is not None and partner != self.pos[1 - seat]:
            self.pos[seat] = partner
            self._emit("tunnel", seat=seat, to=NAMES[partner])
        self._after_move(seat, heal=True)

    def _after_move(self, seat: int, heal: bool) -> None:
        """Heal Point, then damage from every enemy in range of the final square (PA-7)."""
        cell = self.pos[seat]
        bit = HEAL_BIT.get(cell, 0) if heal else 0
        if bit and not self.healed & bit and self.hp[seat] < MAX_HP:
            self.healed |= bit
            self.hp[seat] = min(MAX_HP, self.hp[seat] + HEAL_POINT_HP)
            self._emit("heal", seat=seat, hp=self.hp[seat], source="heal point")
        if not self.cover:
            obst = self.obst
            for ec, e in self.enemies.items():
                reach, damage = ATTACK[e.kind]
                k = ec * CELLS + cell
                if (
                    0 < DISTANCE[k] <= reach
                    and e.paralysed_by == NOBODY
                    and not any(obst[m] for m in BETWEEN[k])  # type: ignore[union-attr]
                ):
                    self.hp[seat] -= damage
                    self._emit("hurt", seat=seat, enemy=e.kind, at=NAMES[ec], damage=damage)
            if self.hp[seat] <= 0 and self._check_end():
                return
        if self.actions == 0:
            self._end_turn()

    # -- attacking --------------------------------------------------------------------------
    def _shoot(self, seat: int, slot: int, aim: str) -> None:
        w = self.weapon(seat, slot)
        assert w is not None
        self.actions -= 1
        self.attacks += 1
        self.fired |= slot
        self.stage = 2
        kind = w.kind
        stats = WEAPON_STATS[kind]
        damage = stats.damage + w.muzzle
        p = self.pos[seat]
        if kind == "shotgun":
            cells: tuple[int, ...] = tuple(
                c for c in self._blast(SHOTGUN[p][aim], w.sight) if c >= 0
            )
        elif kind == "sniper":
            cells = RAYS[p][aim]
        else:
            cells = (CELL[aim],)
        self._emit("shoot", seat=seat, weapon=kind, slot=slot, aim=aim)
        paralyse = kind == "paralysis_pistol"
        for c in cells:
            self._hit(seat, c, damage, paralyse=paralyse)
        if stats.single_use and not (paralyse and self.options["paralysis_reusable"]):
            i = 2 * seat + slot - 1
            self.slots[i] = None
            self._discard_weapon(w)
            self._emit("spent", seat=seat, weapon=kind, slot=slot)
        if self._check_end():
            return
        if self.actions == 0:
            self._end_turn()

    def _score(self, seat: int, source: str, vp: int) -> None:
        """``seat`` earns ``vp`` from ``source`` ("rival", or the kind of enemy killed)."""
        self.vp[seat] += vp
        self.vp_from[seat][source] = self.vp_from[seat].get(source, 0) + vp

    def _hit(
        self, seat: int, cell: int, damage: int, paralyse: bool = False, grenade: bool = False
    ) -> None:
        """Everything on ``cell`` takes the hit: the rival, enemies, obstacles (and yourself,
        for a grenade)."""
        opp = 1 - seat
        if cell == self.pos[opp]:
            self.hp[opp] -= damage
            self._score(seat, "rival", 1)
            self._emit("hit", seat=seat, target="rival", at=NAMES[cell], damage=damage)
            if paralyse:
                self.skip[opp] = True
        if grenade and cell == self.pos[seat]:
            self.hp[seat] -= damage
            self._emit("hit", seat=seat, target="self", at=NAMES[cell], damage=damage)
        e = self.enemies.get(cell)
        if e is not None and e.caged_by == NOBODY:
            hp = e.hp - damage
            if hp <= 0:
                del self.enemies[cell]
                gain = ENEMY_STATS[e.kind].vp
                self._score(seat, e.kind, gain)
                self._emit("kill", seat=seat, enemy=e.kind, at=NAMES[cell], vp=gain)
            else:
                self.enemies[cell] = e._replace(
                    hp=hp, paralysed_by=seat if paralyse else e.paralysed_by
                )
                self.marked += paralyse
                self._emit("hit", seat=seat, target=e.kind, at=NAMES[cell], damage=damage)
        if self.obst[cell]:
            self.obst[cell] = False
            self.item_discard.append("obstacle")
            self._emit("destroyed", seat=seat, at=NAMES[cell])

    # -- turns, rounds and the placement phase ----------------------------------------------
    def _begin_turn(self, seat: int) -> None:
        if seat == self.first:
            self.round += 1
        self._expire(seat)
        self.current = seat
        self.phase = TURN
        if self.skip[seat]:
            self.skip[seat] = False
            self._emit("skipped", seat=seat, round=self.round)
            self._close_turn(seat)
            return
        self.stage = 0
        self.actions = min(BASE_ACTIONS + self.boots[seat], BASE_ACTIONS + MAX_BOOTS)
        self.attacks = 0
        self.fired = 0
        self.two_slots = False
        self._update_slots(seat)
        self.healed = 0
        self.cover = False
        self._emit("turn", seat=seat, round=self.round)

    def _expire(self, seat: int) -> None:
        """Paralysis and cages set by ``seat`` end when its turn starts (PA-16, PA-31)."""
        if not self.marked:
            return
        for cell, e in list(self.enemies.items()):
            if e.paralysed_by == seat or e.caged_by == seat:
                self.enemies[cell] = e._replace(
                    paralysed_by=NOBODY if e.paralysed_by == seat else e.paralysed_by,
                    caged_by=NOBODY if e.caged_by == seat else e.caged_by,
                )
        self.marked = sum(
            1 for e in self.enemies.values() if e.paralysed_by != NOBODY or e.caged_by != NOBODY
        )

    def _end_turn(self) -> None:
        self.cover = False
        self._close_turn(self.current)

    def _close_turn(self, seat: int) -> None:
        if self.ambushed[seat]:  # the Ambush lasted this turn (PA-46)
            self.ambushed[seat] = False
            self.item_discard.append("ambush")
        self.turns += 1
        cap = self.options["max_turns"]
        if cap is not None and self.turns >= cap:
            self._end_capped()
        elif seat == self.first:
            self._begin_turn(1 - seat)
        else:
            self._placement()

    def _flip(self) -> str:
        fixed = self.options["coins"]
        i = len(self.coins)
        if fixed is not None and i < len(fixed):
            face = fixed[i]
        else:
            face = "heads" if self.rng.randrange(2) == 0 else "tails"
        self.coins.append(face)
        return face

    def _choose_placer(self) -> tuple[int, str]:
        """Fewest VP, then lowest HP, then a coin: heads Player 1 (PA-32)."""
        a, b = self.first, 1 - self.first
        if self.vp[a] != self.vp[b]:
            return (a if self.vp[a] < self.vp[b] else b), "fewer VP"
        if self.hp[a] != self.hp[b]:
            return (a if self.hp[a] < self.hp[b] else b), "lower HP"
        face = self._flip()
        return (a if face == "heads" else b), f"coin: {face}"

    def _placement(self) -> None:
        self.phase = PLACEMENT
        if not self.enemy_deck:
            self._end_round()
            return
        self.placer, why = self._choose_placer()
        card = self.enemy_deck.draw(self.rng)
        self._emit("placer", seat=self.placer, why=why, enemy=card)
        if card == "boss" and len(self.enemies) < BOSS_NEEDS and self.enemy_deck:
            self.enemy_deck.put_under(card)  # the bottom is public knowledge from now on
            card = self.enemy_deck.draw(self.rng)
            self._emit("deferred", enemy="boss", next=card)
        self.place_cells = tuple(self.enemy_squares(card))
        if not self.place_cells:
            self.enemy_deck.put_under(card)
            self._emit("no_room", enemy=card)
            self._end_round()
            return
        self.drawn_enemy = card

    def _place_enemy(self, seat: int, cell: int) -> None:
        kind = self.drawn_enemy
        assert kind is not None
        self.enemies[cell] = Enemy(kind, ENEMY_STATS[kind].hp)
        self.drawn_enemy = None
        self._emit("place", seat=seat, enemy=kind, at=NAMES[cell])
        self._end_round()

    def _end_round(self) -> None:
        self.placer = NOBODY
        self._medics()
        if self._check_end():
            return
        self._begin_turn(self.first)

    def _medics(self) -> None:
        """Each Medic heals every other damaged enemy in its 3x3 by 1 (PA-17)."""
        medics = [c for c, e in self.enemies.items() if e.kind == "medic"]
        if not medics:
            return
        gains: dict[int, int] = {}
        for m in medics:
            mx, my = m % SIZE, m // SIZE
            for c, e in self.enemies.items():
                near = c != m and abs(c % SIZE - mx) <= 1 and abs(c // SIZE - my) <= 1
                if near and e.hp < ENEMY_STATS[e.kind].hp:
                    gains[c] = gains.get(c, 0) + MEDIC_HEAL
        for c, gain in gains.items():
            e = self.enemies[c]
            hp = min(ENEMY_STATS[e.kind].hp, e.hp + gain)
            self.enemies[c] = e._replace(hp=hp)
            self._emit("medic", at=NAMES[c], hp=hp)

    # -- the end ------------------------------------------------------------------------------
    def _check_end(self) -> bool:
        """PA-30 and PA-40: deaths first, then 12 VP, then the cleared board."""
        hp, vp = self.hp, self.vp
        if hp[0] <= 0 or hp[1] <= 0:
            if hp[0] <= 0 and hp[1] <= 0:
                self._end_by_score("both assassins died", by_hp=False)
            else:
                survivor = 0 if hp[1] <= 0 else 1
                self._end({survivor}, f"seat {1 - survivor} died")
            return True
        for seat in (0, 1):
            if vp[seat] >= WIN_VP:
                self._end({seat}, f"seat {seat} reached {WIN_VP} VP")
                return True
        if not self.enemy_deck and not self.counted_enemies():
            self._end_by_score("every enemy was drawn and cleared", by_hp=True)
            return True
        return False

    def _end_by_score(self, why: str, by_hp: bool, capped: bool = False) -> None:
        vp, hp = self.vp, self.hp
        if vp[0] != vp[1]:
            self._end({0 if vp[0] > vp[1] else 1}, f"{why}; most VP", capped)
        elif by_hp and hp[0] != hp[1]:
            self._end({0 if hp[0] > hp[1] else 1}, f"{why}; equal VP, most HP", capped)
        else:
            self._end(set(), f"{why}; a draw", capped)

    def _end_capped(self) -> None:
        self._end_by_score(f"the turn limit ({self.turns} turns) was reached", False, True)

    def _end(self, winners: set[int], reason: str, capped: bool = False) -> None:
        self.phase = OVER
        self.prompt = None
        self._finish(
            Outcome.win_loss(
                PLAYERS,
                winners,
                reason,
                capped=capped,
                scores=(float(self.vp[0]), float(self.vp[1])),
            )
        )

    # -- explaining refusals --------------------------------------------------------------------
    def _reason(self, seat: int, action: Action) -> str:
        from .explain import reason

        return reason(self, seat, action)

    # -- what a seat may know -----------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        from .explain import view

        return view(self, seat)

    def essentials(self, seat: int) -> dict[str, Any]:
        from .explain import essentials

        return {"seat": seat, **essentials(self)}

    def _shared_view(self, seat: int | None) -> dict[str, Any]:
        # Every seat sees the same: one view per position, handed to every seat (see
        # `State.shared_view`; OpenSpiel's rl_environment asks both seats after every move).
        return self._per_position(lambda: self._view(None))

    # -- sampling what a seat cannot see ------------------------------------------------------
    def determinize(self, seat: int, rng: Rng) -> AssassinationState:
        from .belief import determinize

        return determinize(self, seat, rng)


class ProjectAssassination(Game):
    """Two assassins, a bar full of gang members, items, collectibles and one sniper rifle."""

    id = "project-assassination"
    name = "Project Assassination"
    summary = "Two rival assassins clear a 7x7 bar of gangsters: 12 VP, a kill, or the most VP."
    player_counts = (PLAYERS,)
    options = OPTIONS
    action_table = ACTIONS
    state_class = AssassinationState
