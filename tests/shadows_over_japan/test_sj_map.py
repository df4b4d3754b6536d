"""The map data file (RULINGS §4.4, Appendix 4A): provinces, realms, water, lanes, cards."""

from __future__ import annotations

from collections import Counter, deque

from intrigue.games.shadows_over_japan.data import (
    ACROSS_WATER,
    ARMY_ADJ,
    CAPITAL_OF,
    CARD_IDS,
    HOME,
    INDEX,
    IS_CAPITAL,
    KEYS,
    LAND,
    LANES,
    MAP,
    MISSION,
    MISSION_TYPES,
    NINJA_ADJ,
    NOBLES,
    SEA,
    WATER,
    WATER_MEMBERS,
)


def reachable(start: int, adjacency: tuple[tuple[int, ...], ...], allowed: set[int]) -> set[int]:
    seen, todo = {start}, deque([start])
    while todo:
        p = todo.popleft()
        for q in adjacency[p]:
            if q in allowed and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen


def test_72_provinces_18_per_noble_with_settsu() -> None:
    assert len(KEYS) == 72 == len(set(KEYS)) == len(set(CARD_IDS))
    assert Counter(HOME) == {n: 18 for n in range(4)}
    assert "settsu" in INDEX and NOBLES[HOME[INDEX["settsu"]]] == "oda"
    assert [n["key"] for n in MAP["nobles"]] == ["oda", "takeda", "tokugawa", "date"]


def test_one_starred_capital_per_noble() -> None:
    capitals = {NOBLES[HOME[p]]: KEYS[p] for p in range(72) if IS_CAPITAL[p]}
    assert capitals == {"oda": "omi", "takeda": "kai", "tokugawa": "totomi", "date": "dewa"}
    assert [KEYS[c] for c in CAPITAL_OF] == ["omi", "kai", "totomi", "dewa"]


def test_card_ids_number_each_circuit_from_one() -> None:
    by_circuit: dict[str, list[int]] = {}
    for card in CARD_IDS:
        circuit, number = card.split("-")
        by_circuit.setdefault(circuit, []).append(int(number))
    assert set(by_circuit) == {"KIN", "TKD", "TSD", "HRK", "SIN", "SYO", "NKD", "SKD"}
    for numbers in by_circuit.values():
        assert numbers == list(range(1, len(numbers) + 1))
    assert CARD_IDS[INDEX["yamato"]] == "KIN-2" and CARD_IDS[INDEX["musashi"]] == "TKD-11"


def test_every_noble_has_the_same_mission_mix() -> None:
    mix = {"scout": 6, "sabotage": 4, "duel": 3, "assassinate": 2}
    mix |= {"infiltrate": 1, "conquest": 1, "espionage": 1}
    for n in range(4):
        counts = Counter(MISSION_TYPES[MISSION[p]] for p in range(72) if HOME[p] == n)
        assert counts == mix
    for p in range(72):
        assert (MISSION_TYPES[MISSION[p]] == "espionage") == IS_CAPITAL[p]


def test_land_adjacency_is_symmetric_and_irreflexive() -> None:
    for p in range(72):
        assert p not in LAND[p]
        for q in LAND[p]:
            assert p in LAND[q], (KEYS[p], KEYS[q])


def test_water_regions_agree_with_the_provinces() -> None:
    assert len(WATER) == 25
    assert [w["id"] for w in WATER] == [f"W{i:02d}" for i in range(1, 26)]
    for p in range(72):
        for zone in SEA[p]:
            assert p in WATER_MEMBERS[zone]
    for zone, members in WATER_MEMBERS.items():
        assert len(members) >= 3
        for p in members:
            assert zone in SEA[p]


def test_fifteen_symmetric_army_lanes_each_crossing_a_shared_water_region() -> None:
    lanes = {frozenset((p, q)) for p in range(72) for q in LANES[p]}
    assert len(lanes) == 15
    for lane in lanes:
        p, q = sorted(lane)
        assert p in LANES[q] and q in LANES[p]
        assert set(SEA[p]) & set(SEA[q]), (KEYS[p], KEYS[q])
    names = {frozenset((KEYS[p], KEYS[q])) for p, q in map(sorted, lanes)}
    assert frozenset(("sagami", "awa-boso")) in names
    assert frozenset(("harima", "awaji")) in names


def test_the_map_is_connected_for_ninjas() -> None:
    assert reachable(0, NINJA_ADJ, set(range(72))) == set(range(72))


def test_islands_are_reached_only_across_water() -> None:
    for island in ("sado", "oki", "awaji", "iki", "tsushima"):
        p = INDEX[island]
        assert LAND[p] == ()
        assert NINJA_ADJ[p] == ACROSS_WATER[p] and NINJA_ADJ[p]
        assert ARMY_ADJ[p] == LANES[p] and ARMY_ADJ[p]


def test_each_realm_is_connected_by_land_and_water() -> None:
    for n in range(4):
        realm = {p for p in range(72) if HOME[p] == n}
        start = CAPITAL_OF[n]
        assert reachable(start, NINJA_ADJ, realm) == realm, NOBLES[n]


def test_oda_realm_is_land_contiguous() -> None:
    realm = {p for p in range(72) if HOME[p] == 0}
    assert reachable(CAPITAL_OF[0], LAND, realm) == realm


def test_sj_t08_water_moves_from_iyo() -> None:
    iyo = INDEX["iyo"]
    ninja = {KEYS[q] for q in NINJA_ADJ[iyo]}
    assert ninja == {
        "sanuki",
        "awa-shikoku",
        "tosa",
        "suo",
        "aki",
        "bungo",
        "bingo",
        "bitchu",
        "hyuga",
    }
    assert {KEYS[q] for q in ARMY_ADJ[iyo]} == {"sanuki", "awa-shikoku", "tosa", "bungo", "bingo"}
