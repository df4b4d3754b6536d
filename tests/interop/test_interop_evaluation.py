"""The evaluation protocol: win rates against the built-in bots with rotated seats and Wilson
intervals, for tensor policies (PettingZoo/Gymnasium), OpenSpiel agents and bots."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

from intrigue.interop import evaluate  # noqa: E402
from intrigue.interop.evaluation import AlwaysEnd, random_policy  # noqa: E402
from intrigue.lab.stats import wilson_interval  # noqa: E402


def test_scores_rotate_seats_and_carry_wilson_intervals():
    result = evaluate("always-end", "project-assassination", ("random",), games=6, max_turns=8)
    (score,) = result.scores
    assert score.games == 6 and sorted(score.by_seat) == [0, 1]
    assert score.points == sum(score.by_seat.values())
    assert score.interval == wilson_interval(score.points, 6)
    assert "| always-end | random | 6 |" in result.markdown()
    assert result.to_json()["scores"][0]["ci95"] == list(score.interval)


def test_always_end_beats_random_in_project_assassination():
    """The issue's point: beating random means nothing there; the trivial policy does it."""
    result = evaluate("always-end", "project-assassination", ("random",), games=30, max_turns=20)
    assert result.scores[0].rate > 0.8


def test_a_tensor_policy_sees_legal_masks_and_is_reproducible():
    seen = []

    def first_legal(observation, mask):
        seen.append((observation.shape, mask.sum()))
        return int(np.flatnonzero(mask)[0])

    a = evaluate(first_legal, "masquerade-murder", ("random",), games=3, max_turns=2)
    assert seen and all(shape == (668,) and legal > 0 for shape, legal in seen)
    b = evaluate(first_legal, "masquerade-murder", ("random",), games=3, max_turns=2)
    assert a.to_json() == b.to_json()
    r = evaluate(random_policy(1), "masquerade-murder", ("random",), games=3, max_turns=2)
    assert r.scores[0].games == 3


def test_the_same_policy_as_a_bot_or_as_an_openspiel_policy_scores_the_same():
    pytest.importorskip("pyspiel")
    from open_spiel.python import policy as os_policy

    from intrigue.interop import openspiel

    class FirstLegal(os_policy.Policy):
        def action_probabilities(self, state, player_id=None):
            legal = state.legal_actions()
            return {a: float(a == legal[0]) for a in legal}

    game = openspiel.load_game("project-assassination", max_turns=6)
    spiel = evaluate(
        FirstLegal(game, [0, 1]), "project-assassination", ("medium",), games=4, max_turns=6
    )
    lowest = evaluate(
        lambda obs, mask: int(np.flatnonzero(mask)[0]),
        "project-assassination",
        ("medium",),
        games=4,
        max_turns=6,
    )
    assert spiel.scores[0].to_json() == lowest.scores[0].to_json()


def test_always_end_ends_when_it_may():
    from intrigue.engine import Action, Rng

    bot = AlwaysEnd()
    legal = [Action("move", "a1"), Action("end")]
    assert bot.choose({"game": "project-assassination"}, legal, Rng(0)) == Action("end")
