"""What a seat can still believe: resampling the secrets it has not seen (RULINGS §4.2).

A sample is a new game rebuilt by replay, so its record replays to it. Every chance event is
fixed by an option and every hidden choice of another seat is re-chosen:

* **Nobles** of the other seats: uniformly among the assignments the table cannot rule out (a
  seat that claimed a mission against Noble N does not back N; in the ``open`` neutral variant
  the unbacked Nobles are public; at the end everything is public).
* **Territory cards.** The state records every deck order ("epoch": the set-up deck and each
  reshuffle) and who received each drawn card (a seat's secret hand, or public). Within each
  epoch, the cards that went into other seats' hands and were never shown since, together with
  the cards not yet drawn from the current deck, are shuffled among those positions. Cards
  later shown (claimed, recruited on, discarded) keep their true positions.
* **Ninja styles** of the other seats: forward filtering, backward sampling over each seat's
  token configurations (styles of its ninjas on the board plus its pooled counts), using only
  the public log: set-up placements and recruits (a hidden style), moves, marches and deaths,
  Substitutions (a hidden swap) and every revealed style. The sampled configuration history
  gives the style of each set-up placement and recruit and each swap flag, which replace the
  seat's real choices in the replay.
* **Honour deck** order beyond the revealed cards; samurai still face down during set-up; and
  all future chance (a fresh seed).
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING, Any

from intrigue.engine import Action

from .data import HONOUR_KEYS, INDEX, KEYS, NOBLES, STYLE_INDEX, STYLES

if TYPE_CHECKING:
    from .rules import JapanState

Config = tuple[tuple[tuple[int, int], ...], tuple[int, int, int]]
Op = tuple[Any, ...]


def determinize(state: JapanState, seat: int, rng: Any) -> JapanState:
    options = dict(state.options)
    nobles = _sample_nobles(state, seat, rng)
    options["nobles"] = [NOBLES[n] for n in nobles]
    options["markers"] = [str(m) for m in state.initial_markers]
    orders = _sample_deck_orders(state, seat, rng)
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
    choices = {s: _sample_choices(state, s, rng) for s in range(state.players) if s != seat}
    sample = state.game.new(state.players, rng.randrange(1 << 62), **options)
    used = dict.fromkeys(choices, 0)
    for actor, action in state.history:
        if actor != seat and action.verb in ("style", "recruit", "substitute"):
            action = _substitute(sample, action, choices[actor][used[actor]])
            used[actor] += 1
        sample.apply(actor, action)
    return sample  # type: ignore[return-value]


def _substitute(sample: JapanState, action: Action, choice: int) -> Action:
    table = sample.game.action_table
    if action.verb == "style":
        return table.canonical(Action("style", STYLES[choice]))
    if action.verb == "recruit":
        return table.canonical(Action("recruit", action.args[0], STYLES[choice]))
    frm, to = action.args[0], action.args[1]
    return table.canonical(
        Action("substitute", frm, to, "swap") if choice else Action("substitute", frm, to)
    )


# -- nobles -----------------------------------------------------------------------------------
def consistent_nobles(state: JapanState, seat: int) -> list[tuple[int, ...]]:
    """Every Noble assignment (one per seat) ``seat`` cannot rule out."""
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


def _sample_nobles(state: JapanState, seat: int, rng: Any) -> tuple[int, ...]:
    choices = consistent_nobles(state, seat)
    return choices[rng.randrange(len(choices))]


# -- cards ------------------------------------------------------------------------------------
def _sample_deck_orders(state: JapanState, seat: int, rng: Any) -> list[list[int]]:
    """Every deck order so far, with the cards ``seat`` has not seen shuffled within each."""
    orders = []
    last = len(state.epochs) - 1
    for e, order in enumerate(state.epochs):
        start = state.epoch_start[e]
        end = state.epoch_start[e + 1] if e < last else len(state.draw_rec)
        free = [i for i in range(end - start) if state.draw_rec[start + i] not in (-1, seat)]
        if e == last:
            free.extend(range(end - start, len(order)))
        new = list(order)
        cards = [order[i] for i in free]
        rng.shuffle(cards)
        for i, c in zip(free, cards, strict=True):
            new[i] = c
        orders.append(new)
    return orders


# -- ninja styles: forward filtering, backward sampling ---------------------------------------
def token_ops(state: JapanState, seat: int) -> list[Op]:
    """What the public log says about ``seat``'s tokens, in order."""
    ops: list[Op] = []
    for event in state.events(None):
        kind = event["kind"]
        if kind in ("placed", "recruited"):
            if event["seat"] == seat:
                ops.append(("choose", INDEX[event["at"]]))
        elif kind == "move":
            _move_ops(event, seat, ops)
        elif kind == "substituted":
            if event["seat"] == seat:
                ops.append(("swap", INDEX[event["frm"]], INDEX[event["to"]]))
        elif kind == "stole":
            if event["seat"] == seat:
                ops.append(("reveal", INDEX[event["at"]], STYLE_INDEX[event["style"]]))
        elif kind == "seppuku":
            if event["seat"] == seat:
                ops.append(("die", INDEX[event["at"]]))
        elif kind == "marched":
            to = INDEX[event["to"]]
            for killed in event["killed"]:
                if killed.get("seat") == seat:
                    ops.append(("die", to))
            if event["seat"] == seat:
                ops.append(("relabel", INDEX[event["frm"]], to))
    return ops


