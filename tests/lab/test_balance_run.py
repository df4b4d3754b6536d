"""Balance runs: reproducible whatever the worker count, resumable, crashes kept with records."""

import base64
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import intrigue
from intrigue.bots import RandomBot, make_bot, register_bot
from intrigue.bots.match import play_match
from intrigue.engine import Record
from intrigue.lab.balance import BalanceConfig, ResumeMismatch, run_balance
from intrigue.lab.facts import first_player, game_facts
from intrigue.lab.runner import GameTask, play_one, read_rows
from processes import alive

MM_OPTIONS = {"max_turns": "4"}


def mm_config(games: int, **changes) -> BalanceConfig:
    settings = {
        "game": "masquerade-murder",
        "games": games,
        "bots": ["heuristic", "random"],
        "players": 5,
        "options": MM_OPTIONS,
        "seed": 11,
    }
    return BalanceConfig(**{**settings, **changes})


def without_run(report: dict) -> dict:
    """The report minus what legitimately differs between runs (backend, timings)."""
    return {k: v for k, v in report.items() if k != "run"}


class CrashBot(RandomBot):
    """Plays randomly, then raises on its move number ``after`` (test-only)."""

    name = "crashy"

    def __init__(self, after: int = 3) -> None:
        self.after = after
        self.moves = 0

    def choose(self, view, legal_actions, rng):
        self.moves += 1
        if self.moves > self.after:
            raise RuntimeError(f"crashy gave up after {self.after} moves")
        return super().choose(view, legal_actions, rng)


# -- one game -----------------------------------------------------------------------------------
def test_a_lab_game_is_the_game_the_arena_plays():
    task = GameTask("masquerade-murder", "base", 0, 5, 5, ("heuristic",) * 2 + ("random",) * 3)
    row = play_one(task)
    state = play_match(
        "masquerade-murder", [make_bot(n) for n in task.bots], 5, 5, {"max_turns": None}
    )
    assert row["status"] == "ok"
    assert row["steps"] == len(state.history)
    assert row["winners"] == list(state.outcome.winners)
    assert row["labels"]["role"] == state.view(None)["roles"]


def test_facts_read_the_public_view_of_each_game():
    mm = play_match("masquerade-murder", [RandomBot()] * 5, 3, 5, {"max_turns": 5})
    facts = game_facts(mm)
    assert facts.first is None  # simultaneous targeting: no first player
    assert facts.turns == mm.view(None)["night"]
    roles = mm.view(None)["roles"]
    assert facts.labels["team"] == [
        {"constable": "good", "duke": "good", "thug": "thug"}.get(r, "evil") for r in roles
    ]
    pa = play_match("project-assassination", [RandomBot()] * 2, 8, 2, {"max_turns": 30})
    assert first_player(pa.events(None)) == pa.view(None)["first"]
    assert game_facts(pa).turns == pa.view(None)["turns"]
    sj = play_match("shadows-over-japan", [RandomBot()] * 3, 2, 3, {"max_turns": 4})
    nobles = [p["noble"] for p in sj.view(None)["players"]]
    assert game_facts(sj).labels == {"faction": nobles}


# -- whole runs ---------------------------------------------------------------------------------
def test_same_seed_same_report_with_one_or_two_workers(tmp_path):
    config = mm_config(12, vs_options={"board": "ring12"})
    one = run_balance(config, tmp_path / "one", workers=1)
    two = run_balance(config, tmp_path / "two", workers=2, backend="process")
    assert without_run(one.report) == without_run(two.report)
    assert one.report["run"]["workers"] == 1 and two.report["run"]["workers"] == 2
    # Every game of both rule sets was streamed to disk, whatever order they finished in.
    keys = {(r["variant"], r["index"]) for r in read_rows(tmp_path / "two" / "games.jsonl")}
    assert keys == {(v, i) for v in ("base", "vs") for i in range(12)}
    other = run_balance(mm_config(12, seed=12, vs_options={"board": "ring12"}), tmp_path / "3")
    assert without_run(other.report) != without_run(one.report)


def test_report_counts_every_seat_game_and_names_roles_and_teams(tmp_path):
    report = run_balance(mm_config(10), tmp_path, workers=1).report
    base = report["variants"]["base"]
    assert base["finished"] == 10 and base["errors"] == 0
    rates = base["win_rates"]
    assert sum(t["games"] for t in rates["seat"].values()) == 50
    assert rates["bot"]["heuristic"]["games"] == rates["bot"]["random"]["games"] == 25
    assert set(rates["role"]) == {"constable", "thug", "seductress", "assassin", "duke"}
    # One result per team per game; Good and Evil never both win.
    assert {k: t["games"] for k, t in rates["team"].items()} == {"good": 10, "evil": 10, "thug": 10}
    assert rates["team"]["good"]["wins"] + rates["team"]["evil"]["wins"] == 10
    outcomes = base["outcomes"]
    assert outcomes["decisive"]["count"] + outcomes["capped"]["count"] == 10  # MM has no draws
    assert base["first_player"] is None
    assert base["length"]["turns"]["unit"] == "nights"
    assert base["length"]["turns"]["max"] <= 4
    assert base["skill"]["pairs"][0]["stronger"] == "heuristic"
    assert report["comparison"] is None and report["errors"] == []


