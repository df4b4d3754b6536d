"""A Project Assassination player built on the seed's advice, working from its seat's view alone.

The seed's strategy in a sentence: arm yourself (the UZIs, Boots and the Sniper lie on the
board; Collectibles wait on your rendezvous point), kill enemies for VP and shoot your rival
when you can, and never walk into an enemy's range without a reason, since that is how most
assassins die. So, at each decision:

* **shoot** when a shot is worth it: a kill (its VP), damage on an enemy, a hit on the rival
  (1 VP, a win when it kills him or brings the 12th VP); the single-use Sniper waits for a
  shot worth at least two kills' worth;
* otherwise **move** to the square whose *prospects* are best: every goal (a card on the board,
  your loaded rendezvous point, a heal point when hurt, a square from which one of your weapons
  reaches an enemy or the rival) is worth its value, discounted by the cost of the cheapest way
  there, where every square an enemy covers costs its damage (and a deadly one is a wall);
* draw a Collectible first (weapons and boots are what win), play Cover before walking into
  danger and Ambush at once; place enemies near the rival and far from yourself.

Only public board data (`intrigue.games.project_assassination.board`) and the view are used.
"""

from __future__ import annotations

import heapq
import math
from array import array
from collections.abc import Sequence
from typing import Any

from intrigue.engine import Action
from intrigue.games.project_assassination.board import (
    BETWEEN,
    CELL,
    CELLS,
    ENEMY_STATS,
    GRENADE_BLOCK,
    GRENADE_DAMAGE,
    HEAL_POINTS,
    MAX_HP,
    NAMES,
    NEIGHBOURS,
    RAYS,
    SHOTGUN,
    TUNNELS,
    WEAPON_STATS,
    WIN_VP,
    manhattan,
)
from intrigue.games.project_assassination.explain import enemy_view, player_view, prompt_view

from ..base import RandomSource
from .valuation import win_value

WIN = 1000.0  # a move that wins (or avoids losing) outweighs everything else
HP_VALUE = 0.45  # one hit point is worth about half a VP
DISCOUNT = 0.8  # a goal one step further away is worth this much less
LOG_DISCOUNT = math.log(DISCOUNT)
SHOOT_THRESHOLD = 0.4  # a shot worth less than this is not worth an action
SNIPER_THRESHOLD = 2.5
WEAPON_RANK = {"pistol": 0, "paralysis_pistol": 2, "uzi": 3, "shotgun": 3, "sniper": 4}
DISCARD_ORDER = ("obstacle", "strategy", "ambush", "cover")


