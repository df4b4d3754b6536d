"""What a seat can still believe: only the order of the undrawn cards is unknown.

Both seats see everything else (RULINGS §3.2): the board, HP, VP, weapons, reserves, the cards
on the rendezvous points, the discards, the cards put back under the Enemy deck and every coin
already flipped. Decks are drawn lazily (see `deck.Deck`): every card nobody has seen is equally
likely to come next, from the state's generator. So a sample is the state itself with a fresh
generator (and any option-fixed deck tops turned back into unseen cards). Its options are
rewritten to fix the cards and coins already used, so ``intrigue.replay(sample.record())``
rebuilds it exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from intrigue.engine import Rng

if TYPE_CHECKING:
    from .rules import AssassinationState


def determinize(state: AssassinationState, seat: int, rng: Any) -> AssassinationState:
    sample = state.clone()
    assert sample.__class__ is state.__class__
    for deck in (sample.item_deck, sample.coll_deck, sample.enemy_deck):
        deck.forget_order()
    options = dict(state.options)
    options.update(
        first_player=state.first,
        item_deck=list(sample.item_deck.drawn),
        collectible_deck=list(sample.coll_deck.drawn),
        enemy_deck=list(sample.enemy_deck.drawn),
        coins=list(state.coins),
    )
    sample.options = options
    sample.seed = rng.randrange(1 << 62)
    sample.rng = Rng(sample.seed)
    return sample  # type: ignore[return-value]
