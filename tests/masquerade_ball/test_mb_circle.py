"""The Circle of Power (§2.3, MB-1..MB-3, MB-18, MB-19) and verdicts: MB-T08..T12, T15."""

from __future__ import annotations

import itertools

import pytest
from mb_helpers import events, legal, play, position

from intrigue.engine import IllegalAction
from intrigue.games.masquerade_ball.board import RANK_LABELS, TOKEN_RANKS
from intrigue.games.masquerade_ball.circle import (
    ATTACKER,
    CLASS_OF,
    CLASS_RANKS,
    DEFENDER,
    TIE,
    stronger,
    verdict,
)

# The §2.3 table, written out literally: attacker's class (rows) against defender's (columns).
TABLE = {
    "royalty": {"aristocracy": "wins", "state": "wins", "church": "loses", "proletariat": "loses"},
    "aristocracy": {"royalty": "loses", "state": "wins", "church": "wins", "proletariat": "loses"},
    "state": {"royalty": "loses", "aristocracy": "loses", "church": "wins", "proletariat": "wins"},
    "church": {"royalty": "wins", "aristocracy": "loses", "state": "loses", "proletariat": "wins"},
    "proletariat": {"royalty": "wins", "aristocracy": "wins", "state": "loses", "church": "loses"},
}
PAIRS = [(a, d) for a in TABLE for d in TABLE[a]]
# Plain (unmasked, no abilities) pairs: the strongest card of each class against the weakest.
REPRESENTATIVE = {c: ranks for c, ranks in CLASS_RANKS.items()}


@pytest.mark.parametrize(("a", "d"), PAIRS)
def test_t08_every_class_pairing_of_the_circle(a: str, d: str) -> None:
    want = ATTACKER if TABLE[a][d] == "wins" else DEFENDER
    for ra, rd in itertools.product(CLASS_RANKS[a], CLASS_RANKS[d]):
        assert stronger(ra, rd) == want, (RANK_LABELS[ra], RANK_LABELS[rd])
        # face-up cards have no automatic ability: the plain circle decides
        assert verdict(ra, rd, False, False).winner == want


def test_in_class_order_and_queen_over_king_and_jack() -> None:
    for ranks in CLASS_RANKS.values():
        for i, hi in enumerate(ranks):
            for lo in ranks[i + 1 :]:
                assert stronger(hi, lo) == ATTACKER and stronger(lo, hi) == DEFENDER
    q, k, j = TOKEN_RANKS["q"], TOKEN_RANKS["k"], TOKEN_RANKS["j"]
    assert stronger(q, k) == ATTACKER and stronger(q, j) == ATTACKER


def test_t09_the_10_beats_every_numbered_card_both_ways() -> None:
    for r in range(2, 10):
        assert stronger(10, r) == ATTACKER
        assert stronger(r, 10) == DEFENDER


def test_mb3_equal_ranks_tie_even_with_abilities() -> None:
    for r in CLASS_OF:
        for masks in itertools.product((False, True), repeat=2):
            assert verdict(r, r, *masks).winner == TIE


def _attack(attacker: str, defender: str, a_up: bool = False, d_up: bool = False):
    """South's ``attacker`` (from d4 or e4) attacks North's ``defender`` on d3."""
    src = "d4" if attacker in ("2", "3") else "e4"
    state = position(
        f"1:{attacker}@{src}" + ("!" if a_up else ""),
        f"0:{defender}@d3" + ("!" if d_up else ""),
        "0:q@a1" if "q" not in (defender,) else "0:k@a1",
        "1:q@f7" if "q" not in (attacker,) else "1:k@f7",
        first=1,
    )
    play(state, f"inspect {src}", f"move {src} d3", "end")
    return state


def test_t08_king_attacks_lord_and_lord_goes_to_the_graveyard() -> None:
    state = _attack("k", "10")
    assert state.rank_at("d3") == "K"
    view = state.view(0)
    assert view["sides"][0]["graveyard"]["cards"] == ["10"]
    assert events(state, None, "verdict")[-1]["winner"] == ATTACKER


def test_t08_nun_slays_the_queen() -> None:
    state = _attack("2", "q")
    assert state.rank_at("d3") == "2"
    assert state.view(0)["sides"][0]["graveyard"]["cards"] == ["Q"]


def test_loser_attacker_goes_to_the_defenders_prison() -> None:
    state = _attack("j", "a")  # the Proletariat beats Royalty
    assert state.rank_at("d3") == "A"
    assert state.view(0)["sides"][0]["prison"]["cards"] == ["J"]
    assert state.view(None)["sides"][0]["prison"] == {"count": 1, "known": []}
    assert state.rank_at("e4") is None  # the attacker left its square