class Table:
    """The board as the view shows it, with the questions the policy asks of it."""

    def __init__(self, view: dict[str, Any]) -> None:
        players = view["players"]
        self._meet(view["seat"], players)
        self.obstacles = {CELL[c] for c in view["obstacles"]}
        self.enemies = {CELL[e["cell"]]: e for e in view["enemies"]}
        self.loose = {CELL[c]: card for c, card in view["loose"].items()}
        self._board_key: tuple[tuple[Any, ...], ...] | None = None  # see `plan_key`

    @classmethod
    def from_state(cls, state: Any, seat: int) -> Table:
        """`Table(state.essentials(seat))` read from a determinization's own lists (its board
        and players are public: every seat's view shows the same), without building the view's
        lists of names: a search's rollouts ask the policy at every move."""
        table = cls.__new__(cls)
        table._meet(seat, [player_view(state, s) for s in (0, 1)])
        table.obstacles = {c for c, blocked in enumerate(state.obst) if blocked}
        table.enemies = {c: enemy_view(c, e) for c, e in sorted(state.enemies.items())}
        table.loose = dict(sorted(state.loose.items()))
        table._board_key = None
        return table

    def _meet(self, seat: int, players: list[dict[str, Any]]) -> None:
        """The seat, the players as the view shows them, and the facts read from them."""
        self.me, self.rival = seat, 1 - seat
        self.my, self.their = players[seat], players[1 - seat]
        self.pos = CELL[self.my["cell"]]
        self.rival_pos = CELL[self.their["cell"]]
        self.my_point = CELL[self.my["point"]]
        self.rival_point = CELL[self.their["point"]]
        self.hp = self.my["hp"]
        self._danger: list[int] | None = None
        self._steps: list[tuple[int, float] | None] | None = None

    # -- what hurts ---------------------------------------------------------------------------
    def clear(self, a: int, b: int) -> bool:
        between = BETWEEN[a * CELLS + b]
        return between is not None and not any(m in self.obstacles for m in between)

    def danger(self, cell: int) -> int:
        """Damage the enemies deal to a player whose move ends on ``cell`` (RULINGS PA-7)."""
        if self._danger is None:
            # Walk out from every enemy along its lines, up to its range: a square is covered
            # until the first obstacle, which is covered itself (nothing stands between).
            danger = [0] * CELLS
            for ec, e in self.enemies.items():
                if e["paralysed"]:
                    continue
                stats = ENEMY_STATS[e["kind"]]
                for ray in RAYS[ec].values():
                    for c in ray[: stats.range]:
                        danger[c] += stats.damage
                        if c in self.obstacles:
                            break
            self._danger = danger
        return self._danger[cell]

    def penalty(self, damage: int) -> float:
        if damage <= 0:
            return 0.0
        if damage >= self.hp:
            return WIN
        low = 2.0 if self.hp - damage <= 4 else 1.0
        return damage * HP_VALUE * low

    # -- weapons ------------------------------------------------------------------------------
    def weapons(self, who: dict[str, Any]) -> list[dict[str, Any]]:
        """The weapons a player can fire (the Pistol while slot 2 is uncovered)."""
        out = [w for w in who["weapons"] if w is not None]
        if who["pistol"]["usable"]:
            out.append(who["pistol"])
        return out

    def hits(self, cell: int, weapon: dict[str, Any], aim: str) -> tuple[int, ...]:
        """The squares a shot from ``cell`` hits: ``aim`` is a square or a direction."""
        kind = weapon["kind"]
        if kind == "shotgun":
            front, side1, side2, beyond = SHOTGUN[cell][aim]
            cells = [front, side1, side2]
            if weapon["sight"] and front >= 0 and front not in self.obstacles:
                cells.append(beyond)
            return tuple(c for c in cells if c >= 0)
        if kind == "sniper":
            return RAYS[cell][aim]
        return (CELL[aim],)

    def reach(self, cell: int, weapon: dict[str, Any]) -> set[int]:
        """Every square the weapon could hit from ``cell``."""
        kind = weapon["kind"]
        out: set[int] = set()
        if kind == "shotgun":
            for d in SHOTGUN[cell]:
                out.update(self.hits(cell, weapon, d))
            return out
        if kind == "sniper":
            for ray in RAYS[cell].values():
                out.update(ray)
            return out
        span = WEAPON_STATS[kind].range + weapon["sight"]
        for ray in RAYS[cell].values():
            for c in ray[:span]:
                out.add(c)
                if c in self.obstacles:
                    break
        return out

    # -- what a hit is worth ----------------------------------------------------------------
    def hit_value(self, cells: tuple[int, ...], damage: int, me_too: bool = False) -> float:
        value = 0.0
        vp = self.my["vp"]
        for c in cells:
            if c == self.rival_pos:
                vp += 1
                value += 1.0 + damage * HP_VALUE
                if damage >= self.their["hp"]:
                    value += WIN
            if me_too and c == self.pos:
                value -= self.penalty(damage) + 0.5
            e = self.enemies.get(c)
            if e is not None and not e["caged"]:
                worth = ENEMY_STATS[e["kind"]].vp
                if damage >= e["hp"]:
                    vp += worth
                    value += worth + 0.5  # a kill also clears the way
                else:
                    value += worth * damage / ENEMY_STATS[e["kind"]].hp * 0.6
            if c in self.obstacles:
                value += 0.05
        if vp >= WIN_VP > self.my["vp"]:
            value += WIN
        return value

    def target_value(self, cell: int, damage: int) -> float:
        """What standing where you can shoot ``cell`` is worth (a goal for movement)."""
        if cell == self.rival_pos:
            return 1.2 + (WIN / 10 if damage >= self.their["hp"] else 0.0)
        e = self.enemies.get(cell)
        if e is None or e["caged"]:
            return 0.0
        worth = ENEMY_STATS[e["kind"]].vp
        return worth * (1.0 if damage >= e["hp"] else 0.5)

    # -- goals and paths ----------------------------------------------------------------------
    def plan(self) -> tuple[dict[int, float], Sequence[float]]:
        """`goals` and the `potentials` of them, remembered for the board they read:
        a turn's steps and a search's rollouts meet the same board again and again, and the
        two are most of a move's cost (both are read, never changed, by their callers)."""
        key = self.plan_key()
        known = _PLANS.get(key)
        if known is None:
            goals = self.goals()
            known = (goals, array("d", self.potentials(goals)))  # a fifth of a list's memory
            if len(_PLANS) >= PLAN_MEMORY:
                _PLANS.clear()
            _PLANS[key] = known
        return known

    def plan_key(self) -> tuple[Any, ...]:
        """Everything of the view that `goals`, `steps` and `potentials` read (not
        the mover's own square: a plan is the same from every square)."""
        my, their = self.my, self.their
        return (
            self.my_point,
            self.hp,
            my["ambushed"],
            my["boots"],
            tuple(my["point_cards"]),
            tuple((w["kind"], w["muzzle"], w["sight"]) for w in my["weapons"] if w is not None),
            tuple(my["pistol"][k] for k in ("usable", "kind", "muzzle", "sight")),
            self.rival_pos,
            self.rival_point,
            their["hp"],
            *(self._board_key or self._read_board_key()),
        )

    def _read_board_key(self) -> tuple[tuple[Any, ...], ...]:
        """The board's part of `plan_key` as a view's table has it (names, in cell order)."""
        self._board_key = (
            tuple(NAMES[c] for c in sorted(self.obstacles)),
            tuple(
                (e["cell"], e["kind"], e["hp"], e["paralysed"], e["caged"])
                for e in self.enemies.values()  # in cell order, as the view lists them
            ),
            tuple((NAMES[c], card) for c, card in self.loose.items()),
        )
        return self._board_key

    def goals(self) -> dict[int, float]:
        """Squares worth reaching, with their value."""
        goals: dict[int, float] = {}

        def add(cell: int, value: float) -> None:
            if value > goals.get(cell, 0.0):
                goals[cell] = value

        collected = sum(w is not None for w in self.my["weapons"])
        for cell, card in self.loose.items():
            if card == "sniper":
                add(cell, 3.0)
            elif card == "uzi":
                add(cell, 2.5 if collected < 2 else 0.3)
            elif card == "boot":
                add(cell, 2.0 if self.my["boots"] < 2 else 0.1)
        if not self.my["ambushed"]:
            add(self.my_point, self.point_value(collected))
        if self.hp <= MAX_HP - 3:
            for cell in HEAL_POINTS:
                add(cell, (MAX_HP - self.hp) * 0.25)
        for weapon in self.weapons(self.my):
            if weapon["kind"] == "sniper":
                continue  # it waits for a shot that comes along (see SNIPER_THRESHOLD)
            damage = WEAPON_STATS[weapon["kind"]].damage + weapon["muzzle"]
            targets = [self.rival_pos, *(c for c, e in self.enemies.items() if not e["caged"])]
            for target in targets:
                value = self.target_value(target, damage)
                if value <= 0:
                    continue
                for cell in self.firing_squares(target, weapon):
                    add(cell, value)
        return goals

    def point_value(self, collected: int) -> float:
        value = 0.0
        for card in self.my["point_cards"]:
            if card in WEAPON_RANK:
                value += 2.0 if collected < 2 else 0.8
            elif card == "health_pack":
                value += min(5, MAX_HP - self.hp) * HP_VALUE
            elif card == "boot":
                value += 1.5 if self.my["boots"] < 2 else 0.0
            elif card == "grenade":
                value += 1.5
            else:
                value += 0.6
        return value

    def firing_squares(self, target: int, weapon: dict[str, Any]) -> list[int]:
        """Squares from which ``weapon`` would hit ``target`` (reach is symmetric on lines)."""
        kind = weapon["kind"]
        if kind == "shotgun":
            return list(AROUND[target])
        span = WEAPON_STATS[kind].range + weapon["sight"]
        out = []
        for ray in RAYS[target].values():
            for c in ray[:span]:
                if c in self.obstacles:
                    break
                out.append(c)
        return out

    def blocked(self, cell: int) -> bool:
        return (
            cell in self.obstacles
            or cell in self.enemies
            or cell == self.rival_pos
            or cell == self.rival_point
            or (cell == self.my_point and self.my["ambushed"])
        )

    def arrive(self, cell: int) -> int:
        """Where a step onto ``cell`` ends (tunnels; the point sends you home, PA-21/23)."""
        partner = TUNNELS.get(cell)
        if partner is not None and partner != self.rival_pos:
            return partner
        return cell

    def steps(self) -> list[tuple[int, float] | None]:
        """Per square: where a step onto it ends and the damage penalty there (None: blocked)."""
        if self._steps is None:
            self._steps = [
                None if self.blocked(n) else (to, self.penalty(self.danger(to)))
                for n in range(CELLS)
                for to in (self.arrive(n),)
            ]
        return self._steps

    def costs(self, start: int) -> list[float]:
        """Cheapest way from ``start`` to every square: 1 a step, plus the damage taken
        (``WIN`` where there is no way)."""
        best = [WIN] * CELLS
        best[start] = 0.0
        steps, point = self.steps(), self.my_point
        todo = [(0.0, start)]
        while todo:
            cost, cell = heapq.heappop(todo)
            if cost > best[cell] or cell == point:
                continue  # the point teleports you away: a goal, not a way through
            for n in NEIGHBOURS[cell]:
                hop = steps[n]
                if hop is None:
                    continue
                to, pain = hop
                step = cost + 1.0 + pain
                if step < best[to]:
                    best[to] = step
                    heapq.heappush(todo, (step, to))
        return best

    def prospects(self, cell: int, goals: dict[int, float]) -> float:
        """The best goal's value discounted by the cheapest way there (0: none reachable)."""
        costs = self.costs(cell)
        return max(
            (value * DISCOUNT ** costs[g] for g, value in goals.items() if costs[g] < WIN),
            default=0.0,
        )

    def prospects_everywhere(self, goals: dict[int, float]) -> list[float]:
        """`prospects` of every square at once (`worth` of each of the `potentials`)."""
        return [worth(p) for p in self.potentials(goals)]

    def potentials(self, goals: dict[int, float]) -> list[float]:
        """Per square, the exponent of its prospects (`worth`): one search backwards from
        all the goals.

        ``value * DISCOUNT ** cost`` is largest where ``cost + log(value) / log(DISCOUNT)`` is
        smallest, so each goal starts with that offset and the search runs the steps in
        reverse."""
        potential = [math.inf] * CELLS
        todo = []
        for g, value in goals.items():
            potential[g] = math.log(value) / LOG_DISCOUNT
            todo.append((potential[g], g))
        heapq.heapify(todo)
        landing: list[list[int]] = [[] for _ in range(CELLS)]  # squares whose step ends here
        pains = [0.0] * CELLS
        for n, hop in enumerate(self.steps()):
            if hop is not None and hop[1] < WIN:
                landing[hop[0]].append(n)
                pains[hop[0]] = hop[1]
        point = self.my_point
        while todo:
            cost, cell = heapq.heappop(todo)
            if cost > potential[cell]:
                continue
            total = cost + 1.0 + pains[cell]
            for n in landing[cell]:
                for prev in NEIGHBOURS[n]:  # a step from prev onto n (neighbours are mutual)
                    # The point sends you away: a way may end there, never pass through it.
                    if total < potential[prev] and prev != point:
                        potential[prev] = total
                        heapq.heappush(todo, (total, prev))
        return potential


