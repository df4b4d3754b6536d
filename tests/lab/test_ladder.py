"""The ladder: a round robin of bots rated by a Bradley-Terry fit, from the command line too."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from intrigue.cli.main import main
from intrigue.lab.ladder import (
    ELO,
    LadderSpec,
    bootstrap_intervals,
    fit_elo,
    ladder_tasks,
    pair_score,
    run_ladder,
    seat_bots,
    team_bots,
)


def test_the_two_bots_of_a_pair_take_turns_on_the_seats_and_swap_sides():
    assert seat_bots(("a", "b"), 2, 0) == ("a", "b")
    assert seat_bots(("a", "b"), 2, 1) == ("b", "a")
    assert seat_bots(("a", "b"), 5, 0) == ("a", "b", "a", "b", "a")
    assert seat_bots(("a", "b"), 5, 1) == ("b", "a", "b", "a", "b")
    # Even numbers of players keep that pattern game after game.
    assert seat_bots(("a", "b"), 4, 6) == ("a", "b", "a", "b")
    assert seat_bots(("a", "b"), 2, 7) == ("b", "a")


@pytest.mark.parametrize("players", [3, 5])
def test_with_an_odd_number_of_players_the_seats_go_round_the_table(players):
    """Every two games the pattern turns by a seat: over 2 x players games each seat holds
    each bot as often, and the bot with fewer seats holds each seat in turn (with three
    players not always the middle one)."""
    games = [seat_bots(("a", "b"), players, index) for index in range(2 * players)]
    for seat in range(players):
        assert [game[seat] for game in games].count("a") == players
    lone = {
        seat for game in games for seat, bot in enumerate(game) if game.count(bot) == players // 2
    }
    assert lone == set(range(players))
    assert seat_bots(("a", "b"), 3, 2) == ("a", "a", "b")
    assert seat_bots(("a", "b"), 3, 3) == ("b", "b", "a")


def test_every_pair_plays_the_same_seeds():
    tasks = ladder_tasks(LadderSpec("project-assassination", ("x", "y", "z"), 3, 10, 2))
    assert len(tasks) == 3 * 3
    by_pair: dict[str, list[int]] = {}
    for task in tasks:
        by_pair.setdefault(task.variant, []).append(task.seed)
    assert by_pair == {"x vs y": [10, 11, 12], "x vs z": [10, 11, 12], "y vs z": [10, 11, 12]}
    # deal by deal: a ladder stopped after any number of games is balanced between the pairs
    assert [task.variant for task in tasks[:3]] == ["x vs y", "x vs z", "y vs z"]
    assert [task.seed for task in tasks] == [10, 10, 10, 11, 11, 11, 12, 12, 12]


def test_a_game_goes_to_the_bot_whose_seats_did_better_on_average():
    row = {"bots": ["a", "b", "a", "b", "a"], "results": [1.0, 1.0, 1.0, 0.0, 0.0]}
    assert pair_score(row, ("a", "b")) == 1.0  # two wins in three seats against one in two
    row = {"bots": ["a", "b", "a", "b", "a"], "results": [1.0, 1.0, 0.0, 1.0, 0.0]}
    assert pair_score(row, ("a", "b")) == 0.0
    row = {"bots": ["b", "a"], "results": [0.5, 0.5]}
    assert pair_score(row, ("a", "b")) == 0.5


def test_by_team_one_bot_holds_a_team_and_the_other_the_rest_then_the_other_way_round():
    teams = ["evil", "thug", "good", "evil", "good"]
    assert team_bots(("a", "b"), teams, 0) == ("a", "b", "b", "a", "b")
    assert team_bots(("a", "b"), teams, 1) == ("b", "a", "a", "b", "a")


def test_by_team_each_deal_is_played_both_ways_with_the_bots_on_its_teams():
    """Two games per deal, on one seed: the first bot holds exactly the seats of one team of
    the deal (its roles read from every seat's own view) in one game and the rest in the
    other."""
    import intrigue
    from intrigue.lab.facts import dealt_teams

    spec = LadderSpec("masquerade-murder", ("a", "b"), 6, 40, 5, {"max_turns": 3}, by_team=True)
    tasks = ladder_tasks(spec)
    assert [t.seed for t in tasks] == [40, 40, 41, 41, 42, 42]
    game = intrigue.load("masquerade-murder")
    for first, second in zip(tasks[::2], tasks[1::2], strict=True):
        teams = dealt_teams(game.new(5, first.seed, max_turns=3))
        assert teams is not None and sorted(set(teams)) == ["evil", "good", "thug"]
        held = {teams[s] for s, bot in enumerate(first.bots) if bot == "a"}
        assert held == {"evil"}  # the first of the two largest teams, by name
        assert second.bots == tuple("b" if bot == "a" else "a" for bot in first.bots)


def test_by_team_the_bot_whose_team_won_wins_the_game():
    """Seated by team, "whose seats did better on average" is whose team won, whatever
    became of the Thug (the seat of no team)."""
    bots = ["a", "b", "b", "a", "b"]  # a: evil (seats 0, 3); b: good (2, 4) and the Thug (1)
    for thug in (0.0, 1.0):
        evil_won = {"bots": bots, "results": [1.0, thug, 0.0, 1.0, 0.0]}
        good_won = {"bots": bots, "results": [0.0, thug, 1.0, 0.0, 1.0]}
        assert pair_score(evil_won, ("a", "b")) == 1.0
        assert pair_score(good_won, ("a", "b")) == 0.0


def test_a_ladder_by_team_decides_every_game():
    """One team wins every Masquerade Murder ball (Good when the Duke lives to the cap), so
    every game by team goes to one bot or the other."""
    spec = LadderSpec(
        "masquerade-murder", ("random", "heuristic"), 6, 7, 5, {"max_turns": 3}, by_team=True
    )
    ladder = run_ladder(spec)
    assert ladder.games == 6 and not ladder.errors
    assert all(score in (0.0, 1.0) for score in ladder.scores[("random", "heuristic")])


def test_by_team_needs_a_game_with_teams(capsys):
    assert main(["ladder", "project-assassination", "--by-team", "--games", "2"]) == 2
    assert "--by-team" in capsys.readouterr().err


def test_the_fit_recovers_the_elo_gap_of_a_known_win_rate():
    """A beats B three games in four: 400 log10(3) = 191 Elo (a little less with the fit's one
    virtual draw); the first bot is the anchor."""
    ratings = fit_elo(["b", "a"], {("a", "b"): [1.0] * 300 + [0.0] * 100})
    assert ratings["b"] == 0.0
    assert ratings["a"] == pytest.approx(ELO * math.log(300.5 / 100.5), abs=0.5)
    assert 185 < ratings["a"] < 191


def test_a_chain_of_results_orders_the_ladder_and_a_clean_sweep_stays_finite():
    scores = {
        ("easy", "medium"): [0.0] * 20,
        ("easy", "hard"): [0.0] * 20,
        ("medium", "hard"): [0.0] * 5 + [1.0] * 3 + [0.5] * 2,
    }
    ratings = fit_elo(["easy", "medium", "hard"], scores)
    assert 0.0 == ratings["easy"] < ratings["medium"] < ratings["hard"] < 2000
    intervals = bootstrap_intervals(["easy", "medium", "hard"], scores, samples=100)
    assert intervals["easy"] == (0.0, 0.0)
    for bot in ("medium", "hard"):
        low, high = intervals[bot]
        assert low <= ratings[bot] <= high


@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=30))
def test_swapping_the_pair_mirrors_the_ratings(games):
    forward = fit_elo(["a", "b"], {("a", "b"): games})
    backward = fit_elo(["a", "b"], {("b", "a"): [1.0 - g for g in games]})
    assert forward["b"] == pytest.approx(backward["b"], abs=1e-6)
    # More points for b, a higher rating.
    assert (forward["b"] > 1e-9) == (sum(games) < len(games) / 2 - 1e-9)


def test_the_ladder_command_plays_rates_and_resumes(tmp_path, capsys):
    out = tmp_path / "ladder"
    args = [
        "ladder",
        "project-assassination",
        "--bots",
        "random,heuristic",
        "--games",
        "2",
        "--seed",
        "4",
        "--option",
        "max_turns=20",
        "--out",
        str(out),
        "--json",
        str(tmp_path / "ladder.json"),
    ]
    assert main(args) == 0
    result = json.loads((tmp_path / "ladder.json").read_text())
    assert result["games"] == 2 and result["anchor"] == "random"
    assert result["ratings"]["random"]["elo"] == 0.0
    assert result["ratings"]["heuristic"]["games"] == 2
    printed = capsys.readouterr().out
    assert "Elo" in printed and "random vs heuristic" in printed
    rows = (out / "games.jsonl").read_text().splitlines()
    assert len(rows) == 2
    # Resumed: nothing left to play, the same ratings.
    assert main([*args, "--resume"]) == 0
    assert json.loads((tmp_path / "ladder.json").read_text()) == result
    assert (out / "games.jsonl").read_text().splitlines() == rows


class FirstMove:
    """A bot of the user's own for the plugin test: always the first legal move."""

    name = "first"

    def choose(self, view, legal_actions, rng):
        return legal_actions[0]


def test_a_bot_of_ones_own_joins_the_ladder_as_a_plugin_in_every_worker(tmp_path, capsys):
    # Workers are fresh interpreters: the bot reaches them by its import path only.
    args = [
        "ladder",
        "project-assassination",
        "--bot-plugin",
        f"first={FirstMove.__module__}:FirstMove",
        "--bots",
        "heuristic,first",
        "--games",
        "4",
        "--workers",
        "2",
        "--option",
        "max_turns=20",
        "--out",
        str(tmp_path / "ladder"),
        "--json",
        str(tmp_path / "ladder.json"),
    ]
    assert main(args) == 0
    result = json.loads((tmp_path / "ladder.json").read_text())
    assert result["errors"] == 0 and result["pairs"]["heuristic vs first"]["games"] == 4
    lines = (tmp_path / "ladder" / "games.jsonl").read_text().splitlines()
    rows = [json.loads(line) for line in lines]
    assert sorted(bot for row in rows for bot in row["bots"]) == ["first"] * 4 + ["heuristic"] * 4
    # The heuristic, which aims, beats a bot that always plays its first legal move.
    assert result["ratings"]["heuristic"]["score"] > 0.5


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bots", "random"], "two different bots"),
        (["--bots", "random,random"], "two different bots"),
        (["--games", "0"], "at least 1"),
        (["--resume"], "--resume needs --out"),
        (["--players", "5"], "--players"),
        (["--bot-plugin", "nonsense"], "NAME=MODULE:ATTR"),
        (["--bot-plugin", "mine=no_such_module:Bot", "--bots", "random,mine"], "--bots"),
    ],
)
def test_the_ladder_command_refuses_bad_arguments(extra, message, capsys):
    assert main(["ladder", "project-assassination", *extra]) == 2
    assert message in capsys.readouterr().err