def _move_ops(event: dict[str, Any], seat: int, ops: list[Op]) -> None:
    frm, to = INDEX[event["frm"]], INDEX[event["to"]]
    mover = event["seat"] == seat
    for fight in event["fights"]:
        if mover:
            ops.append(("reveal", frm, STYLE_INDEX[fight["style"]]))
        if fight["enemy"] == seat:
            ops.append(("reveal", to, STYLE_INDEX[fight["enemy_style"]]))
            if fight["result"] == "won":
                ops.append(("die", to))
    if mover:
        if event["result"] == "lost":
            ops.append(("die", frm))
        elif event["result"] != "tie":
            ops.append(("relabel", frm, to))


def _successors(cfg: Config, op: Op) -> list[Config]:
    board, pool = cfg
    kind = op[0]
    if kind == "reveal":
        return [cfg] if (op[1], op[2]) in board else []
    if kind == "swap":
        a, b = op[1], op[2]
        styles = dict(board)
        if styles[a] == styles[b]:
            return [cfg]
        styles[a], styles[b] = styles[b], styles[a]
        return [cfg, (tuple(sorted(styles.items())), pool)]
    if kind == "choose":
        found = []
        for style in range(3):
            if pool[style]:
                counts = list(pool)
                counts[style] -= 1
                new_board = tuple(sorted((*board, (op[1], style))))
                found.append((new_board, (counts[0], counts[1], counts[2])))
        return found
    styles = dict(board)
    if kind == "die":
        style = styles.pop(op[1])
        counts = list(pool)
        counts[style] += 1
        return [(tuple(sorted(styles.items())), (counts[0], counts[1], counts[2]))]
    # relabel
    styles[op[2]] = styles.pop(op[1])
    return [(tuple(sorted(styles.items())), pool)]


def _sample_choices(state: JapanState, seat: int, rng: Any) -> list[int]:
    """Hidden choices of ``seat`` (a style per placement/recruit, a swap flag per
    Substitution) drawn from a configuration history consistent with the public log."""
    ops = token_ops(state, seat)
    start: Config = ((), (2, 2, 2))
    layers: list[list[Config]] = [[start]]
    for op in ops:
        nxt: dict[Config, None] = {}
        for cfg in layers[-1]:
            for succ in _successors(cfg, op):
                nxt[succ] = None
        layers.append(list(nxt))
    current = layers[-1][rng.randrange(len(layers[-1]))]
    choices: list[int] = []
    for t in range(len(ops) - 1, -1, -1):
        op = ops[t]
        preds = [cfg for cfg in layers[t] if current in _successors(cfg, op)]
        previous = preds[rng.randrange(len(preds))]
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
    return choices