def three_against_four(game_id: str, games: int, max_turns: str, seed: int, tmp_path):
    """A random-bot run of ``game_id`` with 3 players against 4: (report, base, vs)."""
    config = BalanceConfig(
        game_id, games, ["random"], 3, {"max_turns": max_turns}, seed=seed, vs_players=4
    )
    report = run_balance(config, tmp_path, workers=1).report
    base, vs = report["variants"]["base"], report["variants"]["vs"]
    assert (base["players"], vs["players"]) == (3, 4)
    return report, base, vs


def test_first_player_advantage_and_player_count_comparison(tmp_path):
    report, base, vs = three_against_four("shadows-over-japan", 8, "3", 3, tmp_path)
    assert base["first_player"]["games"] == 8
    # One winner a game (ties aside): the fair share is about 1/players.
    assert base["first_player"]["expected"] > vs["first_player"]["expected"] >= 0.25
    assert set(base["win_rates"]["faction"]) <= {"oda", "takeda", "tokugawa", "date"}
    comparison = report["comparison"]
    metrics = {r["metric"] for r in comparison["rates"]}
    # Seat rates are not comparable across player counts; the game-level rates are.
    assert "outcome/decisive" in metrics and not any(m.startswith("seat/") for m in metrics)
    assert comparison["length"]["turns"]["unit"] == "seasons"
    # Advantages over different fair shares (1/2 and 1/4) are compared, not raw rates.
    (advantage,) = [r for r in comparison["rates"] if r["metric"] == "first_player/advantage"]
    expected = vs["first_player"]["advantage"] - base["first_player"]["advantage"]
    assert advantage["delta"] == pytest.approx(expected)
    assert advantage["ci95"][0] < advantage["delta"] < advantage["ci95"][1]
    assert advantage["fisher_p"] is None


def test_the_ball_with_three_players_against_four(tmp_path):
    # MB-30: the lab plays and compares the three-player Ball like any other count.
    report, base, vs = three_against_four("masquerade-ball", 4, "6", 5, tmp_path)
    assert base["finished"] == vs["finished"] == 4 and report["errors"] == []
    assert set(base["win_rates"]["seat"]) == {"0", "1", "2"}


def test_report_files_are_written_and_well_formed(tmp_path):
    pytest.importorskip("matplotlib")
    run_balance(mm_config(6, vs_options={"board": "ring12"}), tmp_path, workers=1)
    report = json.loads((tmp_path / "report.json").read_text())
    assert set(report) == {
        "schema", "config", "reference", "verdict", "variants", "comparison", "sweep",
        "strategies", "skill_trace", "errors", "run",
    }  # fmt: skip
    assert report["schema"] == "intrigue.balance/2"
    variant_keys = {
        "players", "options", "bots", "focus", "study", "setting", "games", "finished",
        "errors", "outcomes", "win_rates", "focus_rate", "fairness", "first_player", "length",
        "reasons", "skill", "rules", "repetition", "branching", "scores", "evaluation", "ludii",
    }  # fmt: skip
    assert all(set(v) == variant_keys for v in report["variants"].values())
    tally = report["variants"]["vs"]["win_rates"]["role"]["duke"]
    assert set(tally) == {"wins", "games", "rate", "ci95"}
    assert tally["ci95"][0] <= tally["rate"] <= tally["ci95"][1]
    html = (tmp_path / "report.html").read_text()
    # One self-contained file: every plot inline, nothing else to send along.
    images = re.findall(r"<img src='data:image/png;base64,([A-Za-z0-9+/=]+)'", html)
    assert len(images) >= 3
    assert all(base64.b64decode(image)[:8] == b"\x89PNG\r\n\x1a\n" for image in images)
    assert not list(tmp_path.glob("*.png"))
    assert "Win rate by role" in html and "The variant against the base" in html
    assert html.index("Verdict") < html.index("Settings")
    assert html.rstrip().endswith("</html>")


