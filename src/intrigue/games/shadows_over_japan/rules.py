"""Shadows over Japan: the referee (seed 004, RULINGS Part 4 and docs/games/shadows-over-japan.md).

The board is held in flat per-province lists indexed like ``data.KEYS`` (owner, developments,
samurai, normal army, occupying force, ninja owner/style/revealed, infiltration, army moved).
A game runs: a *setup* phase (each seat secretly chooses the styles of its three starting
ninjas), then rounds (one per season) of player turns in turn-marker order. A turn is the
*actions* phase (six ninja actions, gold for extra actions and army marches, mission claims),
the *spend* phase (recruit, march, buy cards, take the initiative), an optional *discard*
phase whenever the hand exceeds six territory cards, and the automatic draw and development.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from intrigue.engine import (
    MAX_TURNS,
    Action,
    ActionTable,
    Game,
    IllegalAction,
    InvalidOption,
    Option,
    Outcome,
    State,
)

from .data import (
    ARMY_ADJ,
    ASSASSINATE,
    CAPITAL_OF,
    CHAMPION_OF_LIGHT,
    COMPONENTS,
    CONQUEST,
    DUEL,
    ECONOMIC_BOOM,
    ESPIONAGE,
    HOME,
    HONOUR_DECK_SIZE,
    HONOUR_INDEX,
    HONOUR_KEYS,
    HONOURS,
    INDEX,
    INFILTRATE,
    INTELLIGENCE,
    IS_CAPITAL,
    KEYS,
    MISSION,
    NAMES,
    NINJA_ADJ,
    NOBLE_INDEX,
    NOBLE_NAMES,
    NOBLES,
    RIVAL,
    SABOTAGE,
    SCOUT,
    SHOW_OF_FORCE,
    STYLE_INDEX,
    STYLES,
    duel,
)

NP = len(KEYS)
NOBODY = -1
PUBLIC = -1  # the recipient of a card drawn face up (set-up and development)
# Entries of the chance timeline kept for determinize (belief.py), in the order they happen:
# (T_DRAW, recipient seat or PUBLIC, card), (T_SHOW, seat, card) when a hand card goes face up to
# the discard pile, (T_EPOCH, cards carried over from the old deck, cards added) for a new deck.
T_DRAW, T_SHOW, T_EPOCH = 0, 1, 2
MAX_PLAYERS = 4
HAND_LIMIT = COMPONENTS["hand_limit"]
NINJA_ACTIONS = COMPONENTS["ninja_actions"]
INTEL_PER_CAPITAL = COMPONENTS["intelligence_per_capital"]
PER_STYLE = COMPONENTS["ninjas_per_style_per_player"]

SETUP, ACTIONS, SPEND, DISCARD, OVER = "setup", "actions", "spend", "discard", "over"
SEASONS = ("summer", "winter")

# -- the action table (built once) ----------------------------------------------------------
STYLE_ACT = tuple(Action("style", s) for s in STYLES)
MOVE: dict[tuple[int, int], Action] = {}
SUB: dict[tuple[int, int], Action] = {}
SUBSWAP: dict[tuple[int, int], Action] = {}
for _p in range(NP):
    for _q in NINJA_ADJ[_p]:
        MOVE[_p, _q] = Action("move", KEYS[_p], KEYS[_q])
        SUB[_p, _q] = Action("substitute", KEYS[_p], KEYS[_q])
        SUBSWAP[_p, _q] = Action("substitute", KEYS[_p], KEYS[_q], "swap")
MARCH = {(p, q): Action("march", KEYS[p], KEYS[q]) for p in range(NP) for q in ARMY_ADJ[p]}
STEAL = {p: Action("steal", KEYS[p]) for p in range(NP) if IS_CAPITAL[p]}
SABOTAGE_ACT = tuple(Action("sabotage", k) for k in KEYS)
SEPPUKU = tuple(Action("seppuku", k) for k in KEYS)
CLAIM = tuple(Action("claim", k) for k in KEYS)
DISCARD_ACT = tuple(Action("discard", k) for k in KEYS)
RECRUIT = tuple(tuple(Action("recruit", k, s) for s in STYLES) for k in KEYS)
INITIATIVE = tuple(Action("initiative", s) for s in range(MAX_PLAYERS))
EXTRA = Action("extra")
DRAW = Action("draw")
END = Action("end")
ACTIONS_TABLE = ActionTable(
    [
        *STYLE_ACT,
        *MOVE.values(),
        *SUB.values(),
        *SUBSWAP.values(),
        *MARCH.values(),
        *STEAL.values(),
        *SABOTAGE_ACT,
        *SEPPUKU,
        *CLAIM,
        *DISCARD_ACT,
        *(a for row in RECRUIT for a in row),
        *INITIATIVE,
        EXTRA,
        DRAW,
        END,
    ]
)
# Hot-path menus: for each province, (destination, move, substitute, substitute-swap).
NINJA_STEPS = tuple(
    tuple((q, MOVE[p, q], SUB[p, q], SUBSWAP[p, q]) for q in NINJA_ADJ[p]) for p in range(NP)
)
ARMY_STEPS = tuple(tuple((q, MARCH[p, q]) for q in ARMY_ADJ[p]) for p in range(NP))
NINJA_ADJ_SETS = tuple(frozenset(adj) for adj in NINJA_ADJ)
ARMY_ADJ_SETS = tuple(frozenset(adj) for adj in ARMY_ADJ)


# -- options --------------------------------------------------------------------------------
def _check_nobles(value: list[str]) -> None:
    if len(set(value)) != len(value):
        raise InvalidOption("option nobles: give each seat a different noble")


def _check_unique(name: str) -> Any:
    def check(value: list[str]) -> None:
        if len(set(value)) != len(value):
            raise InvalidOption(f"option {name}: no repeats allowed")

    return check


def _check_deck(value: list[str]) -> None:
    _check_unique("deck")(value)
    capitals = [k for k in value if IS_CAPITAL[INDEX[k]]]
    if capitals:
        raise InvalidOption(f"option deck: capitals start in the discard pile ({capitals[0]})")


def _check_reshuffles(value: list[str]) -> None:
    for order in value:
        unknown = [k for k in order.split(".") if k and k not in INDEX]
        if unknown:
            raise InvalidOption(f"option reshuffles: {unknown[0][:40]!r} is no province key")


OPTIONS = (
    MAX_TURNS,
    Option(
        "nobles",
        list,
        None,
        "Fix each seat's Noble card, in seat order (default: dealt at random).",
        choices=NOBLES,
        check=_check_nobles,
        fixes="the secret Nobles",
    ),
    Option(
        "markers",
        list,
        None,
        "Fix each seat's turn marker, in seat order: a permutation of 1..players "
        "(default: dealt at random).",
        fixes="the turn markers",
    ),
    Option(
        "deck",
        list,
        None,
        "Fix the top of the territory deck (province keys, capitals excluded); the rest is "
        "shuffled below it. Set-up deals 12 single developments, 4 doubles, 3 ninja "
        "provinces per seat, then 3 hand cards per seat, in that order.",
        choices=KEYS,
        check=_check_deck,
        fixes="the top of the territory deck",
    ),
    Option(
        "honours",
        list,
        None,
        "Fix the first Honour cards in reveal order (the rest are drawn at random).",
        choices=HONOUR_KEYS,
        check=_check_unique("honours"),
        fixes="the Honour cards",
    ),
    Option(
        "samurai",
        list,
        None,
        "Fix the styles of the first samurai drawn from the supply (then random).",
        choices=STYLES,
        fixes="the samurai drawn",
    ),
    Option(
        "reshuffles",
        list,
        None,
        "Fix the order of each reshuffled deck, in reshuffle order: each item is the new deck "
        "top first, province keys joined by '.' (then random). Used by determinize.",
        check=_check_reshuffles,
        fixes="the reshuffled decks",
    ),
    Option(
        "honour_ties",
        list,
        None,
        "Fix the Nobles that win honours tied after every tie-break, in order (then random).",
        choices=NOBLES,
        fixes="who wins tied honours",
    ),
    Option(
        "interaction_cost",
        str,
        "single",
        "SJ-6: a move with a fight and/or an infiltration costs one extra action (single) or "
        "one per interaction (per_interaction).",
        choices=("single", "per_interaction"),
    ),
    Option(
        "missions",
        str,
        "standard",
        "standard: a card's mission is against its own Noble; rival: against that Noble's "
        "rival (Oda-Takeda, Tokugawa-Date), the seed's proposed 'Rival' system (SJ-36).",
        choices=("standard", "rival"),
    ),
    Option(
        "neutral",
        str,
        "hidden",
        "hidden: unbacked Nobles are secret (RULINGS). open: the seed's 3-player rebalancing "
        "as proposed in SJ-37: unbacked Nobles are announced and their provinces never develop.",
        choices=("hidden", "open"),
    ),
)


class Tallies(NamedTuple):
    """Each Noble's counts of the map, indexed by Noble (`JapanState.tallies`)."""

    economy: list[int]  # developments in the provinces it owns
    samurai: list[int]  # samurai in them
    provinces: list[int]  # provinces it owns
    conquered: list[int]  # provinces of other Nobles it owns
    lost: list[int]  # its home provinces another Noble owns
    shame: list[int]  # those lost, a capital counting 3 (SJ-22)


