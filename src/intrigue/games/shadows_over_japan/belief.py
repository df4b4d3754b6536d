"""What a seat can still believe: resampling the secrets it has not seen (RULINGS §4.2).

A sample is a new game rebuilt by replay, so its record replays to it. Every chance event is
fixed by an option and every hidden choice of another seat is re-chosen. The sample is a
function of what the seat knows and of the generator only: two states the seat cannot tell
apart give the same sample for the same generator (SJ-38). Everything hidden is derived from
public data (the public log, the board, the discard pile, hand sizes) and the seat's own
secrets, and every random choice is made over a list in a canonical order.

* **Nobles** of the other seats: uniformly among the assignments the table cannot rule out (a
  seat that claimed a mission against Noble N does not back N; in the ``open`` neutral variant
  the unbacked Nobles are public; at the end everything is public).
* **Territory cards.** The seat knows the card of every face-up draw (set-up, development) and
  of its own draws, where each card shown from another hand (claimed, recruited on, discarded)
  went, which cards entered each new deck from the discard pile, and how many cards every hand
  drew and when. Each hidden draw of another seat gets a card in time order: a card that seat
  shows later, earliest show first, if one is in the deck (always feasible, by an exchange
  argument), otherwise a uniformly drawn card of the deck that is never seen again. A card
  drawn face up later is never given to a hand before. Deck orders follow from these draws;
  cards left in a deck that Champion of Light reshuffles, and the current deck, are re-ordered.
* **Ninja styles** of the other seats: forward filtering, backward sampling over each seat's
  token configurations (styles of its ninjas on the board plus its pooled counts), using only
  the public log: set-up placements and recruits (a hidden style), moves, marches and deaths,
  Substitutions (a hidden swap) and every revealed style. Each configuration is weighted by the
  number of hidden-choice sequences that reach it, so the sampled choices are uniform among
  the sequences consistent with the log.
* **Honour deck** order beyond the revealed cards; samurai still face down during set-up; and
  all future chance (a fresh seed).

The analysis of the public record (everything but the random draws) is cached on the state
for its current step, since search bots sample the same position many times.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import permutations
from typing import TYPE_CHECKING, Any

from intrigue.engine import Action, Rng

from .data import HONOUR_KEYS, INDEX, KEYS, NOBLES, STYLE_INDEX, STYLES

if TYPE_CHECKING:
    from .rules import JapanState

Config = tuple[tuple[tuple[int, int], ...], tuple[int, int, int]]
Op = tuple[Any, ...]
Recruits = Callable[[tuple[int, int, int]], tuple[float, float, float]]
RECRUIT = "recruit"  # marks a recruit's ``choose`` op (a set-up placement has none)
T_DRAW, T_EPOCH = 0, 2  # the rules' timeline tags (T_SHOW = 1)
PUBLIC = -1
# Card plan steps (see _card_plan) and the classes of a card's stay out of sight.
P_EPOCH, P_KNOWN, P_SLOT = 0, 1, 2
OPEN, FACE_UP, SHOWN = 0, 1, 2


def determinize(
    state: JapanState,
    seat: int,
    rng: Any,
    nobles: tuple[int, ...] | None = None,
    recruits: Recruits | None = None,
) -> JapanState:
    """A game consistent with everything ``seat`` has seen (see the module docstring).

    For a search's own belief (a bot's reading of the public play); `JapanState.determinize`
    never passes them:

    * ``nobles``: the Nobles to use instead of drawing them (they must be consistent, as the
      true ones are; ``bench/peek.py``'s ``nobles`` mode passes the true ones);
    * ``recruits``: how likely a seat is to recruit each style given its pool (three weights
      for a pool of style counts, normalized over the styles it has): the other seats'
      recruits are drawn with those chances instead of alike, as far as the public log
      allows (set-up placements stay alike)."""
    cache = _cache(state)
    options = dict(state.options)
    if nobles is None:
        nobles = _sample_nobles(cache, state, seat, rng)
    options["nobles"] = [NOBLES[n] for n in nobles]
    options["markers"] = [str(m) for m in state.initial_markers]
    if seat not in cache.plans:
        cache.plans[seat] = _card_plan(state, seat)
    plan = cache.plans[seat]
    orders, slots, deck = _sample_deck_orders(plan, rng)
    options["deck"] = [KEYS[c] for c in orders[0]]
    options["reshuffles"] = [".".join(KEYS[c] for c in order) for order in orders[1:]] or None
    revealed = [h for h, _ in state.honour_log]
    if state.honour_up >= 0:
        revealed.append(state.honour_up)
    rest = [h for h in range(len(HONOUR_KEYS)) if h not in revealed]
    rng.shuffle(rest)
    options["honours"] = [HONOUR_KEYS[h] for h in revealed + rest]
    options["samurai"] = (
        None if state.phase == "setup" else [STYLES[s] for s in state.sam_drawn] or None
    )
    options["honour_ties"] = [NOBLES[n] for n in state.tie_results] or None
    tokens: dict[int, tuple[list[int], Config]] = {}
    for other in range(state.players):
        if other != seat:
            key = (other, recruits)
            if key not in cache.tokens:
                cache.tokens[key] = _token_model(cache.ops(state)[other], recruits)
            tokens[other] = cache.tokens[key].sample(rng)
    new_seed = rng.randrange(1 << 62)
    choices = {other: sampled[0] for other, sampled in tokens.items()}
    if state.phase == "setup":
        # The face-down samurai come from the new seed: only a replay draws them.
        return rebuild(state, seat, new_seed, options, choices)
    return _patch(state, seat, new_seed, options, tokens, nobles, slots, deck)


def rebuild(
    state: JapanState,
    seat: int,
    seed: int,
    options: dict[str, Any],
    choices: dict[int, list[int]],
) -> JapanState:
    """The game replayed from ``options`` and ``seed``, with the other seats' hidden choices
    (a style per placement or recruit, a swap flag per Substitution) replaced."""
    sample = state.game.new(state.players, seed, **options)
    for actor, action in _history(state, seat, choices):
        sample.apply(actor, action)
    return sample  # type: ignore[return-value]


def _history(
    state: JapanState, seat: int, choices: dict[int, list[int]]
) -> list[tuple[int, Action]]:
    table = state.game.action_table
    used = dict.fromkeys(choices, 0)
    history = state.history
    for i in _hidden_steps(state):
        actor, action = history[i]
        if actor != seat:
            history[i] = (actor, _substitute(table, action, choices[actor][used[actor]]))
            used[actor] += 1
    return history


def _hidden_steps(state: JapanState) -> list[int]:
    """The steps of the history that hold a hidden choice (of any seat)."""
    cache = _cache(state)
    if cache.hidden is None:
        cache.hidden = [
            i for i, (_, action) in enumerate(state._played()) if action.verb in HIDDEN_VERBS
        ]
    return cache.hidden


def _substitute(table: Any, action: Action, choice: int) -> Action:
    if action.verb == "style":
        return table.canonical(Action("style", STYLES[choice]))
    if action.verb == "recruit":
        return table.canonical(Action("recruit", action.args[0], STYLES[choice]))
    frm, to = action.args[0], action.args[1]
    return table.canonical(
        Action("substitute", frm, to, "swap") if choice else Action("substitute", frm, to)
    )


def _patch(
    state: JapanState,
    seat: int,
    seed: int,
    options: dict[str, Any],
    tokens: dict[int, tuple[list[int], Config]],
    nobles: tuple[int, ...],
    slots: list[int],
    deck: list[int],
) -> JapanState:
    """What `rebuild` would give, made by editing a clone instead of replaying every step.

    Once set-up is over, a replay from the sampled options draws nothing at random (every
    deck, samurai and tie is fixed), so the rebuilt game differs from this one only in what
    the seat cannot see: the other seats' Nobles, hands, token styles and pools, the deck, the
    hidden draws in the timeline, their private events and hidden choices, and the record.
    The conformance suite checks the result against a replay of its record.
    """
    from .rules import T_DRAW, T_SHOW, CardsPayload

    sample: JapanState = state.clone()  # type: ignore[assignment]
    sample.seed = seed
    sample.options = options
    sample.rng = Rng(seed)
    sample.nobles = nobles
    sample.sam_queue = []
    sample.shuffle_queue = []
    sample.tie_queue = []
    choices = {other: sampled[0] for other, sampled in tokens.items()}
    sample._replace_history(_history(state, seat, choices))
    # Tokens: each other seat's sampled configuration now.
    for other, (_, (board, pool)) in tokens.items():
        for p, style in board:
            sample.nsty[p] = style
        sample.pool[other] = list(pool)
    # Cards: hidden draws get the sampled cards; hands follow; the deck is the last order's
    # undrawn rest.
    drawn: dict[int, list[int]] = {other: [] for other in tokens}
    timeline = sample.timeline
    hands: dict[int, list[int]] = {other: [] for other in tokens}
    k = 0
    for i, (kind, who, card) in enumerate(timeline):
        if kind == T_DRAW and who >= 0 and who != seat:
            card = slots[k]
            k += 1
            timeline[i] = (T_DRAW, who, card)
            drawn[who].append(card)
            hands[who].append(card)
        elif kind == T_SHOW and who != seat:
            hands[who].remove(card)
    for other, hand in hands.items():
        sample.hand[other] = hand
    sample.deck = deck[::-1]
    # The log: the other seats' private events, in the order they were logged.
    used = dict.fromkeys(tokens, 0)
    dealt = dict.fromkeys(tokens, 0)
    replace = sample._replace_log_entry
    for i, kind, who in _private_entries(state):
        if who == seat:
            continue
        data = sample._log_entry(i)[1]
        if kind == "noble":
            replace(i, kind, {"noble": NOBLES[nobles[who]]}, (who,))
        elif kind in ("placed_style", "recruited_style"):
            style = STYLES[choices[who][used[who]]]
            used[who] += 1
            replace(i, kind, {"at": data["at"], "style": style}, (who,))
        elif kind == "substitution":
            swapped = bool(choices[who][used[who]])
            used[who] += 1
            replace(i, kind, {"frm": data["frm"], "to": data["to"], "swapped": swapped}, (who,))
        else:  # "hand" or "cards": the next draws of that seat
            count = len(data()["cards"]) if callable(data) else len(data["cards"])
            cards = drawn[who][dealt[who] : dealt[who] + count]
            dealt[who] += count
            if kind == "hand":
                replace(i, kind, {"cards": [KEYS[c] for c in cards]}, (who,))
            else:
                replace(i, kind, CardsPayload(tuple(cards)).payload, (who,))
    # The claim window of another seat to move depends on its (sampled) hand and Noble.
    if sample.claimable or _window_open(state, seat):
        sample.claimable = sample._matches(sample.current, sample.last_hits)
    return sample


PRIVATE_KINDS = frozenset(
    ("noble", "placed_style", "recruited_style", "substitution", "hand", "cards")
)
HIDDEN_VERBS = frozenset(("style", "recruit", "substitute"))
WINDOW_VERBS = frozenset(("move", "substitute", "steal", "sabotage", "seppuku", "march"))


def _window_open(state: JapanState, seat: int) -> bool:
    """Whether another seat to move may claim a mission now (its last action opened the
    window and nothing closed it)."""
    last = state._last_played()
    if state.phase not in ("actions", "spend") or state.current == seat or last is None:
        return False
    actor, action = last
    return actor == state.current and action.verb in WINDOW_VERBS


def _private_entries(state: JapanState) -> list[tuple[int, str, int]]:
    cache = _cache(state)
    if cache.private is None:
        cache.private = [
            (i, kind, to[0])
            for i, (kind, _, to) in enumerate(state._log_entries())
            if to is not None and kind in PRIVATE_KINDS
        ]
    return cache.private


# -- the cache ----------------------------------------------------------------------------------
@dataclass
class _Cache:
    """What the public record implies, for one step of one state."""

    key: tuple[int, int]
    nobles: dict[int, list[tuple[int, ...]]] = field(default_factory=dict)
    plans: dict[int, CardPlan] = field(default_factory=dict)
    # Per seat and reader of its recruits (None: every hidden choice alike).
    tokens: dict[tuple[int, Recruits | None], TokenModel] = field(default_factory=dict)
    private: list[tuple[int, str, int]] | None = None
    hidden: list[int] | None = None
    _ops: list[list[Op]] | None = None

    def ops(self, state: JapanState) -> list[list[Op]]:
        if self._ops is None:
            self._ops = token_ops_by_seat(state)
        return self._ops


def _cache(state: JapanState) -> _Cache:
    key = (state.actions_played, state.log_length)
    cache = state._belief_cache
    if cache is None or cache.key != key:
        # A new object, never an update: clones made earlier may still hold the old one.
        cache = _Cache(key)
        state._belief_cache = cache
    return cache


# -- nobles -----------------------------------------------------------------------------------
def consistent_nobles(state: JapanState, seat: int) -> list[tuple[int, ...]]:
    """Every Noble assignment (one per seat) ``seat`` cannot rule out, in a fixed order."""
    if state.phase == "over":
        return [state.nobles]
    own = state.nobles[seat]
    others = [s for s in range(state.players) if s != seat]
    pool = [n for n in range(4) if n != own]
    if state.open_neutral:
        pool = [n for n in pool if n in state.nobles]
    found = []
    for combo in permutations(pool, len(others)):
        if all(not state.not_noble[s] >> n & 1 for s, n in zip(others, combo, strict=True)):
            nobles = [own] * state.players
            for s, n in zip(others, combo, strict=True):
                nobles[s] = n
            found.append(tuple(nobles))
    return found


def _sample_nobles(cache: _Cache, state: JapanState, seat: int, rng: Any) -> tuple[int, ...]:
    if seat not in cache.nobles:
        cache.nobles[seat] = consistent_nobles(state, seat)
    choices = cache.nobles[seat]
    return choices[rng.randrange(len(choices))]


# -- cards ------------------------------------------------------------------------------------
@dataclass
class CardPlan:
    """The card timeline as ``seat`` knows it.

    ``steps``: (P_EPOCH, cards carried over, added cards) when a deck is formed, the added
    cards as (card, class, seat, show time) sorted by card; (P_KNOWN, card) for a draw the seat
    saw; (P_SLOT, seat) for a draw into another seat's hidden hand. A card's class says how its
    current stay out of the seat's sight ends: OPEN (not yet), FACE_UP (drawn face up or by the
    seat itself: it stays in the deck until then) or SHOWN (by that seat, at that time: it must
    be drawn into that seat's hand before).
    """

    steps: list[tuple[Any, ...]]


def _card_plan(state: JapanState, seat: int) -> CardPlan:
    stays: list[list[int]] = []  # [card, class, seat, time]
    current: dict[int, list[int]] = {}
    steps: list[tuple[Any, ...]] = []
    for time, (kind, who, card) in enumerate(state.timeline):
        if kind == T_EPOCH:
            added = []
            for c in sorted(card):
                stay = [c, OPEN, -1, 0]
                stays.append(stay)
                current[c] = stay
                added.append(stay)
            steps.append((P_EPOCH, who, added))
        elif kind == T_DRAW:
            if who in (PUBLIC, seat):
                current.pop(card)[1] = FACE_UP
                steps.append((P_KNOWN, card))
            else:
                steps.append((P_SLOT, who))  # the card is not read: the seat never saw it
        elif who != seat:
            stay = current.pop(card)
            stay[1:] = [SHOWN, who, time]
    frozen = [
        (step[0], step[1], [tuple(stay) for stay in step[2]]) if step[0] == P_EPOCH else step
        for step in steps
    ]
    return CardPlan(frozen)


def _sample_deck_orders(plan: CardPlan, rng: Any) -> tuple[list[list[int]], list[int], list[int]]:
    """Every deck order (top card first) of a history consistent with ``plan``, the cards of
    the hidden draws in time order, and the current deck (top card first)."""
    orders: list[list[int]] = []
    slots: list[int] = []
    in_deck: set[int] = set()
    # Cards never seen again, in an order that depends only on earlier steps and choices.
    unseen: list[int] = []
    where: dict[int, int] = {}
    shown: dict[int, list[tuple[int, int]]] = {}  # seat -> (show time, card) still in the deck
    for step in plan.steps:
        kind = step[0]
        if kind == P_SLOT:
            waiting = shown.get(step[1])
            if waiting:
                first = min(waiting)
                waiting.remove(first)
                card = first[1]
            else:
                card = unseen[rng.randrange(len(unseen))]
                _take(unseen, where, card)
            in_deck.remove(card)
            orders[-1].append(card)
            slots.append(card)
        elif kind == P_KNOWN:
            in_deck.remove(step[1])
            orders[-1].append(step[1])
        else:
            carried, added = step[1], step[2]
            if orders:
                if len(in_deck) != carried:
                    raise ValueError("determinize: the card timeline is inconsistent")
                orders[-1].extend(sorted(in_deck))  # never seen: any order will do
            orders.append([])
            for card, cls, who, time in added:
                in_deck.add(card)
                if cls == OPEN:
                    where[card] = len(unseen)
                    unseen.append(card)
                elif cls == SHOWN:
                    shown.setdefault(who, []).append((time, card))
    rest = sorted(in_deck)
    rng.shuffle(rest)
    orders[-1].extend(rest)
    return orders, slots, rest


def _take(items: list[int], where: dict[int, int], card: int) -> None:
    """Remove ``card`` from ``items`` in O(1) (the last item takes its place)."""
    i = where.pop(card)
    last = items.pop()
    if last != card:
        items[i] = last
        where[last] = i


# -- ninja styles: forward filtering, backward sampling ---------------------------------------
def token_ops_by_seat(state: JapanState) -> list[list[Op]]:
    """What the public log says about each seat's tokens, in order."""
    ops: list[list[Op]] = [[] for _ in range(state.players)]
    for kind, event in state.public_payloads():
        if kind == "placed":
            ops[event["seat"]].append(("choose", INDEX[event["at"]]))
        elif kind == "recruited":
            ops[event["seat"]].append(("choose", INDEX[event["at"]], RECRUIT))
        elif kind == "move":
            _move_ops(event, ops)
        elif kind == "substituted":
            ops[event["seat"]].append(("swap", INDEX[event["frm"]], INDEX[event["to"]]))
        elif kind == "stole":
            ops[event["seat"]].append(("reveal", INDEX[event["at"]], STYLE_INDEX[event["style"]]))
        elif kind == "seppuku":
            ops[event["seat"]].append(("die", INDEX[event["at"]]))
        elif kind == "marched":
            to = INDEX[event["to"]]
            for killed in event["killed"]:
                if "seat" in killed:
                    ops[killed["seat"]].append(("die", to))
            ops[event["seat"]].append(("relabel", INDEX[event["frm"]], to))
    return ops


def token_ops(state: JapanState, seat: int) -> list[Op]:
    """What the public log says about ``seat``'s tokens, in order."""
    return token_ops_by_seat(state)[seat]


def _move_ops(event: dict[str, Any], ops: list[list[Op]]) -> None:
    frm, to = INDEX[event["frm"]], INDEX[event["to"]]
    mover = ops[event["seat"]]
    for fight in event["fights"]:
        mover.append(("reveal", frm, STYLE_INDEX[fight["style"]]))
        enemy = fight["enemy"]
        if enemy is not None:
            ops[enemy].append(("reveal", to, STYLE_INDEX[fight["enemy_style"]]))
            if fight["result"] == "won":
                ops[enemy].append(("die", to))
    if event["result"] == "lost":
        mover.append(("die", frm))
    elif event["result"] != "tie":
        mover.append(("relabel", frm, to))


def _successors(
    cfg: Config, op: Op, recruits: Recruits | None = None
) -> list[tuple[Config, float]]:
    """The configurations ``op`` can lead to, each with the number of hidden choices that
    lead there (a recruit's weighed by ``recruits``, if given)."""
    board, pool = cfg
    kind = op[0]
    if kind == "reveal":
        return [(cfg, 1)] if (op[1], op[2]) in board else []
    if kind == "swap":
        a, b = op[1], op[2]
        styles = dict(board)
        if styles[a] == styles[b]:
            return [(cfg, 2)]  # swapped or not, the board looks the same
        styles[a], styles[b] = styles[b], styles[a]
        return [(cfg, 1), ((tuple(sorted(styles.items())), pool), 1)]
    if kind == "choose":
        weights: tuple[float, float, float] = (1, 1, 1)
        if recruits is not None and len(op) > 2:
            # A chance for each style the pool still has: a choice nobody saw says nothing
            # about the choices before it.
            odds = recruits(pool)
            total = sum(w for w, n in zip(odds, pool, strict=True) if n)
            weights = (odds[0] / total, odds[1] / total, odds[2] / total)
        found: list[tuple[Config, float]] = []
        for style in range(3):
            if pool[style]:
                counts = list(pool)
                counts[style] -= 1
                new_board = tuple(sorted((*board, (op[1], style))))
                found.append(((new_board, (counts[0], counts[1], counts[2])), weights[style]))
        return found
    styles = dict(board)
    if kind == "die":
        style = styles.pop(op[1])
        counts = list(pool)
        counts[style] += 1
        return [((tuple(sorted(styles.items())), (counts[0], counts[1], counts[2])), 1)]
    # relabel
    styles[op[2]] = styles.pop(op[1])
    return [((tuple(sorted(styles.items())), pool), 1)]


@dataclass
class TokenModel:
    """Forward filter over one seat's token configurations: ``layers[t]`` maps each
    configuration reachable after t ops to the number of hidden-choice sequences reaching it;
    ``links[t]`` maps each configuration of ``layers[t + 1]`` to its (predecessor, choices)."""

    ops: list[Op]
    layers: list[dict[Config, float]]
    links: list[dict[Config, list[tuple[Config, float]]]]

    def sample(self, rng: Any) -> tuple[list[int], Config]:
        """Hidden choices (a style per placement/recruit, a swap flag per Substitution),
        uniformly among the sequences consistent with the public log (each weighed by its
        recruits' weights, if the model has them), and the configuration they lead to."""
        final = current = _weighted(list(self.layers[-1].items()), rng)
        choices: list[int] = []
        for t in range(len(self.ops) - 1, -1, -1):
            op = self.ops[t]
            layer = self.layers[t]
            links = self.links[t][current]
            if len(links) == 1:
                previous = links[0][0]
            else:
                previous = _weighted([(cfg, layer[cfg] * mult) for cfg, mult in links], rng)
            if op[0] == "choose":
                choices.append(dict(current[0])[op[1]])
            elif op[0] == "swap":
                before, after = dict(previous[0]), dict(current[0])
                if before[op[1]] == before[op[2]]:
                    choices.append(rng.randrange(2))
                else:
                    choices.append(int(after[op[1]] != before[op[1]]))
            current = previous
        choices.reverse()
        return choices, final


def _token_model(ops: list[Op], recruits: Recruits | None = None) -> TokenModel:
    start: Config = ((), (2, 2, 2))
    layers: list[dict[Config, float]] = [{start: 1}]
    links: list[dict[Config, list[tuple[Config, float]]]] = []
    for op in ops:
        nxt: dict[Config, float] = {}
        back: dict[Config, list[tuple[Config, float]]] = {}
        for cfg, count in layers[-1].items():
            for succ, mult in _successors(cfg, op, recruits):
                nxt[succ] = nxt.get(succ, 0) + count * mult
                back.setdefault(succ, []).append((cfg, mult))
        layers.append(nxt)
        links.append(back)
    return TokenModel(ops, layers, links)


def _weighted(items: list[tuple[Config, float]], rng: Any) -> Config:
    if len(items) == 1:
        return items[0][0]  # no choice: no draw (the public log decides that, not a secret)
    total = sum(weight for _, weight in items)
    # Counts draw exactly (and as they always have); recruits' weights make them floats.
    r = rng.randrange(total) if isinstance(total, int) else rng.random() * total
    for item, weight in items:
        r -= weight
        if r < 0:
            return item
    # Only float weights get here, r left a rounding error above 0 by the last item.
    return items[-1][0]
