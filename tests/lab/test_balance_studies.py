"""The designer's questions, end to end on small runs: did my change matter (paired), what
does a parameter do (sweeps), which actions matter (restricted play), how much does skill
matter (ISMCTS skill trace), and what the report says in words."""

import json

import pytest

from intrigue.lab.balance import BalanceConfig, run_balance
from intrigue.lab.runner import read_rows

PA = {"max_turns": "60"}


def pa_config(games: int, **changes) -> BalanceConfig:
    settings = {"game": "project-assassination", "games": games, "bots": ["heuristic"],
                "players": 2, "options": PA, "seed": 5}  # fmt: skip
    return BalanceConfig(**{**settings, **changes})


def test_a_change_that_changes_nothing_is_seen_as_such(tmp_path):
    # The same cap spelled differently: every pair is the very same game.
    config = pa_config(10, vs_options={"max_turns": "60"})
    comparison = run_balance(config, tmp_path, workers=1).report["comparison"]
    assert comparison["paired"] and comparison["pairs"] == 10
    assert comparison["identical"]["rate"] == 1.0
    assert all(r["delta"] == 0 and r["p_value"] == 1.0 for r in comparison["rates"])
    assert all(r["holm_p"] == 1.0 for r in comparison["rates"])


def test_paired_comparison_counts_the_pairs_that_differ(tmp_path):
    config = pa_config(24, vs_options={"max_turns": "15"})
    report = run_balance(config, tmp_path, workers=1).report
    rows = read_rows(tmp_path / "games.jsonl")
    base = {r["index"]: r for r in rows if r["variant"] == "base"}
    vs = {r["index"]: r for r in rows if r["variant"] == "vs"}
    comparison = report["comparison"]
    identical = sum(base[i]["history"] == vs[i]["history"] for i in base)
    assert comparison["identical"]["count"] == identical < 24
    (capped,) = [r for r in comparison["rates"] if r["metric"] == "outcome/capped"]
    assert capped["up"] == sum(vs[i]["capped"] and not base[i]["capped"] for i in base)
    assert capped["down"] == sum(base[i]["capped"] and not vs[i]["capped"] for i in base)
    assert capped["test"] == "McNemar exact" and capped["up"] > 0
    assert capped["vs_rate"] - capped["base_rate"] == pytest.approx(capped["delta"])
    turns = comparison["length"]["turns"]
    assert turns["unit"] == "player turns" and turns["mean_difference"] < 0
    assert turns["pairs"] == 24 and "wilcoxon_p" in turns and "holm_p" in turns
    # Holm: never below the raw p-value.
    assert all(r["holm_p"] >= r["p_value"] for r in comparison["rates"])


def test_every_game_is_decisive_a_natural_draw_or_capped_never_two(tmp_path):
    config = BalanceConfig("masquerade-ball", 8, ["heuristic"], 2, {"max_turns": "30"}, seed=1)
    report = run_balance(config, tmp_path, workers=1).report
    outcomes = report["variants"]["base"]["outcomes"]
    assert outcomes["capped"]["count"] > 0  # a capped ball is a draw, but counts as capped
    assert (
        outcomes["decisive"]["count"] + outcomes["draws"]["count"] + outcomes["capped"]["count"]
        == 8
    )
    assert outcomes["completion"]["count"] == 8 - outcomes["capped"]["count"]
    ludii = report["variants"]["base"]["ludii"]
    assert ludii["Timeouts"] == outcomes["capped"]["rate"]
    assert ludii["Completion"] + ludii["Timeouts"] == pytest.approx(1.0)


def test_a_grid_sweep_compares_each_point_with_the_first(tmp_path):
    pytest.importorskip("matplotlib")
    config = pa_config(
        5, sweep=[("max_turns", ["12", "60"]), ("cage", ["until_next_turn", "permanent"])]
    )
    report = run_balance(config, tmp_path, workers=1).report
    names = list(report["variants"])
    assert names == [
        "sweep:max_turns=12,cage=until_next_turn",
        "sweep:max_turns=12,cage=permanent",
        "sweep:max_turns=60,cage=until_next_turn",
        "sweep:max_turns=60,cage=permanent",
    ]
    assert report["reference"] == names[0] and not report["errors"]
    assert report["variants"][names[3]]["options"] == {"max_turns": "60", "cage": "permanent"}
    assert set(report["sweep"]["comparisons"]) == set(names[1:])
    html = (tmp_path / "report.html").read_text()
    assert "Parameter sweep" in html and "against max_turns" in html
    assert html.count("data:image/png") >= 6  # a plot per measure against the parameter


def test_restricted_play_pairs_the_restricted_seat_with_the_same_seat_unrestricted(tmp_path):
    config = pa_config(8, strategies=["shoot", "cage"])
    report = run_balance(config, tmp_path, workers=1).report
    entries = {e["variant"]: e for e in report["strategies"]["entries"]}
    assert set(entries) == {"never:shoot", "never:cage", "prefer:shoot", "prefer:cage"}
    rows = read_rows(tmp_path / "games.jsonl")
    base = {r["index"]: r for r in rows if r["variant"] == "base"}
    never = [r for r in rows if r["variant"] == "never:shoot"]
    for row in never:
        focus = row["focus"]
        assert focus == row["index"] % 2
        assert row["bots"][focus] == "restricted:base=heuristic:never=shoot"
        assert row["bots"][1 - focus] == "heuristic"
        assert row["counts"].get("action:shoot", [0, 0, 0])[focus] == 0
    entry = entries["never:shoot"]
    assert entry["restricted"]["wins"] == sum(r["results"][r["focus"]] for r in never)
    assert entry["unrestricted"]["wins"] == sum(
        base[r["index"]]["results"][r["focus"]] for r in never
    )
    assert entry["restricted"]["rate"] < entry["unrestricted"]["rate"]  # shooting matters
    assert all(e["holm_p"] >= e["p_value"] for e in entries.values())


