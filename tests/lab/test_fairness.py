"""Fairness of seats, roles, teams and factions with games as the units, the rules table's
single pass, and a restriction's effect per role: statistics checked against NumPy and by
hand, and the verdict's words for team games."""

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from intrigue.lab.balance import BalanceConfig, build_report, run_balance
from intrigue.lab.metrics import rules
from intrigue.lab.stats import (
    Tally,
    compare_tallies,
    fair_share_test,
    holm,
    homogeneity_test,
    one_proportion_z_test,
)

MM_TEAMS = {"constable": "good", "duke": "good", "seductress": "evil", "assassin": "evil",
            "thug": "thug"}  # fmt: skip


def test_two_seats_one_winner_is_the_binomial_score_test_and_rows_would_double_it():
    # Seat 0 wins 60 of 100: z = (0.6 - 0.5) / sqrt(0.25 / 100) = 2, so chi-square 4 on 1 df.
    games = [{"0": 1.0, "1": 0.0}] * 60 + [{"0": 0.0, "1": 1.0}] * 40
    found = fair_share_test(games)
    assert found["df"] == 1 and found["games"] == 100 and found["fair"] == 0.5
    assert math.isclose(found["chi2"], 4.0)
    assert math.isclose(found["p_value"], math.erfc(2 / math.sqrt(2)))
    # Counting each seat-row as a sample treats one game's win and loss as two pieces of
    # evidence: twice the statistic.
    rows = homogeneity_test([Tally(60, 100), Tally(40, 100)])
    assert math.isclose(rows["chi2"], 8.0)


def test_nothing_to_test_without_two_keys_or_any_variation():
    assert fair_share_test([{"a": 1.0}] * 5) is None
    assert fair_share_test([{"a": 0.5, "b": 0.5}] * 5) is None  # every game a draw
    assert fair_share_test([]) is None


