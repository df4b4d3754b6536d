"""``intrigue balance`` from the command line: tables, files, exit codes."""

import json

import intrigue
from intrigue.cli.main import default_max_turns, main


def test_balance_command_prints_tables_and_writes_the_report(tmp_path, capsys):
    out = tmp_path / "out"
    argv = ["balance", "masquerade-murder", "--games", "4", "--bots", "heuristic,random"]
    argv += ["--option", "max_turns=3", "--vs-option", "board=ring12", "--seed", "7"]
    assert main([*argv, "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for text in ("Rule set base", "win rate by role", "skill trace", "vs against base", "nights"):
        assert text in printed
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["options"] == {"max_turns": "3"}
    assert report["config"]["vs_options"] == {"board": "ring12"}
    assert report["variants"]["vs"]["finished"] == 4
    # Resuming a finished run plays nothing and reports the same.
    assert main([*argv, "--workers", "1", "--out", str(out), "--resume"]) == 0
    assert "Played 0 games (8 kept" in capsys.readouterr().out.replace("\n", " ")
    again = json.loads((out / "report.json").read_text())
    assert {k: v for k, v in again.items() if k != "run"} == {
        k: v for k, v in report.items() if k != "run"
    }


def test_balance_caps_games_by_default_and_names_first_player(tmp_path, capsys):
    out = tmp_path / "pa"
    argv = ["balance", "project-assassination", "--games", "3", "--workers", "1"]
    assert main([*argv, "--out", str(out)]) == 0
    assert "first player wins" in capsys.readouterr().out
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["options"]["max_turns"] == "300"


def test_balance_command_rejects_bad_input(tmp_path, capsys):
    base = ["balance", "masquerade-murder", "--games", "2", "--out", str(tmp_path)]
    assert main([*base, "--bots", "genius"]) == 2
    assert "genius" in capsys.readouterr().err
    assert main([*base, "--option", "board=square"]) == 2
    assert "board" in capsys.readouterr().err
    assert main([*base, "--vs-players", "3"]) == 2
    assert main([*base, "--games", "0"]) == 2
    assert main([*base, "--ray-address", "auto"]) == 2
    assert main([*base, "--bot-plugin", "nonsense"]) == 2


def test_balance_resume_with_other_settings_is_a_usage_error(tmp_path, capsys):
    base = ["balance", "masquerade-murder", "--games", "1", "--workers", "1"]
    base += ["--option", "max_turns=2", "--out", str(tmp_path)]
    assert main([*base, "--bots", "random"]) == 0
    capsys.readouterr()
    assert main([*base, "--bots", "heuristic", "--resume"]) == 2
    assert "other settings" in capsys.readouterr().err


def test_balance_never_writes_over_a_run_unless_asked(tmp_path, capsys):
    argv = ["balance", "project-assassination", "--games", "2", "--workers", "1"]
    argv += ["--bots", "random", "--option", "max_turns=10", "--out", str(tmp_path)]
    assert main(argv) == 0
    before = (tmp_path / "games.jsonl").read_text()
    capsys.readouterr()
    assert main([*argv, "--games", "3"]) == 2
    assert "already holds a run" in " ".join(capsys.readouterr().err.split())
    assert (tmp_path / "games.jsonl").read_text() == before  # untouched
    assert main([*argv, "--resume", "--overwrite"]) == 2
    assert main([*argv, "--games", "3", "--overwrite"]) == 0
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 3


def test_balance_studies_from_the_command_line(tmp_path, capsys):
    base = ["balance", "project-assassination", "--games", "2", "--workers", "1"]
    base += ["--option", "max_turns=10", "--eval-games", "1", "--eval-points", "3"]
    argv = [*base, "--bots", "heuristic", "--strategies", "cage", "--out", str(tmp_path / "s")]
    assert main(argv) == 0
    printed = capsys.readouterr().out
    assert "Verdict" in printed and "Restricted play (heuristic)" in " ".join(printed.split())
    report = json.loads((tmp_path / "s" / "report.json").read_text())
    assert [e["variant"] for e in report["strategies"]["entries"]] == ["never:cage", "prefer:cage"]
    assert report["variants"]["base"]["evaluation"]["games"] == 1
    sweep = [*base, "--bots", "random", "--sweep", "cage=until_next_turn,permanent"]
    assert main([*sweep, "--out", str(tmp_path / "w")]) == 0
    assert "cage=permanent against cage=until_next_turn" in " ".join(
        capsys.readouterr().out.split()
    )
    # Bad studies are usage errors.
    for bad in (
        ["--bots", "heuristic,random", "--strategies"],
        ["--bots", "heuristic", "--strategies", "fly"],
        ["--sweep", "cage=permanent"],
        ["--sweep", "cage=until_next_turn,permanent", "--vs-option", "cage=permanent"],
        ["--skill-trace", "lots"],
    ):
        assert main([*base, *bad, "--out", str(tmp_path / "bad")]) == 2, bad
        assert capsys.readouterr().err


def test_the_default_cap_grows_with_the_players(tmp_path, capsys):
    """150 turns a player: a four-player ball needs about twice a two-player one's turns
    (docs/games/masquerade-ball.md), so one cap of 200 cut off a third of them."""
    out = tmp_path / "ball4"
    argv = ["balance", "masquerade-ball", "--games", "1", "--players", "4", "--bots", "random"]
    argv += ["--vs-players", "2"]
    assert main([*argv, "--workers", "1", "--eval-games", "0", "--out", str(out)]) == 0
    report = json.loads((out / "report.json").read_text())
    assert report["config"]["options"]["max_turns"] == "600"
    assert report["config"]["vs_options"]["max_turns"] == "300"  # the two-player rule set's
    game = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    assert game["turns"] <= 600


def test_default_caps_of_arena_balance_and_ladder():
    ball = intrigue.load("masquerade-ball")
    assert [default_max_turns(ball, n) for n in (2, 3, 4)] == ["300", "450", "600"]
    assert default_max_turns(ball, None) == "300"  # the fewest players
    assert default_max_turns(intrigue.load("masquerade-murder"), 5) == "15"  # nights