def test_skill_trace_doubles_the_iterations_of_one_seat(tmp_path):
    config = pa_config(4, options={"max_turns": "12"}, skill_levels=[1, 2])
    report = run_balance(config, tmp_path, workers=1).report
    levels = report["skill_trace"]["levels"]
    assert [(e["weak"], e["strong"]) for e in levels] == [(1, 2), (2, 4)]
    row = next(r for r in read_rows(tmp_path / "games.jsonl") if r["variant"] == "skill:4-vs-2")
    assert row["bots"][row["focus"]] == "ismcts:iterations=4"
    assert row["bots"][1 - row["focus"]] == "ismcts:iterations=2"
    assert 0 <= report["skill_trace"]["score"] <= 1


def test_the_verdict_names_unfair_factions_in_words(tmp_path):
    # Synthetic rows shaped like the Shadows over Japan finding: Date wins half the
    # three-player games against a fair third.
    from intrigue.lab.balance import build_report

    rows = []
    nobles = ["date", "oda", "takeda"]
    for index in range(600):
        winner = 0 if index % 2 == 0 else 1 + index % 4 % 2
        rows.append(
            {
                "variant": "base", "index": index, "seed": index, "players": 3,
                "bots": ["heuristic"] * 3, "status": "ok", "winners": [winner],
                "results": [1.0 if s == winner else 0.0 for s in range(3)],
                "returns": [1.0 if s == winner else -1.0 for s in range(3)], "scores": None,
                "reason": "the last Honour card was awarded", "draw": False, "capped": False,
                "steps": 400, "turns": 17, "first": index % 3, "focus": None,
                "labels": {"faction": nobles},
            }
        )  # fmt: skip
    config = BalanceConfig("shadows-over-japan", 600, ["heuristic"], 3)
    verdict = build_report(config, rows)["verdict"]
    (factions,) = [s for s in verdict if s["topic"] == "faction"]
    assert factions["level"] == "finding"
    assert factions["text"].startswith("Factions are not balanced")
    assert "Date wins 50.0%" in factions["text"] and "fair share of 33.3%" in factions["text"]
    (first,) = [s for s in verdict if s["topic"] == "first player"]
    assert first["text"].startswith("No significant first-player edge")
    rules = [s for s in verdict if s["topic"] == "rules"]
    assert "Never used by these bots" in rules[0]["text"]  # no counts at all in these rows


def test_run_json_records_code_and_bots_and_resume_refuses_a_change(tmp_path):
    from intrigue.lab.balance import OutputExists, ResumeMismatch
    from intrigue.lab.provenance import run_record

    config = pa_config(2)
    run_balance(config, tmp_path, workers=1)
    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved["code"]["package"] and "commit" in saved["code"]
    assert saved["config"]["bots"] == ["heuristic"]
    fingerprint = saved["bots"]["heuristic"]
    assert fingerprint["weights"]["WEIGHTS"] and len(fingerprint["sha256"]) == 16
    digest = fingerprint["sha256"]
    # Never into a folder holding a run, unless asked.
    with pytest.raises(OutputExists, match="--resume"):
        run_balance(config, tmp_path, workers=1)
    assert run_balance(config, tmp_path, workers=1, resume=True).played == 0
    # A bot whose code or weights changed since: refused, naming it.
    saved["bots"]["heuristic"]["sha256"] = "0" * 16
    (tmp_path / "run.json").write_text(json.dumps(saved))
    with pytest.raises(ResumeMismatch, match="bot heuristic"):
        run_balance(config, tmp_path, workers=1, resume=True)
    saved["bots"]["heuristic"]["sha256"] = digest
    saved["code"]["package"] = "0.0.0"
    (tmp_path / "run.json").write_text(json.dumps(saved))
    with pytest.raises(ResumeMismatch, match="package version"):
        run_balance(config, tmp_path, workers=1, resume=True)
    # The rules' code, or the lab's code that plays and records games, changed since.
    saved["code"] = run_record(config)["code"]
    for key, words in (("rules", "the rules' code"), ("recorder", "records games")):
        changed = {**saved, key: "0" * 16}
        (tmp_path / "run.json").write_text(json.dumps(changed))
        with pytest.raises(ResumeMismatch, match=words) as refused:
            run_balance(config, tmp_path, workers=1, resume=True)
        assert "bot" not in str(refused.value) and "package" not in str(refused.value)
    # Overwriting starts afresh.
    again = run_balance(config, tmp_path, workers=1, overwrite=True)
    assert (again.played, again.resumed) == (2, 0)
    assert len(read_rows(tmp_path / "games.jsonl")) == 2