game_results = st.lists(
    st.dictionaries(
        st.sampled_from("abcde"), st.sampled_from([0.0, 0.5, 1.0]), min_size=2, max_size=4
    ),
    min_size=1,
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(game_results)
def test_the_statistic_is_the_score_form_with_a_pseudo_inverse(games):
    keys = sorted({k for g in games for k in g})
    excess = np.zeros((len(games), len(keys)))
    for row, game in enumerate(games):
        fair = sum(game.values()) / len(game)
        for key, result in game.items():
            excess[row, keys.index(key)] = result - fair
    total = excess.sum(axis=0)
    scatter = excess.T @ excess
    rank = np.linalg.matrix_rank(scatter, tol=1e-9 * max(scatter.diagonal().max(), 1e-300))
    found = fair_share_test(games)
    if rank == 0:
        assert found is None
        return
    expected = float(total @ np.linalg.pinv(scatter, rcond=1e-10) @ total)
    assert found["df"] == rank
    assert math.isclose(found["chi2"], expected, rel_tol=1e-6, abs_tol=1e-9)


def test_under_fair_play_the_test_holds_its_level():
    # 400 runs of 300 three-faction games (of four) with a fair winner: about 5% rejections.
    rng = random.Random(7)
    rejections = 0
    for _ in range(400):
        games = []
        for _ in range(300):
            present = rng.sample("abcd", 3)
            winner = rng.choice(present)
            games.append({k: float(k == winner) for k in present})
        rejections += fair_share_test(games)["p_value"] < 0.05
    assert 0.02 < rejections / 400 < 0.09


def mm_row(index: int, good_wins: bool) -> dict:
    roles = ["constable", "duke", "seductress", "assassin", "thug"]
    random.Random(index).shuffle(roles)
    teams = [MM_TEAMS[r] for r in roles]
    results = [float((t == "good") == good_wins) if t != "thug" else 1.0 for t in teams]
    return {
        "variant": "base", "index": index, "seed": index, "players": 5, "bots": ["heuristic"] * 5,
        "status": "ok", "winners": [s for s, r in enumerate(results) if r],
        "results": results, "returns": [2 * r - 1 for r in results], "scores": None,
        "reason": "the Assassin was jailed", "draw": False, "capped": False, "steps": 30,
        "turns": 7, "first": None, "focus": None, "labels": {"role": roles, "team": teams},
    }  # fmt: skip


def test_team_games_are_told_by_team_with_their_roles():
    rows = [mm_row(i, good_wins=i % 3 != 0) for i in range(300)]  # Good wins two in three
    report = build_report(BalanceConfig("masquerade-murder", 300, ["heuristic"], 5), rows)
    fairness = report["variants"]["base"]["fairness"]
    assert fairness["team"]["members"] == {
        "evil": ["assassin", "seductress"], "good": ["constable", "duke"], "thug": ["thug"]
    }  # fmt: skip
    assert fairness["team"]["test"]["units"] == "games"
    topics = [s["topic"] for s in report["verdict"]]
    assert "role" not in topics  # the roles are named in the team sentence
    (teams,) = [s for s in report["verdict"] if s["topic"] == "team"]
    assert teams["level"] == "finding"
    assert teams["text"].startswith("The teams are not balanced")
    assert "games as units" in teams["text"]
    assert "Good (Constable and Duke) wins 66.7% of games" in teams["text"]
    assert "Evil (Assassin and Seductress) wins 33.3% of games" in teams["text"]
    # Seats: roles are dealt at random, so no seat stands out.
    (seats,) = [s for s in report["verdict"] if s["topic"] == "seat"]
    assert seats["text"].startswith("Seats look balanced")


def reference_rule(name: str, rows: list[dict]) -> dict:
    """The rules table's entry for one kind, counted the slow and obvious way."""
    fired, idle = Tally(), Tally()
    games = total = 0
    for row in rows:
        counts = row["counts"].get(name) or [0] * (len(row["results"]) + 1)
        games += sum(counts) > 0
        total += sum(counts)
        for seat, result in enumerate(row["results"]):
            (fired if counts[seat] else idle).add(result)
    return {"games": games, "per_game": total / len(rows), "fired": fired, "idle": idle}


count_rows = st.lists(
    st.tuples(
        st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=3, max_size=3),
        st.dictionaries(
            st.sampled_from(["action:shoot", "action:draw jack", "event:kill", "event:x"]),
            st.lists(st.integers(0, 3), min_size=4, max_size=4),
        ),
        st.permutations(["date", "oda", "takeda"]),
    ),
    min_size=1,
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(count_rows)
def test_the_rules_table_in_one_pass_counts_as_the_obvious_way(data):
    rows = [
        {"results": results, "counts": counts, "labels": {"faction": list(factions)}}
        for results, counts, factions in data
    ]
    entries = {e["name"]: e for e in rules(rows, ["shoot", "wait"])}
    assert entries["action:wait"]["games"]["count"] == 0  # a verb that never occurred
    expected_p = []
    for name, entry in entries.items():
        ref = reference_rule(name, rows)
        assert entry["games"]["count"] == ref["games"]
        assert math.isclose(entry["per_game"], ref["per_game"])
        if ref["fired"].games:
            given_ = entry["given"]
            assert given_["fired"] == ref["fired"].to_json()
            assert given_["not_fired"]["games"] == ref["idle"].games
            assert math.isclose(given_["not_fired"]["wins"], ref["idle"].wins)
            assert math.isclose(
                given_["p_value"], compare_tallies(ref["idle"], ref["fired"])["p_value"]
            )
            expected_p.append(given_["p_value"])
            # Per faction: times per seat of that faction.
            for faction, mean in entry["per_seat_by"]["faction"].items():
                done = sum(
                    r["counts"].get(name, [0] * 4)[r["labels"]["faction"].index(faction)]
                    for r in rows
                )
                assert math.isclose(mean, done / len(rows))
        else:
            assert entry["given"] is None
    got = [e["given"]["holm_p"] for e in entries.values() if e["given"]]
    assert got == holm(expected_p)


def test_a_restriction_is_also_told_per_role_of_the_restricted_seat(tmp_path):
    config = BalanceConfig(
        "masquerade-murder", 30, ["heuristic"], 5, {"max_turns": "15"}, seed=3,
        strategies=["target"],
    )  # fmt: skip
    report = run_balance(config, tmp_path, workers=1).report
    (entry,) = [e for e in report["strategies"]["entries"] if e["mode"] == "never"]
    by_role = entry["by"]["role"]
    assert set(by_role) <= set(MM_TEAMS) and len(by_role) >= 3
    assert sum(c["restricted"]["games"] for c in by_role.values()) == 30
    assert sum(c["restricted"]["wins"] for c in by_role.values()) == entry["restricted"]["wins"]
    for cell in by_role.values():
        assert cell["delta"] == cell["restricted"]["rate"] - cell["unrestricted"]["rate"]


def test_per_key_score_tests_use_the_pooled_fair_share():
    rows = [mm_row(i, good_wins=i % 2 == 0) for i in range(100)]
    fairness = build_report(BalanceConfig("masquerade-murder", 100, ["heuristic"], 5), rows)[
        "variants"
    ]["base"]["fairness"]
    role = fairness["role"]
    z, _ = one_proportion_z_test(50, 100, role["fair"])
    assert math.isclose(role["keys"]["duke"]["z"], z)


def ball_row(variant: str, index: int, players: int, winner: int) -> dict:
    results = [float(s == winner) for s in range(players)]
    return {
        "variant": variant, "index": index, "seed": index, "players": players,
        "bots": ["heuristic"] * players, "status": "ok", "winners": [winner], "results": results,
        "returns": [2 * r - 1 for r in results], "scores": None, "reason": "a throne was held",
        "draw": False, "capped": False, "steps": 300, "turns": 80, "first": index % players,
        "focus": None, "labels": {},
    }  # fmt: skip


def test_the_verdict_judges_the_compared_player_count_on_its_own():
    # Two players balanced; three players where seat 1 wins half the balls against a fair third.
    rows = [ball_row("base", i, 2, i % 2) for i in range(600)]
    rows += [ball_row("vs", i, 3, 1 if i % 2 else (i // 2) % 2 * 2) for i in range(600)]
    config = BalanceConfig("masquerade-ball", 600, ["heuristic"], 2, vs_players=3)
    verdict = build_report(config, rows)["verdict"]
    (seats,) = [s for s in verdict if s["text"].startswith("With 3 players")]
    assert seats["level"] == "finding" and seats["topic"] == "seat"
    assert "seats are not balanced" in seats["text"] and "seat 1 wins 50.0%" in seats["text"]
    assert "fair share of 33.3%" in seats["text"]
    (base,) = [s for s in verdict if s["topic"] == "seat" and s is not seats]
    assert base["text"].startswith("Seats look balanced")
    (variant,) = [s for s in verdict if s["topic"] == "variant"]
    assert variant["text"].startswith("The variant (3 players)")
    assert " it " not in variant["text"]  # unpaired: no "identical" clause to continue


def test_the_three_player_ball_is_played_and_judged_in_the_lab(tmp_path):
    config = BalanceConfig("masquerade-ball", 6, ["heuristic"], 2, {"max_turns": "30"},
                           vs_players=3)  # fmt: skip
    report = run_balance(config, tmp_path, workers=1).report
    vs = report["variants"]["vs"]
    assert vs["players"] == 3 and vs["finished"] == 6
    assert set(vs["win_rates"]["seat"]) == {"0", "1", "2"}
    assert vs["fairness"]["seat"]["test"] is None or vs["fairness"]["seat"]["test"]["games"] == 6
    assert vs["first_player"]["games"] == 6
    assert vs["repetition"] is not None and vs["branching"]["decisions"] > 0
    assert report["comparison"]["paired"] is False


def test_p_values_in_words_keep_two_significant_figures_below_a_tenth():
    from intrigue.lab.verdict import p_text

    assert p_text(0.0451) == "p = 0.045"  # not "0.05": it is below the 5% line
    assert p_text(0.59) == "p = 0.59"
    assert p_text(0.00002) == "p < 0.0001"
    assert p_text(None) == "p = -"


def test_a_rule_change_at_the_same_count_is_judged_by_its_pairs_only():
    rows = [ball_row("base", i, 2, i % 2) for i in range(400)]
    rows += [ball_row("vs", i, 2, 0 if i % 4 else 1) for i in range(400)]  # seat 0 wins 75%
    config = BalanceConfig("masquerade-ball", 400, ["heuristic"], 2, vs_options={"abilities": "on"})
    verdict = build_report(config, rows)["verdict"]
    assert not [s for s in verdict if s["text"].startswith("With ")]
    (variant,) = [s for s in verdict if s["topic"] == "variant"]
    assert "seat 0 wins +25.0 points" in variant["text"]