# -- resuming -----------------------------------------------------------------------------------
def test_resume_plays_only_the_missing_games(tmp_path):
    first = run_balance(mm_config(5), tmp_path, workers=1)
    assert (first.played, first.resumed) == (5, 0)
    # An interrupted write leaves half a line: it is ignored and that game played again.
    games = tmp_path / "games.jsonl"
    lines = games.read_text().splitlines()
    games.write_text("\n".join(lines[:-1]) + "\n" + lines[-1][: len(lines[-1]) // 2])
    more = run_balance(mm_config(8), tmp_path, workers=1, resume=True)
    assert (more.played, more.resumed) == (4, 4)
    fresh = run_balance(mm_config(8), tmp_path / "fresh", workers=1)
    assert without_run(more.report) == without_run(fresh.report)
    assert len(read_rows(games)) == 8
    # Asking for fewer games reports on those and keeps the others on disk.
    fewer = run_balance(mm_config(3), tmp_path, workers=1, resume=True)
    assert (fewer.played, fewer.resumed) == (0, 3)
    assert fewer.report["variants"]["base"]["games"] == 3
    assert len(read_rows(games)) == 8


def test_resume_refuses_a_folder_of_other_games(tmp_path):
    run_balance(mm_config(2), tmp_path, workers=1)
    with pytest.raises(ResumeMismatch):
        run_balance(mm_config(2, bots=["random"]), tmp_path, workers=1, resume=True)


# -- crashes ------------------------------------------------------------------------------------
def test_a_crashing_game_is_recorded_with_its_record_and_traceback(tmp_path):
    register_bot("crashy", CrashBot)
    config = BalanceConfig(
        "project-assassination", 6, ["crashy:after=12", "random"], 2, {"max_turns": "40"}
    )
    run = run_balance(config, tmp_path, workers=1)
    rows = read_rows(tmp_path / "games.jsonl")
    assert len(rows) == 6  # nothing dropped
    crashed = [r for r in rows if r["status"] == "error"]
    assert crashed and len(crashed) < 6  # some games end before the bot's 13th move
    assert run.report["variants"]["base"]["errors"] == len(crashed)
    assert run.report["variants"]["base"]["finished"] == 6 - len(crashed)
    for error in run.report["errors"]:
        assert "crashy gave up after 12 moves" in error["error"]
        assert "RuntimeError" in error["traceback"]
        # The record replays to the position where the bot failed.
        state = intrigue.replay(Record.from_json(error["record"]))
        assert len(state.history) == error["steps"] and not state.is_over
        saved = tmp_path / f"crash-base-{error['index']}.json"
        assert json.loads(saved.read_text()) == error["record"]
    assert "crashy gave up" in (tmp_path / "report.html").read_text()


def test_crashes_in_worker_processes_come_back_the_same(tmp_path):
    # Workers are fresh interpreters: the test bot reaches them as a plugin, by import path.
    plugin = ("crashy", f"{CrashBot.__module__}:CrashBot")
    config = BalanceConfig(
        "project-assassination", 6, ["crashy:after=12", "random"], 2, {"max_turns": "40"}
    )
    config.plugins = [plugin]
    serial = run_balance(config, tmp_path / "serial", workers=1)
    pooled = run_balance(config, tmp_path / "pooled", workers=2)
    assert serial.report["errors"]
    # Tracebacks name the interpreter's frames; everything else is identical.
    strip = [{k: v for k, v in e.items() if k != "traceback"} for e in serial.report["errors"]]
    assert strip == [
        {k: v for k, v in e.items() if k != "traceback"} for e in pooled.report["errors"]
    ]
    assert without_run(serial.report)["variants"] == without_run(pooled.report)["variants"]


def test_rotation_gives_each_bot_every_seat():
    config = mm_config(4, bots=["a", "b", "c"])
    assert [config.variants()[0].seats(i) for i in range(2)] == [
        ("a", "b", "c", "a", "b"),
        ("b", "c", "a", "b", "c"),
    ]
    tasks = config.tasks()
    assert [t.seed for t in tasks] == [11, 12, 13, 14]


# A balance run killed mid-game (no clean-up runs, as by SIGKILL): two workers each hold a
# four-player ball of search bots, minutes of CPU. It prints its workers' pids, then dies.
RUN_KILLED_MID_GAME = """
import os, sys, threading, time
from pathlib import Path
from intrigue.lab.runner import GameTask, run_tasks

def workers():
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if ppid == os.getpid() and b"spawn_main" in command:
                found.append(entry.name)
    return found

def die_mid_game():
    time.sleep(float(sys.argv[1]))  # the workers have started their balls by then
    print(*workers(), flush=True)
    os._exit(0)

threading.Thread(target=die_mid_game, daemon=True).start()
ball = GameTask("masquerade-ball", "base", 0, 0, 4, ("hard",) * 4, {"max_turns": 600})
next(run_tasks([ball, GameTask(**{**ball.__dict__, "index": 1, "seed": 1})], workers=2))
"""


def test_a_killed_balance_run_leaves_no_worker_playing_on(tmp_path):
    """The workers of a lab run end with it even when it is killed without closing its pool
    (before: each played out the ball it held, minutes of CPU, as an orphan)."""
    # Files, not pipes: an orphan would hold a pipe open.
    printed, errors = tmp_path / "workers.txt", tmp_path / "errors.txt"
    with printed.open("w") as out, errors.open("w") as err:
        run = [sys.executable, "-c", RUN_KILLED_MID_GAME, "4"]
        parent = subprocess.run(run, stdout=out, stderr=err, timeout=120)
    workers = [int(pid) for pid in printed.read_text().split()]
    try:
        assert parent.returncode == 0 and len(workers) == 2, errors.read_text()
        deadline = time.monotonic() + 30
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a worker of the killed run is still playing"
            time.sleep(0.05)
    finally:
        for pid in filter(alive, workers):  # a failing run's orphans must not play on
            os.kill(pid, signal.SIGKILL)