def test_t12_tie_both_removed_only_tie_is_public() -> None:
    state = _attack("k", "k")
    assert state.rank_at("d3") is None
    assert state.view(0)["sides"][0]["graveyard"]["cards"] == ["K"]
    assert state.view(0)["sides"][0]["prison"]["cards"] == ["K"]
    public = events(state, None, "verdict")[-1]
    assert public["winner"] == TIE and "attacker" not in public and "defender" not in public
    judged = events(state, 0, "judged")  # North defended a masked card: North sees "K"
    assert judged[-1]["attacker"] == "K"
    assert events(state, 1, "judged") == []  # South learns nothing but "tie"


def test_t08_seven_against_seven_is_a_tie() -> None:
    state = _attack("7", "7")
    assert state.view(None)["sides"][0]["graveyard"]["count"] == 1
    assert state.view(None)["sides"][0]["prison"]["count"] == 1


def test_unmasked_defender_the_attacker_judges() -> None:
    state = _attack("8", "5", d_up=True)
    assert events(state, 1, "judged")[-1] == {
        "kind": "judged", "square": "d3", "attacker": "8", "defender": "5", "private": True
    }  # fmt: skip
    assert events(state, 0, "judged") == []
    # North, whose face-up 5 died, never saw the attacker
    assert state.view(0)["board"]["d3"]["rank"] is None


def test_masked_defender_owner_learns_the_attacker_for_good() -> None:
    state = _attack("9", "k")  # the King wins: the 9 goes to North's prison
    assert state.view(0)["sides"][0]["prison"]["cards"] == ["9"]
    state = _attack("10", "5")  # the Lord wins and stays on d3: North remembers it
    assert state.view(0)["board"]["d3"]["rank"] == "10"
    assert state.view(1)["board"]["d3"]["rank"] == "10"  # South inspected it
    assert state.view(None)["board"]["d3"]["rank"] is None


def test_t10_assassin_invincible_attack_then_lost_when_unmasked() -> None:
    state = _attack("a", "5")
    assert state.rank_at("d3") == "A"
    assert state.view(None)["board"]["d3"] == {"side": 1, "suit": "h", "up": True, "rank": "A"}
    assert events(state, None, "verdict")[-1]["attacker"] == "A"
    state = _attack("a", "6", a_up=True)
    assert state.rank_at("d3") == "6"
    assert state.view(0)["sides"][0]["prison"]["cards"] == ["A"]


def test_assassin_against_church_too_but_not_when_defending() -> None:
    assert _attack("a", "4").rank_at("d3") == "A"
    state = _attack("3", "a")  # the Church beats the Proletariat: no ability in defence
    assert state.rank_at("d3") == "3"


def test_t11_joker_lure_against_state_church_and_unmasked_assassin() -> None:
    state = _attack("3", "jk")
    assert state.rank_at("d3") == "Joker"
    assert state.view(None)["board"]["d3"]["up"] is True
    assert state.view(0)["sides"][0]["prison"]["cards"] == ["3"]
    for attacker in ("7", "5", "2"):
        assert _attack(attacker, "jk").rank_at("d3") == "Joker"
    state = _attack("a", "jk", a_up=True)
    assert state.rank_at("d3") == "Joker" and state.view(None)["board"]["d3"]["up"]


def test_t11_masked_assassin_and_joker_cancel() -> None:
    state = _attack("a", "jk")
    assert state.rank_at("d3") == "A"
    assert state.view(None)["board"]["d3"]["up"] is False  # neither card flips
    assert state.view(0)["sides"][0]["graveyard"]["cards"] == ["Joker"]


def test_t11_queen_loses_to_the_joker_without_a_lure() -> None:
    state = _attack("q", "jk")
    assert state.rank_at("d3") == "Joker"
    assert state.view(None)["board"]["d3"]["up"] is False
    assert state.view(0)["sides"][0]["prison"]["cards"] == ["Q"]


def test_unmasked_joker_has_no_lure() -> None:
    assert _attack("5", "jk", d_up=True).rank_at("d3") == "5"
    assert _attack("a", "jk", d_up=True).rank_at("d3") == "A"


def test_joker_against_joker_ties() -> None:
    state = _attack("jk", "jk")
    assert events(state, None, "verdict")[-1]["winner"] == TIE


def test_t15_two_attackers_never_the_same_square() -> None:
    state = position("1:k@c5", "1:q@hand", "0:2@d4", "0:j@a1", "1:j@f7", first=1)
    play(state, "inspect c5", "play 0", "place e5", "move c5 d4")
    assert "move e5 d4" not in legal(state)
    with pytest.raises(IllegalAction, match="already attacked"):
        play(state, "move e5 d4")


def test_two_attacks_in_one_turn_resolve_in_order() -> None:
    state = position("1:k@c5", "1:q@hand", "0:2@c4", "0:10@e4", "0:j@a1", "1:j@f7", first=1)
    play(state, "inspect c5", "play 0", "place e5", "move c5 c4", "move e5 e4", "end")
    verdicts = events(state, None, "verdict")
    assert [(v["square"], v["winner"]) for v in verdicts] == [("c4", DEFENDER), ("e4", ATTACKER)]
    assert state.rank_at("c4") == "2" and state.rank_at("e4") == "Q"