# Plans (`Table.plan`) by the board they were made for; cleared when full. A plan depends on
# its key alone, so remembering one never changes a decision.
PLAN_MEMORY = 2048  # about 6 MB; a decision makes some 600 plans
_PLANS: dict[tuple[Any, ...], tuple[dict[int, float], Sequence[float]]] = {}


def worth(potential: float) -> float:
    """The prospects of a square from its potential (`Table.potentials`); rounded so that
    equal prospects reached by different sums stay equal."""
    return 0.0 if potential == math.inf else round(DISCOUNT**potential, 12)


def _dx(a: int, b: int) -> int:
    return abs(a % 7 - b % 7)


def _dy(a: int, b: int) -> int:
    return abs(a // 7 - b // 7)


# AROUND[cell]: the (up to 8) squares touching ``cell``, in cell order.
AROUND = tuple(
    tuple(c for c in range(CELLS) if c != t and max(_dx(c, t), _dy(c, t)) == 1)
    for t in range(CELLS)
)


# -- the policy -------------------------------------------------------------------------------
def choose(view: dict[str, Any], legal_actions: list[Action], rng: RandomSource) -> Action:
    """The heuristic move for the phase the view is in."""
    return _decide(Table(view), view["phase"], view["prompt"], legal_actions, rng)


def rollout_policy(state: Any, seat: int, legal: list[Action], rng: RandomSource) -> Action:
    """`choose` for ``seat`` in a determinization, reading the table from the state as the
    seat's view shows it (`Table.from_state`), which saves building the view on every move of
    a rollout."""
    phase = state.phase
    prompt = prompt_view(state) if phase == "choice" else None
    return _decide(Table.from_state(state, seat), phase, prompt, legal, rng)


def _decide(
    table: Table,
    phase: str,
    prompt: dict[str, Any] | None,
    legal: list[Action],
    rng: RandomSource,
) -> Action:
    if phase == "placement":
        return _place(table, legal)
    if phase == "choice":
        assert prompt is not None  # a choice always comes with its prompt
        return _answer(table, prompt["kind"], prompt["card"], legal)
    return _turn(table, legal, rng)


def _turn(table: Table, legal: list[Action], rng: RandomSource) -> Action:
    by_verb: dict[str, list[Action]] = {}
    for action in legal:
        by_verb.setdefault(action.verb, []).append(action)
    draws = {a.args[0]: a for a in by_verb.get("draw", [])}
    if "collectible" in draws:
        return draws["collectible"]
    if "item" in draws:
        return draws["item"]
    if "ambush" in by_verb:
        return by_verb["ambush"][0]
    shot, shot_value = _best_shot(table, by_verb.get("shoot", []))
    if shot is not None and shot_value >= SHOOT_THRESHOLD:
        return shot
    moves = by_verb.get("move", [])
    if moves:
        goals, potentials = table.plan()
        here = worth(potentials[table.pos])
        scored = []
        for move in moves:
            cell = CELL[move.args[0]]
            to = table.arrive(cell)
            damage = table.danger(to)
            score = goals.get(cell, 0.0) if cell == table.my_point else 0.0
            score += worth(potentials[to]) - table.penalty(damage)
            scored.append((score, rng.random(), move))
        score, _, move = max(scored, key=lambda s: (s[0], s[1]))
        if score > here + 0.01:
            if "cover" in by_verb and table.danger(table.arrive(CELL[move.args[0]])) > 0:
                return by_verb["cover"][0]
            return move
    return next(a for a in legal if a.verb == "end")


def _best_shot(table: Table, shots: list[Action]) -> tuple[Action | None, float]:
    best: tuple[Action | None, float] = (None, 0.0)
    for shot in shots:
        slot, aim = shot.args
        weapon = _weapon(table, slot)
        damage = WEAPON_STATS[weapon["kind"]].damage + weapon["muzzle"]
        value = table.hit_value(table.hits(table.pos, weapon, aim), damage)
        if weapon["kind"] == "sniper" and value < SNIPER_THRESHOLD:
            continue
        if weapon["kind"] == "paralysis_pistol" and aim == table.their["cell"]:
            value += 1.0  # the rival also loses his next turn
        if value > best[1]:
            best = (shot, value)
    return best


def _weapon(table: Table, slot: Any) -> dict[str, Any]:
    w = table.my["weapons"][int(slot) - 1]
    return table.my["pistol"] if w is None else w


def _answer(table: Table, kind: str, card: str | None, legal: list[Action]) -> Action:
    if kind == "weapon":
        ranks = [WEAPON_RANK[w["kind"]] for w in table.my["weapons"]]
        worst = min(range(2), key=lambda i: ranks[i])
        if card is not None and WEAPON_RANK[card] > ranks[worst]:
            return next(a for a in legal if a.verb == "replace" and a.args[0] == worst + 1)
        return next(a for a in legal if a.verb == "decline")
    if kind == "attach":
        return max(legal, key=lambda a: WEAPON_RANK[_weapon(table, a.args[0])["kind"]])
    if kind == "loot":
        cards = {a.args[0]: a for a in legal}
        return next(cards[c] for c in DISCARD_ORDER if c in cards)
    if kind == "cage":
        # a caged enemy cannot be shot: cage the one the rival is best placed to kill
        def denial(action: Action) -> float:
            cell = CELL[action.args[0]]
            e = table.enemies[cell]
            return ENEMY_STATS[e["kind"]].vp - 0.3 * manhattan(cell, table.rival_pos)

        return max(legal, key=denial)
    if kind == "grenade":

        def blast(action: Action) -> float:
            cells = GRENADE_BLOCK[CELL[action.args[0]]]
            return table.hit_value(cells, GRENADE_DAMAGE, me_too=True)

        return max(legal, key=blast)
    # teleport: the square where the enemies hurt least, nearest the goals otherwise
    return min(legal, key=lambda a: table.danger(CELL[a.args[0]]))


def _place(table: Table, legal: list[Action]) -> Action:
    """Put the enemy in the rival's way and out of yours."""

    def score(action: Action) -> float:
        cell = CELL[action.args[0]]
        return manhattan(cell, table.pos) * 0.7 - manhattan(cell, table.rival_pos)

    return max(legal, key=score)


# -- reasons, for people (the hints of a First game: intrigue.bots.advice) ---------------------
PROMPT_REASONS = {
    "replace": "the new weapon is better than the one it replaces",
    "decline": "the weapons you hold are better than the new one",
    "attach": "it goes on your best weapon",
    "loot": "it is the card you need least",
    "cage": "a caged enemy cannot be shot: this is the one your rival is best placed to kill",
    "grenade": "the blast hurts the most of what you want hurt, and not you",
    "teleport": "the enemies hurt least there",
}


def explain(view: dict[str, Any], legal: list[Action], action: Action) -> str | None:
    """Why `choose` picked ``action``, in a phrase for people (None: no clear reason)."""
    table = Table(view)
    verb = action.verb
    if view["phase"] == "placement":
        return "it puts the enemy in your rival's way and far from you"
    if view["phase"] == "choice":
        return PROMPT_REASONS.get(verb)
    if verb == "draw":
        if action.args[0] == "collectible":
            return "weapons and boots are what win, and Collectibles are where they are"
        return "an Item is worth having while nothing better is on offer"
    if verb == "ambush":
        return "an Ambush is best played at once"
    if verb == "cover":
        return "your best move ends in an enemy's range: Cover takes the damage away"
    if verb == "shoot":
        return _shot_reason(table, action)
    if verb == "move":
        return _move_reason(table, CELL[action.args[0]])
    if verb == "end":
        return "no move here is worth more than where you stand"
    return None


def _shot_reason(table: Table, action: Action) -> str:
    slot, aim = action.args
    weapon = _weapon(table, slot)
    damage = WEAPON_STATS[weapon["kind"]].damage + weapon["muzzle"]
    for cell in table.hits(table.pos, weapon, aim):
        if cell == table.rival_pos:
            if damage >= table.their["hp"]:
                return "it kills your rival"
            return "a hit on your rival is worth 1 VP"
    for cell in table.hits(table.pos, weapon, aim):
        e = table.enemies.get(cell)
        if e is not None and not e["caged"]:
            worth = ENEMY_STATS[e["kind"]].vp
            if damage >= e["hp"]:
                return f"it kills the {e['kind']}: {worth} VP"
            return f"it wounds the {e['kind']} ({worth} VP when killed)"
    return "it is the best shot you have"


def _move_reason(table: Table, cell: int) -> str:
    to = table.arrive(cell)
    safe = "" if table.danger(to) else ", out of the enemies' range"
    if cell == table.my_point:
        return "it collects the cards on your rendezvous point"
    card = table.loose.get(to)
    if card is not None:
        return f"it picks up the {card.replace('_', ' ')}{safe}"
    goals = table.goals()
    costs = table.costs(to)
    reachable = [(value * DISCOUNT ** costs[g], g) for g, value in goals.items() if costs[g] < WIN]
    if not reachable:
        return f"it is the best square within reach{safe}"
    _, goal = max(reachable)
    return f"it heads for {_goal_words(table, goal)}{safe}"


def _goal_words(table: Table, goal: int) -> str:
    if goal in table.loose:
        return f"the {table.loose[goal].replace('_', ' ')} lying on {NAMES[goal].upper()}"
    if goal == table.my_point:
        return "your rendezvous point and its cards"
    if goal in HEAL_POINTS and table.hp <= MAX_HP - 3:
        return "a heal point"
    return "a square from which you can shoot"


# -- search hooks -----------------------------------------------------------------------------
# A weapon's worth for the evaluation: what it adds to a player's firepower.
ARMS = {"pistol": 0.0, "uzi": 1.0, "shotgun": 1.2, "sniper": 1.5, "paralysis_pistol": 0.6}
# Fitted by bench/fit_values.py (heuristic self-play, epsilon 0.1, max_turns=60).
WEIGHTS = (-0.08081, 0.3939, 1.208, 0.5646, 0.06021, -0.03171, -0.005326, 0.02745, 0.3752, 0.05714)
# Measured in docs/bots.md: search settings that beat the heuristic within ~1 s a move.
SEARCH = {"depth": 16, "bias": 1.0, "epsilon": 0.1, "opponents": "policy", "margin": 0.0}


def features(state: Any, seat: int) -> list[float]:
    """What decides Project Assassination, as differences between ``seat`` and its rival.

    ``state`` is a determinization; everything read here is public in this game anyway.
    """
    rival = 1 - seat
    vp, hp = state.vp, state.hp
    turns = min(state.turns / 60.0, 1.0)
    lead = vp[seat] - vp[rival]

    def arms(p: int) -> float:
        total = 0.0
        for w in state.slots[2 * p : 2 * p + 2]:
            if w is not None:
                total += ARMS[w.kind] + 0.4 * (w.sight + w.muzzle)
        return total

    def low(p: int) -> float:
        return 1.0 if hp[p] <= 3 else 0.0

    def near(p: int) -> float:
        return 1.0 if vp[p] >= WIN_VP - 3 else 0.0

    mover = state.to_move[0] if state.to_move else -1
    return [
        lead,
        lead * turns,
        (hp[seat] - hp[rival]) / MAX_HP,
        arms(seat) - arms(rival),
        state.boots[seat] - state.boots[rival],
        low(seat) - low(rival),
        near(seat) - near(rival),
        len(state.points[seat]) - len(state.points[rival]),
        len(state.reserve[seat]) - len(state.reserve[rival]),
        0.0 if mover < 0 else (1.0 if mover == seat else -1.0),
    ]


def evaluate(state: Any) -> list[float]:
    """Both seats' chances to win from a determinization, as values in [-1, 1]."""
    value = win_value(WEIGHTS, features(state, 0))
    return [value, -value]