class JapanState(State):
    """One game of Shadows over Japan."""

    def __init__(self, game: Game, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(game, players, seed, options)
        self.per_interaction = options["interaction_cost"] == "per_interaction"
        self.rival = options["missions"] == "rival"
        self.open_neutral = options["neutral"] == "open"
        # board
        self.owner = list(HOME)
        self.dev = [0] * NP
        self.sam = [NOBODY] * NP
        self.army = [NOBODY] * NP
        self.occ = [NOBODY] * NP
        self.nin = [NOBODY] * NP
        self.nsty = [0] * NP
        self.nrev = [False] * NP
        self.infil = [False] * NP
        self.moved = [False] * NP
        # supplies
        self.dev_supply = [COMPONENTS["developments_per_noble"]] * 4
        self.army_supply = [COMPONENTS["armies_per_noble"]] * 4
        self.sam_supply = [COMPONENTS["samurai_per_style"]] * 3
        self.sam_queue: list[int] = [STYLE_INDEX[s] for s in options["samurai"] or ()]
        self.gold_supply = COMPONENTS["gold"]
        self.intel_cap = [INTEL_PER_CAPITAL] * 4
        # cards (decks are stacks: the top card is the last item)
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.honour_deck: list[int] = []
        self.honour_up = NOBODY
        self.honour_log: list[tuple[int, int]] = []  # (honour, noble or NOBODY if buried)
        self.honours_won = [0] * 4
        # players
        self.nobles: tuple[int, ...] = ()
        self.markers = list(range(1, players + 1))
        self.gold = [0] * players
        self.hand: list[list[int]] = [[] for _ in range(players)]
        self.intel_hand: list[list[str]] = [[] for _ in range(players)]
        self.ninjas: list[list[int]] = [[] for _ in range(players)]
        self.pool: list[list[int]] = [[0, 0, 0] for _ in range(players)]  # style counts
        self.not_noble = [0] * players  # public bitmask: Nobles a seat's claims rule out
        # The chance record kept for determinize (belief.py): the card timeline (see T_DRAW),
        # the samurai styles drawn and the Nobles that won random Honour ties.
        self.timeline: list[tuple[int, int, Any]] = []
        self._belief_cache: Any = None  # belief.py's analysis of this step (never copied)
        self.sam_drawn: list[int] = []
        self.tie_results: list[int] = []
        self.shuffle_queue: list[list[int]] = [
            [INDEX[k] for k in order.split(".") if k] for order in options["reshuffles"] or ()
        ]
        self.tie_queue: list[int] = [NOBLE_INDEX[k] for k in options["honour_ties"] or ()]
        self.initial_markers: tuple[int, ...] = ()
        # turn structure
        self.phase = SETUP
        self.round = 0
        self.order: tuple[int, ...] = ()
        self.turn_i = 0
        self.current = 0
        self.actions_left = 0
        self.claimable: tuple[int, ...] = ()
        self.last_hits: tuple[tuple[int, int], ...] = ()
        self.after_discard = SPEND
        self.setup_cards: list[list[int]] = [[] for _ in range(players)]
        self.setup_seat = 0
        self.final: dict[str, Any] | None = None

    # ==========================================================================================
    # set-up
    # ==========================================================================================
    def _start(self) -> None:
        opts = self.options
        players = self.players
        self._check_player_options()
        # Board set-up 1: capitals start in the discard pile with 2 developments, a samurai and
        # an army of their Noble.
        for noble, cap in enumerate(CAPITAL_OF):
            self.discard.append(cap)
            self.dev[cap] = 2
            self.dev_supply[noble] -= 2
            self.sam[cap] = self._draw_samurai()
            self.army[cap] = noble
            self.army_supply[noble] -= 1
        deck = [p for p in range(NP) if not IS_CAPITAL[p]]
        fixed = [INDEX[k] for k in opts["deck"] or ()]
        rest = [p for p in deck if p not in fixed]
        self.rng.shuffle(rest)
        self._new_epoch(fixed + rest, 0, tuple(deck))
        # 2: twelve single developments; 3: four doubles with a samurai.
        for _ in range(COMPONENTS["setup_single_developments"]):
            p = self._draw_card(PUBLIC)
            self.dev[p] += 1
            self.dev_supply[HOME[p]] -= 1
            self.discard.append(p)
        for _ in range(COMPONENTS["setup_double_developments"]):
            p = self._draw_card(PUBLIC)
            self.dev[p] += 2
            self.dev_supply[HOME[p]] -= 2
            self.sam[p] = self._draw_samurai()
            self.discard.append(p)
        # 4: Intelligence at the capitals (intel_cap); 5: the Honour deck.
        fixed_h = [HONOUR_INDEX[k] for k in opts["honours"] or ()]
        rest_h = [h for h in range(len(HONOURS)) if h not in fixed_h]
        self.rng.shuffle(rest_h)
        self.honour_deck = (fixed_h + rest_h)[: HONOUR_DECK_SIZE[players]][::-1]
        # Player set-up: Noble cards, three ninja provinces each, turn markers.
        if opts["nobles"] is not None:
            self.nobles = tuple(NOBLE_INDEX[k] for k in opts["nobles"])
        else:
            nobles = list(range(4))
            self.rng.shuffle(nobles)
            self.nobles = tuple(nobles[:players])
        for seat in range(players):
            self.pool[seat] = [PER_STYLE] * 3
            self.setup_cards[seat] = [
                self._draw_card(PUBLIC) for _ in range(COMPONENTS["setup_ninjas"])
            ]
        if opts["markers"] is not None:
            self.markers = [int(m) for m in opts["markers"]]
        else:
            self.rng.shuffle(self.markers)
        self.initial_markers = tuple(self.markers)
        self._emit(
            "setup",
            None,
            players=players,
            honour_deck=len(self.honour_deck),
            markers=list(self.markers),
            ninja_provinces=[[KEYS[p] for p in cards] for cards in self.setup_cards],
        )
        for seat in range(players):
            self._emit("noble", (seat,), noble=NOBLES[self.nobles[seat]])
        if self.open_neutral:
            self._emit("neutral", None, nobles=[NOBLES[n] for n in self._unbacked()])
        self.phase = SETUP
        self.setup_seat = 0
        self.current = 0

    def _check_player_options(self) -> None:
        opts, players = self.options, self.players
        if opts["nobles"] is not None and len(opts["nobles"]) != players:
            raise InvalidOption(f"option nobles: give {players} nobles, one per seat")
        if opts["markers"] is not None and sorted(opts["markers"]) != [
            str(m) for m in range(1, players + 1)
        ]:
            raise InvalidOption(f"option markers: give the markers 1..{players} once each")

    def _unbacked(self) -> list[int]:
        return [n for n in range(4) if n not in self.nobles]

    def _new_epoch(self, order: list[int], carried: int, added: tuple[int, ...]) -> None:
        """Start a new deck, ``order`` listing it top card first: ``carried`` cards of the old
        deck (Champion of Light) and the ``added`` cards from the discard pile (or the box)."""
        self.timeline.append((T_EPOCH, carried, added))
        self.deck = order[::-1]

    def _draw_samurai(self) -> int:
        """A random samurai from the supply (or the option's fixed queue); NOBODY if empty."""
        supply = self.sam_supply
        total = supply[0] + supply[1] + supply[2]
        if not total:
            return NOBODY
        style = self.sam_queue.pop(0) if self.sam_queue else NOBODY
        if style < 0 or not supply[style]:
            r = self.rng.randrange(total)
            style = 0 if r < supply[0] else 1 if r < supply[0] + supply[1] else 2
        supply[style] -= 1
        self.sam_drawn.append(style)
        return style

    def _finish_setup(self) -> None:
        for seat in range(self.players):
            self.discard.extend(self.setup_cards[seat])
        for seat in range(self.players):
            self.hand[seat] = [self._draw_card(seat) for _ in range(COMPONENTS["setup_hand"])]
            self._emit("hand", (seat,), cards=[KEYS[p] for p in self.hand[seat]])
        # All samurai are revealed before play (SJ-13).
        self._emit(
            "samurai_revealed",
            None,
            samurai={KEYS[p]: STYLES[s] for p, s in enumerate(self.sam) if s >= 0},
        )
        self.round = 0
        self._start_round()

    # ==========================================================================================
    # whose turn
    # ==========================================================================================
    @property
    def to_move(self) -> tuple[int, ...]:
        if self.phase == OVER:
            return ()
        return (self.current,)

    def _may_move(self, seat: int) -> bool:
        return seat == self.current and self.phase != OVER

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current:
            return []
        phase = self.phase
        if phase == ACTIONS:
            return self._action_menu(seat)
        if phase == SPEND:
            return self._spend_menu(seat)
        if phase == DISCARD:
            return [DISCARD_ACT[c] for c in self.hand[seat]]
        if phase == SETUP:
            counts = self.pool[seat]
            return [STYLE_ACT[s] for s in range(3) if counts[s]]
        return []

    def _action_menu(self, seat: int) -> list[Action]:
        acts = [CLAIM[c] for c in self.claimable]
        left = self.actions_left
        nin, army, sam, dev, nrev = self.nin, self.army, self.sam, self.dev, self.nrev
        if left > 0:
            per = self.per_interaction
            for p in self.ninjas[seat]:
                rev = nrev[p]
                for q, mv, sb, sbs in NINJA_STEPS[p]:
                    o = nin[q]
                    if o == seat:
                        acts.append(sb)
                        acts.append(sbs)
                        continue
                    hosted = army[q] >= 0
                    if hosted and rev:
                        continue
                    if per:
                        cost = 1 + hosted + (sam[q] >= 0) + (o >= 0)
                    else:
                        cost = 2 if hosted or o >= 0 or sam[q] >= 0 else 1
                    if cost <= left:
                        acts.append(mv)
                if dev[p] and sam[p] < 0 and army[p] < 0:
                    acts.append(SABOTAGE_ACT[p])
                if (
                    IS_CAPITAL[p]
                    and not rev
                    and sam[p] < 0
                    and army[p] < 0
                    and self.intel_cap[HOME[p]]
                ):
                    acts.append(STEAL[p])
                acts.append(SEPPUKU[p])
        if self.gold[seat]:
            acts.append(EXTRA)
            self._march_menu(seat, acts)
        acts.append(END)
        return acts

    def _march_menu(self, seat: int, acts: list[Action]) -> None:
        army, occ, infil, moved = self.army, self.occ, self.infil, self.moved
        for p in self.ninjas[seat]:
            n = army[p]
            if n >= 0 and infil[p] and not moved[p]:
                for q, act in ARMY_STEPS[p]:
                    if army[q] < 0 and occ[q] != n:
                        acts.append(act)

    def _spend_menu(self, seat: int) -> list[Action]:
        acts = [CLAIM[c] for c in self.claimable]
        if self.gold[seat]:
            counts = self.pool[seat]
            if counts[0] or counts[1] or counts[2]:
                nin = self.nin
                for c in self.hand[seat]:
                    if nin[c] < 0:
                        acts.extend(RECRUIT[c][s] for s in range(3) if counts[s])
            self._march_menu(seat, acts)
            if self.deck or self.discard:
                acts.append(DRAW)
            mine = self.markers[seat]
            acts.extend(INITIATIVE[o] for o in range(self.players) if self.markers[o] < mine)
        acts.append(END)
        return acts

    # ==========================================================================================
    # playing
    # ==========================================================================================
    def _apply(self, seat: int, action: Action) -> None:
        verb = action.verb
        phase = self.phase
        if phase == ACTIONS:
            handler = self._ACTION_VERBS.get(verb)
        elif phase == SPEND:
            handler = self._SPEND_VERBS.get(verb)
        elif phase == DISCARD:
            handler = JapanState._discard if verb == "discard" else None
        else:
            handler = JapanState._choose_style if verb == "style" else None
        if handler is None:
            raise IllegalAction(seat, action, f"not possible now: {self.prompt()}")
        handler(self, seat, action)

    def _fail(self, seat: int, action: Action, reason: str) -> IllegalAction:
        return IllegalAction(seat, action, reason)

    # -- set-up choices ---------------------------------------------------------------------
    def _choose_style(self, seat: int, action: Action) -> None:
        style = STYLE_INDEX[action.args[0]]  # type: ignore[index]
        if not self.pool[seat][style]:
            raise self._fail(seat, action, f"you have no {STYLES[style]} ninja left")
        self.pool[seat][style] -= 1
        cards = self.setup_cards[seat]
        p = cards[sum(1 for c in cards if self.nin[c] == seat)]
        self._place_ninja(seat, p, style)
        self._emit("placed", None, seat=seat, at=KEYS[p])
        self._emit("placed_style", (seat,), at=KEYS[p], style=STYLES[style])
        if all(self.nin[c] == seat for c in cards):
            self.setup_seat += 1
            if self.setup_seat == self.players:
                self._finish_setup()
            else:
                self.current = self.setup_seat

    def _place_ninja(self, seat: int, p: int, style: int, revealed: bool = False) -> None:
        self.nin[p] = seat
        self.nsty[p] = style
        self.nrev[p] = revealed
        self.infil[p] = False
        self.ninjas[seat].append(p)

    def _lift_ninja(self, p: int) -> None:
        """Take the ninja off province p (it is about to be placed elsewhere or killed)."""
        self.ninjas[self.nin[p]].remove(p)
        self.nin[p] = NOBODY
        self.infil[p] = False

    def _kill_ninja(self, p: int) -> None:
        seat, style = self.nin[p], self.nsty[p]
        self._lift_ninja(p)
        self.pool[seat][style] += 1

    # -- moves and fights -------------------------------------------------------------------
    def _move_error(self, seat: int, p: int, q: int) -> str | None:
        if self.nin[p] != seat:
            return f"you have no ninja in {NAMES[p]}"
        if q not in NINJA_ADJ_SETS[p]:
            return f"{NAMES[q]} is neither next to {NAMES[p]} by land nor across one water region"
        if self.nin[q] == seat:
            return f"your own ninja stands in {NAMES[q]}: ninjas never stack (use substitute)"
        hosted = self.army[q] >= 0
        if hosted and self.nrev[p]:
            return "a revealed ninja cannot infiltrate the army there"
        cost = self._move_cost(q)
        if cost > self.actions_left:
            return f"this move costs {cost} actions and you have {self.actions_left} left"
        return None

    def _move_cost(self, q: int) -> int:
        hosted, sam, enemy = self.army[q] >= 0, self.sam[q] >= 0, self.nin[q] >= 0
        if self.per_interaction:
            return 1 + hosted + sam + enemy
        return 2 if hosted or sam or enemy else 1

    def _act_move(self, seat: int, action: Action) -> None:
        p, q = INDEX[action.args[0]], INDEX[action.args[1]]  # type: ignore[index]
        error = self._move_error(seat, p, q)
        if error:
            raise self._fail(seat, action, error)
        self.actions_left -= self._move_cost(q)
        style, was_infil = self.nsty[p], self.infil[p]
        if self.sam[q] >= 0 or self.nin[q] >= 0:
            self.nrev[p] = True
        revealed = self.nrev[p]
        self._lift_ninja(p)
        hits: list[tuple[int, int]] = []
        fights: list[dict[str, Any]] = []
        result = self._fights(seat, q, style, hits, fights)
        infiltrated = None
        if result == "lost":
            self.pool[seat][style] += 1
        elif result == "tie":
            # Bounced back: the ninja keeps its former place, infiltration included (SJ-31).
            self._place_ninja(seat, p, style, revealed)
            self.infil[p] = was_infil
        else:
            self._place_ninja(seat, q, style, revealed)
            if self.army[q] >= 0:
                self.infil[q] = True
                infiltrated = NOBLES[self.army[q]]
                hits.append((INFILTRATE, self.army[q]))
            hits.append((SCOUT, q))
        self._emit(
            "move",
            None,
            seat=seat,
            frm=KEYS[p],
            to=KEYS[q],
            fights=fights,
            result=result,
            infiltrated=infiltrated,
        )
        self._after_action(seat, hits)

    def _fights(
        self,
        seat: int,
        q: int,
        style: int,
        hits: list[tuple[int, int]],
        fights: list[dict[str, Any]],
    ) -> str:
        """Resolve the fights in q (samurai first, SJ-7): "moved", "won", "lost" or "tie"."""
        result = "moved"
        other = self.sam[q]
        if other >= 0:
            result = duel(style, other)
            fights.append(
                {
                    "against": "samurai",
                    "enemy": None,
                    "style": STYLES[style],
                    "enemy_style": STYLES[other],
                    "result": result,
                }
            )
            if result != "won":
                return result
            self.sam[q] = NOBODY
            self.sam_supply[other] += 1
            hits.append((DUEL, self.owner[q]))
        enemy = self.nin[q]
        if enemy >= 0:
            self.nrev[q] = True
            other = self.nsty[q]
            result = duel(style, other)
            fights.append(
                {
                    "against": "ninja",
                    "enemy": enemy,
                    "style": STYLES[style],
                    "enemy_style": STYLES[other],
                    "result": result,
                }
            )
            if result != "won":
                return result
            self._kill_ninja(q)
            hits.append((ASSASSINATE, self.owner[q]))
        return result

    def _act_substitute(self, seat: int, action: Action) -> None:
        p, q = INDEX[action.args[0]], INDEX[action.args[1]]  # type: ignore[index]
        if self.nin[p] != seat or self.nin[q] != seat:
            raise self._fail(seat, action, "substitution needs your own ninjas in both provinces")
        if q not in NINJA_ADJ_SETS[p]:
            raise self._fail(seat, action, f"{NAMES[q]} is not one move from {NAMES[p]}")
        if self.actions_left < 1:
            raise self._fail(seat, action, "you have no action left")
        self.actions_left -= 1
        self.nrev[p] = self.nrev[q] = False
        swapped = len(action.args) == 3
        if swapped:
            self.nsty[p], self.nsty[q] = self.nsty[q], self.nsty[p]
        self._emit("substituted", None, seat=seat, frm=KEYS[p], to=KEYS[q])
        self._emit("substitution", (seat,), frm=KEYS[p], to=KEYS[q], swapped=swapped)
        self._after_action(seat, [])

    def _act_steal(self, seat: int, action: Action) -> None:
        p = INDEX[action.args[0]]  # type: ignore[index]
        noble = HOME[p]
        if self.nin[p] != seat:
            raise self._fail(seat, action, f"you have no ninja in {NAMES[p]}")
        if self.nrev[p]:
            raise self._fail(seat, action, "a revealed ninja cannot steal Intelligence")
        if self.sam[p] >= 0 or self.army[p] >= 0:
            raise self._fail(seat, action, f"{NAMES[p]} is defended (samurai or army)")
        if not self.intel_cap[noble]:
            raise self._fail(seat, action, f"no Intelligence is left in {NAMES[p]}")
        if self.actions_left < 1:
            raise self._fail(seat, action, "you have no action left")
        self.actions_left -= 1
        card = INTELLIGENCE[noble][INTEL_PER_CAPITAL - self.intel_cap[noble]]
        self.intel_cap[noble] -= 1
        self.intel_hand[seat].append(card)
        self.nrev[p] = True
        self._emit("stole", None, seat=seat, at=KEYS[p], card=card, style=STYLES[self.nsty[p]])
        self._after_action(seat, [(ESPIONAGE, noble)])

    def _act_sabotage(self, seat: int, action: Action) -> None:
        p = INDEX[action.args[0]]  # type: ignore[index]
        if self.nin[p] != seat:
            raise self._fail(seat, action, f"you have no ninja in {NAMES[p]}")
        if not self.dev[p]:
            raise self._fail(seat, action, f"{NAMES[p]} has no development")
        if self.sam[p] >= 0 or self.army[p] >= 0:
            raise self._fail(seat, action, f"{NAMES[p]} is defended (samurai or army)")
        if self.actions_left < 1:
            raise self._fail(seat, action, "you have no action left")
        self.actions_left -= 1
        self.dev[p] -= 1
        self.dev_supply[self.owner[p]] += 1
        self._emit("sabotaged", None, seat=seat, at=KEYS[p])
        self._after_action(seat, [(SABOTAGE, self.owner[p])])

    def _act_seppuku(self, seat: int, action: Action) -> None:
        p = INDEX[action.args[0]]  # type: ignore[index]
        if self.nin[p] != seat:
            raise self._fail(seat, action, f"you have no ninja in {NAMES[p]}")
        if self.actions_left < 1:
            raise self._fail(seat, action, "you have no action left")
        self.actions_left -= 1
        self._kill_ninja(p)
        self._emit("seppuku", None, seat=seat, at=KEYS[p])
        self._after_action(seat, [])

    def _act_extra(self, seat: int, action: Action) -> None:
        self._pay(seat, action)
        self.actions_left += 1
        self._emit("extra_action", None, seat=seat)
        self.claimable = ()

    def _pay(self, seat: int, action: Action) -> None:
        if not self.gold[seat]:
            raise self._fail(seat, action, "this costs 1 gold and you have none")
        self.gold[seat] -= 1
        self.gold_supply += 1

    # -- armies -----------------------------------------------------------------------------
    def _march_error(self, seat: int, p: int, q: int) -> str | None:
        n = self.army[p]
        if self.nin[p] != seat or n < 0 or not self.infil[p]:
            return f"you infiltrate no army in {NAMES[p]}"
        if self.moved[p]:
            return "that army has already moved this season"
        if q not in ARMY_ADJ_SETS[p]:
            return f"an army cannot reach {NAMES[q]} from {NAMES[p]} (land or a strait only)"
        if self.army[q] >= 0:
            return f"an army already stands in {NAMES[q]}"
        if self.occ[q] == n:
            return f"{NAMES[q]} is already occupied by {NOBLE_NAMES[n]}"
        if not self.gold[seat]:
            return "marching costs 1 gold and you have none"
        return None

    def _act_march(self, seat: int, action: Action) -> None:
        p, q = INDEX[action.args[0]], INDEX[action.args[1]]  # type: ignore[index]
        error = self._march_error(seat, p, q)
        if error:
            raise self._fail(seat, action, error)
        self._pay(seat, action)
        n = self.army[p]
        style, revealed = self.nsty[p], self.nrev[p]
        self.army[p] = NOBODY
        self.moved[p] = False
        self._lift_ninja(p)
        killed = []
        if self.nin[q] >= 0:
            shown = STYLES[self.nsty[q]] if self.nrev[q] else None
            killed.append({"seat": self.nin[q], "style": shown})
            self._kill_ninja(q)
        occupied = self.occ[q] >= 0
        if self.sam[q] >= 0 and (occupied or self.owner[q] != n):
            killed.append({"samurai": STYLES[self.sam[q]]})
            self.sam_supply[self.sam[q]] += 1
            self.sam[q] = NOBODY
        hits: list[tuple[int, int]] = []
        before = self.owner[q]
        if occupied and HOME[q] == n:
            outcome = "liberated"
            self.army_supply[self.occ[q]] += 1
            self.occ[q] = NOBODY
            self._clear_developments(q)
            self.owner[q] = n
        elif occupied or before != n:
            outcome = "occupied"
            if occupied:
                self.army_supply[self.occ[q]] += 1
            self._clear_developments(q)
            self.owner[q] = n
            self.occ[q] = n
            hits.append((CONQUEST, before))
        else:
            outcome = "moved"
        self._place_ninja(seat, q, style, revealed)
        if outcome != "occupied":
            self.army[q] = n
            self.moved[q] = True
            self.infil[q] = True
        self._emit(
            "marched",
            None,
            seat=seat,
            army=NOBLES[n],
            frm=KEYS[p],
            to=KEYS[q],
            result=outcome,
            killed=killed,
        )
        self._after_action(seat, hits)

    def _clear_developments(self, q: int) -> None:
        self.dev_supply[self.owner[q]] += self.dev[q]
        self.dev[q] = 0

    # -- missions ---------------------------------------------------------------------------
    def _after_action(self, seat: int, hits: list[tuple[int, int]]) -> None:
        """Open the claim window for the missions this action completed (SJ-28)."""
        self.last_hits = tuple(hits)
        self.claimable = self._matches(seat, self.last_hits) if hits else ()

    def _matches(self, seat: int, hits: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
        own = self.nobles[seat]
        rival = self.rival
        found = []
        for c in self.hand[seat]:
            target = RIVAL[HOME[c]] if rival else HOME[c]
            if target == own:
                continue  # never against your own Noble; refused silently (SJ-28)
            kind = MISSION[c]
            want = c if kind == SCOUT else target
            for hit_kind, subject in hits:
                if hit_kind == kind and subject == want:
                    found.append(c)
                    break
        return tuple(found)

    def mission_target(self, card: int) -> int:
        """The Noble a card's mission counts against (its sticker, or the rival's)."""
        return RIVAL[HOME[card]] if self.rival else HOME[card]

    def _act_claim(self, seat: int, action: Action) -> None:
        c = INDEX[action.args[0]]  # type: ignore[index]
        if c not in self.claimable:
            raise self._fail(
                seat, action, f"your last action completed no claimable mission on {NAMES[c]}"
            )
        self.claimable = ()
        self._discard_from_hand(seat, c)
        paid = 1 if self.gold_supply else 0
        self.gold_supply -= paid
        self.gold[seat] += paid
        self.not_noble[seat] |= 1 << self.mission_target(c)
        self._emit("claimed", None, seat=seat, card=KEYS[c], gold=paid)

    # -- the end of the action step ---------------------------------------------------------
    def _act_end(self, seat: int, action: Action) -> None:
        self.claimable = ()
        if self.phase == ACTIONS:
            self._end_actions()
        else:
            self._end_spending()

    def _end_actions(self) -> None:
        self.actions_left = 0
        last = self.turn_i == len(self.order) - 1
        if last and self.round % 2 == 1 and self.honour_up >= 0:
            self._award_honour()
            if not self.honour_deck:
                self._end_game(capped=False)
                return
        self.phase = SPEND
        self._emit("spend", None, seat=self.current)

    # -- spending ---------------------------------------------------------------------------
    def _act_recruit(self, seat: int, action: Action) -> None:
        c, style = INDEX[action.args[0]], STYLE_INDEX[action.args[1]]  # type: ignore[index]
        if c not in self.hand[seat]:
            raise self._fail(seat, action, f"you hold no {NAMES[c]} card")
        if self.nin[c] >= 0:
            raise self._fail(seat, action, f"a ninja already stands in {NAMES[c]}")
        if not self.pool[seat][style]:
            raise self._fail(seat, action, f"you have no {STYLES[style]} ninja to recruit")
        self._pay(seat, action)
        self.claimable = ()
        self._discard_from_hand(seat, c)
        self.pool[seat][style] -= 1
        self._place_ninja(seat, c, style)
        self._emit("recruited", None, seat=seat, at=KEYS[c])
        self._emit("recruited_style", (seat,), at=KEYS[c], style=STYLES[style])

    def _act_draw(self, seat: int, action: Action) -> None:
        if not (self.deck or self.discard):
            raise self._fail(seat, action, "the deck and the discard pile are empty")
        self._pay(seat, action)
        self.claimable = ()
        self._draw_into_hand(seat, 3)
        if len(self.hand[seat]) > HAND_LIMIT:
            self.after_discard = SPEND
            self.phase = DISCARD

    def _act_initiative(self, seat: int, action: Action) -> None:
        other = action.args[0]
        if not isinstance(other, int) or not 0 <= other < self.players:
            raise self._fail(seat, action, f"there is no seat {other}")
        if self.markers[other] >= self.markers[seat]:
            raise self._fail(seat, action, "you may only take a lower turn marker")
        self._pay(seat, action)
        self.claimable = ()
        m = self.markers
        m[seat], m[other] = m[other], m[seat]
        self._emit("initiative", None, seat=seat, other=other, markers=list(m))

    def _end_spending(self) -> None:
        seat = self.current
        self._draw_into_hand(seat, 1)
        if len(self.hand[seat]) > HAND_LIMIT:
            self.after_discard = "develop"
            self.phase = DISCARD
        else:
            self._develop_step()

    def _discard(self, seat: int, action: Action) -> None:
        c = INDEX[action.args[0]]  # type: ignore[index]
        if c not in self.hand[seat]:
            raise self._fail(seat, action, f"you hold no {NAMES[c]} card")
        self._discard_from_hand(seat, c)
        self._emit("discarded", None, seat=seat, card=KEYS[c])
        if len(self.hand[seat]) <= HAND_LIMIT:
            if self.after_discard == SPEND:
                self.phase = SPEND
            else:
                self._develop_step()

    # -- cards ------------------------------------------------------------------------------
    def _draw_card(self, recipient: int) -> int:
        """The top territory card (reshuffling the discard pile if needed); NOBODY if none.

        ``recipient`` is the seat taking it into a secret hand, or PUBLIC.
        """
        if not self.deck:
            if not self.discard:
                return NOBODY
            cards = self.discard
            self.discard = []
            self._shuffle_into_deck(cards, 0)
        c = self.deck.pop()
        self.timeline.append((T_DRAW, recipient, c))
        return c

    def _shuffle_into_deck(self, cards: list[int], carried: int) -> None:
        """Shuffle ``cards``: the deck's ``carried`` remaining cards (Champion of Light), then
        the discard pile."""
        order = self.shuffle_queue.pop(0) if self.shuffle_queue else None
        if order is None or sorted(order) != sorted(cards):
            order = list(cards)
            self.rng.shuffle(order)
        self._new_epoch(order, carried, tuple(cards[carried:]))
        self._emit("reshuffled", None, cards=len(order))

    def _discard_from_hand(self, seat: int, c: int) -> None:
        """A hand card goes face up to the discard pile: from now on everyone knows it."""
        self.hand[seat].remove(c)
        self.discard.append(c)
        self.timeline.append((T_SHOW, seat, c))

    def _draw_into_hand(self, seat: int, count: int) -> None:
        drawn = []
        for _ in range(count):
            c = self._draw_card(seat)
            if c < 0:
                break
            drawn.append(c)
        self.hand[seat].extend(drawn)
        self._emit("drew", None, seat=seat, count=len(drawn))
        self._emit_lazy("cards", (seat,), CardsPayload(tuple(drawn)).payload)

    # -- development ------------------------------------------------------------------------
    def _develop_step(self) -> None:
        self.phase = ACTIONS  # transient; overwritten by the next turn
        count = COMPONENTS["developments_per_turn"] + (self.honour_up == ECONOMIC_BOOM)
        done = []
        for _ in range(count):
            c = self._draw_card(PUBLIC)
            if c < 0:
                break
            done.append({"province": KEYS[c], "result": self.develop(c)})
            self.discard.append(c)
        self._emit("developed", None, seat=self.current, provinces=done)
        self._end_turn()

    def develop(self, p: int) -> str:
        """Climb one rung of the development ladder in province p (RULINGS §4.1, SJ-20)."""
        noble = self.owner[p]
        if self.open_neutral and noble not in self.nobles:
            return "dormant"
        dev = self.dev[p]
        changes = []
        if dev < 2:
            if self.dev_supply[noble]:
                self.dev_supply[noble] -= 1
                self.dev[p] = dev + 1
                changes.append("development")
            if dev == 1 and self.sam[p] < 0:
                self._add_samurai(p, changes)
        elif self.sam[p] < 0:
            self._add_samurai(p, changes)
        elif self.army[p] < 0 and self.army_supply[noble]:
            self.army_supply[noble] -= 1
            self.army[p] = noble
            self.moved[p] = False
            changes.append("army")
        return "+".join(changes) if changes else "none"

    def _add_samurai(self, p: int, changes: list[str]) -> None:
        style = self._draw_samurai()
        if style >= 0:
            self.sam[p] = style
            changes.append("samurai")

    # ==========================================================================================
    # rounds, seasons and honours
    # ==========================================================================================
    def _start_round(self) -> None:
        self.order = tuple(sorted(range(self.players), key=self.markers.__getitem__))
        if self.round > 0:
            self._emit("season", None, season=SEASONS[self.round % 2], year=self.year)
        self.moved = [False] * NP
        if self.round % 2 == 0 and self.honour_up < 0 and self.honour_deck:
            self.honour_up = self.honour_deck.pop()
            self._emit("honour_revealed", None, honour=HONOUR_KEYS[self.honour_up])
            if self.honour_up == CHAMPION_OF_LIGHT:
                cards = self.deck[::-1] + self.discard
                carried = len(self.deck)
                self.discard = []
                self._shuffle_into_deck(cards, carried)
        self.turn_i = 0
        self._start_turn()

    @property
    def year(self) -> int:
        return self.round // 2 + 1

    @property
    def season(self) -> str:
        return SEASONS[self.round % 2]

    def _start_turn(self) -> None:
        self.current = self.order[self.turn_i]
        self.phase = ACTIONS
        self.actions_left = NINJA_ACTIONS
        self.claimable = ()
        self._emit("turn", None, seat=self.current)

    def _end_turn(self) -> None:
        self.turn_i += 1
        if self.turn_i < len(self.order):
            self._start_turn()
            return
        self.round += 1
        cap = self.options["max_turns"]
        if cap is not None and self.round >= cap:
            self._end_game(capped=True)
        else:
            self._start_round()

    def _award_honour(self) -> None:
        honour = self.honour_up
        self.honour_up = NOBODY
        winner = self.honour_winner(honour)
        self.honour_log.append((honour, winner))
        if winner >= 0:
            self.honours_won[winner] += 1
        self._emit(
            "honour_awarded",
            None,
            honour=HONOUR_KEYS[honour],
            noble=None if winner < 0 else NOBLES[winner],
        )

    def honour_winner(self, honour: int) -> int:
        """The Noble that receives ``honour`` now, or NOBODY if it is buried (SJ-24)."""
        top = self.honour_contenders(honour)
        if not top:
            return NOBODY
        if len(top) > 1:
            forced = self.tie_queue.pop(0) if self.tie_queue else NOBODY
            winner = forced if forced in top else top[self.rng.randrange(len(top))]
            self.tie_results.append(winner)
            return winner
        return top[0]

    def honour_contenders(self, honour: int) -> list[int]:
        """The Nobles still tied for ``honour`` now after every tie-break but the random draw
        (SJ-24): one winner, several for the draw, or none when it would be buried."""
        spec = HONOURS[honour]
        tallies = self.tallies()
        values = self.measures(spec["measure"], tallies)
        if spec["compare"] == "most":
            best = max(values)
            if best <= 0:
                return []
            top = [n for n in range(4) if values[n] == best]
        else:
            best = min(values)
            top = [n for n in range(4) if values[n] == best]
        if honour == SHOW_OF_FORCE and len(top) > 1:
            least = min(tallies.lost[n] for n in top)
            top = [n for n in top if tallies.lost[n] == least]
        if len(top) > 1:
            econ = [tallies.economy[n] for n in top]
            top = [n for n, e in zip(top, econ, strict=True) if e == min(econ)]
        return top

    # -- powers -----------------------------------------------------------------------------
    def armies(self, noble: int) -> int:
        return COMPONENTS["armies_per_noble"] - self.army_supply[noble]

    def measures(self, name: str, tallies: Tallies | None = None) -> list[int]:
        """Every Noble's value of an Honour card's measure (data/cards.json ``measure``), from
        the map's `tallies` where it has them (the search's evaluation asks at every leaf)."""
        t = self.tallies() if tallies is None else tallies
        if name in ("economy", "samurai", "conquered"):
            return list(getattr(t, name))
        if name == "intelligence":
            return list(self.intel_cap)
        armies = [self.armies(n) for n in range(4)]
        if name == "armies":
            return armies
        military = [2 * a + s for a, s in zip(armies, t.samurai, strict=True)]
        if name == "military":
            return military
        if name == "power":
            return [e + m for e, m in zip(t.economy, military, strict=True)]
        counts = [0] * 4
        if name == "ninjas":
            for n, ninja in zip(self.owner, self.nin, strict=True):
                counts[n] += ninja >= 0
        elif name == "double":
            for n, dev in zip(self.owner, self.dev, strict=True):
                counts[n] += dev >= 2
        elif name == "discards":
            for p in self.discard:
                counts[HOME[p]] += 1
        else:
            raise ValueError(f"unknown honour measure {name!r}")
        return counts

    def intelligence(self, noble: int) -> int:
        held = sum(len(self.intel_hand[s]) for s in range(self.players) if self.nobles[s] == noble)
        return self.intel_cap[noble] + held

    def scores(self) -> list[dict[str, Any]]:
        """Every Noble's powers and Political Power as they would be scored now (SJ-22)."""
        eco, samurai, _, conquered, lost, shame = self.tallies()
        mil = [2 * self.armies(n) + samurai[n] for n in range(4)]
        mil_award, eco_award = _place_awards(mil), _place_awards(eco)
        rows = []
        for n in range(4):
            intelligence = self.intelligence(n)
            political = (
                self.honours_won[n]
                + mil_award[n]
                + eco_award[n]
                + conquered[n]
                + intelligence
                - shame[n]
            )
            rows.append(
                {
                    "noble": NOBLES[n],
                    "honours": self.honours_won[n],
                    "military": mil[n],
                    "military_award": mil_award[n],
                    "economy": eco[n],
                    "economy_award": eco_award[n],
                    "conquered": conquered[n],
                    "lost": lost[n],
                    "shame": shame[n],
                    "intelligence": intelligence,
                    "political": political,
                }
            )
        return rows

    def tallies(self) -> Tallies:
        """Every Noble's counts of the map in one pass over the provinces (the views and the
        search's evaluation read them at every step, so not a pass a Noble and a count)."""
        economy, samurai, provinces, conquered, lost, shame = ([0] * 4 for _ in range(6))
        rows = zip(self.owner, HOME, self.dev, self.sam, IS_CAPITAL, strict=True)
        for n, home, d, s, capital in rows:
            economy[n] += d  # every province has an owner: its home or a conqueror
            provinces[n] += 1
            if s >= 0:
                samurai[n] += 1
            if home != n:
                conquered[n] += 1
                lost[home] += 1
                shame[home] += 3 if capital else 1
        return Tallies(economy, samurai, provinces, conquered, lost, shame)

    def _end_game(self, *, capped: bool) -> None:
        rows = self.scores()
        self.phase = OVER
        self.claimable = ()

        def key(seat: int) -> tuple[int, int, int, int]:
            row = rows[self.nobles[seat]]
            return (row["political"], row["military"], row["economy"], self.gold[seat])

        best = max(key(s) for s in range(self.players))
        winners = {s for s in range(self.players) if key(s) == best}
        self.final = {
            "nobles": [NOBLES[n] for n in self.nobles],
            "intelligence": [list(cards) for cards in self.intel_hand],
            "scores": rows,
        }
        self._emit("revealed", None, **self.final)
        why = "the season cap was reached" if capped else "the last Honour card was awarded"
        names = ", ".join(f"seat {s} ({NOBLE_NAMES[self.nobles[s]]})" for s in sorted(winners))
        self._finish(
            Outcome.win_loss(
                self.players,
                winners,
                f"{why}; most Political Power: {names}",
                capped=capped,
                scores=tuple(float(rows[self.nobles[s]]["political"]) for s in range(self.players)),
            )
        )

    # ==========================================================================================
    # copies, views, samples
    # ==========================================================================================
    def _copy_mutables(self, new: State) -> None:
        assert isinstance(new, JapanState)
        for name in _FLAT_LISTS:
            setattr(new, name, getattr(self, name).copy())
        new.hand = [h.copy() for h in self.hand]
        new.intel_hand = [h.copy() for h in self.intel_hand]
        new.ninjas = [n.copy() for n in self.ninjas]
        new.pool = [n.copy() for n in self.pool]
        new.setup_cards = [c.copy() for c in self.setup_cards]
        new._belief_cache = None

    def prompt(self, seat: int | None = -2) -> str:
        """What the player to move is asked for now (as ``seat`` may read it: only the mover
        learns that a mission can be claimed)."""
        if seat == -2:
            seat = self.current
        phase = self.phase
        if phase == SETUP:
            cards = self.setup_cards[self.current]
            p = cards[sum(1 for c in cards if self.nin[c] == self.current)]
            return f"choose the fighting style of your ninja in {NAMES[p]}"
        if phase == ACTIONS:
            mine = self.claimable and seat == self.current
            claim = "claim a completed mission or " if mine else ""
            return (
                f"{self.actions_left} ninja action(s) left: {claim}move, substitute, steal, "
                "sabotage, seppuku, march an army (1 gold), buy an extra action (1 gold) or end"
            )
        if phase == SPEND:
            return (
                "spend gold: recruit a ninja, march an army, buy cards, take the initiative, or end"
            )
        if phase == DISCARD:
            return f"more than {HAND_LIMIT} cards in hand: choose one to discard"
        return "the game is over"

    def _view(self, seat: int | None) -> dict[str, Any]:
        from .view import build_view

        return build_view(self, seat)

    def _shared_view(self, seat: int | None) -> dict[str, Any]:
        # What every seat sees alike is built once per position (OpenSpiel's rl_environment
        # and a server ask every seat's view after every move; see `State.shared_view`).
        from .view import build_view, public_parts

        return build_view(self, seat, self._per_position(lambda: public_parts(self)))

    def public_payloads(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """(kind, payload) of every public event, uncopied: read-only, for belief.py."""
        for kind, data, to in self._log_entries():
            if to is None:
                yield kind, data

    def determinize(self, seat: int, rng: Any) -> JapanState:
        from .belief import determinize

        return determinize(self, seat, rng)

    # -- helpers for referees and tests -----------------------------------------------------
    def noble_of(self, seat: int) -> str:
        """The Noble ``seat`` secretly backs (a secret: referees and tests only)."""
        return NOBLES[self.nobles[seat]]

    _ACTION_VERBS: dict[str, Any] = {}
    _SPEND_VERBS: dict[str, Any] = {}


JapanState._ACTION_VERBS = {
    "move": JapanState._act_move,
    "substitute": JapanState._act_substitute,
    "steal": JapanState._act_steal,
    "sabotage": JapanState._act_sabotage,
    "seppuku": JapanState._act_seppuku,
    "march": JapanState._act_march,
    "extra": JapanState._act_extra,
    "claim": JapanState._act_claim,
    "end": JapanState._act_end,
}
JapanState._SPEND_VERBS = {
    "recruit": JapanState._act_recruit,
    "march": JapanState._act_march,
    "draw": JapanState._act_draw,
    "initiative": JapanState._act_initiative,
    "claim": JapanState._act_claim,
    "end": JapanState._act_end,
}

_FLAT_LISTS = (
    "owner",
    "dev",
    "sam",
    "army",
    "occ",
    "nin",
    "nsty",
    "nrev",
    "infil",
    "moved",
    "dev_supply",
    "army_supply",
    "sam_supply",
    "sam_queue",
    "intel_cap",
    "deck",
    "discard",
    "honour_deck",
    "honour_log",
    "honours_won",
    "markers",
    "gold",
    "not_noble",
    "timeline",
    "sam_drawn",
    "tie_results",
    "shuffle_queue",
    "tie_queue",
)


class CardsPayload:
    """Immutable payload of a private 'cards drawn' event (built only when read)."""

    __slots__ = ("cards",)

    def __init__(self, cards: tuple[int, ...]) -> None:
        self.cards = cards

    def payload(self) -> dict[str, Any]:
        return {"cards": [KEYS[c] for c in self.cards]}


def _place_awards(values: list[int]) -> list[int]:
    """+3 for a sole best; +1 each when several tie for best (no second place); otherwise +1
    for every Noble tied for second (SJ-22)."""
    best = max(values)
    top = [i for i, v in enumerate(values) if v == best]
    awards = [0] * len(values)
    if len(top) > 1:
        for i in top:
            awards[i] = 1
        return awards
    awards[top[0]] = 3
    rest = [v for v in values if v != best]
    if rest:
        second = max(rest)
        for i, v in enumerate(values):
            if v == second:
                awards[i] = 1
    return awards


class ShadowsOverJapan(Game):
    """Ninja clans secretly backing the four great Nobles of Sengoku Japan."""

    id = "shadows-over-japan"
    name = "Shadows over Japan"
    summary = (
        "Ninja clans secretly back one of four Nobles: fight with hidden styles, infiltrate "
        "armies, steal intelligence and win the most Political Power."
    )
    player_counts = (2, 3, 4)
    options = OPTIONS
    action_table = ACTIONS_TABLE
    state_class = JapanState


__all__ = ["JapanState", "ShadowsOverJapan"]
