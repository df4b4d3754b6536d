"""The `expert` level: `hard`'s search with the evaluation trained by bench/train_expert.py."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from test_search_hooks import positions

from intrigue.bots import make_bot
from intrigue.bots.expert import (
    WEIGHTS_DIR,
    ExpertBot,
    ValueModel,
    feature_module,
    model_evaluation,
    scaled,
    shipped_model,
)
from intrigue.bots.heuristic import search_hooks
from intrigue.bots.match import bot_move
from intrigue.engine import Rng

SHIPPED = sorted(path.stem for path in WEIGHTS_DIR.glob("*.json"))


@pytest.mark.parametrize("game_id", SHIPPED)
def test_shipped_weights_record_how_to_reproduce_them(game_id: str) -> None:
    data = json.loads((WEIGHTS_DIR / f"{game_id}.json").read_text())
    assert data["game"] == game_id
    assert f"--game {game_id}" in data["command"] and "--seed" in data["command"]
    assert data["settings"]["seed"] == data["seed"]
    assert {"rounds", "games", "iterations", "hidden", "l2", "match"} <= set(data["settings"])
    assert len(data["rounds"]) == data["settings"]["rounds"]
    model = shipped_model(game_id)
    assert model is not None
    assert len(model.w) == len(feature_module(game_id).WEIGHTS)
    assert model.hidden.shape == (len(model.out), len(model.w))


@pytest.mark.parametrize("game_id", SHIPPED)
def test_expert_decides_legally_with_the_shipped_weights(game_id: str) -> None:
    state = positions(game_id, 3, 2)[20]
    seat = state.to_move[0]
    bot = make_bot("expert:iterations=30")
    assert isinstance(bot, ExpertBot)
    action = bot_move(bot, state, seat, Rng(2))
    assert action in state.legal_actions(seat)
    assert bot_move(bot, state, seat, Rng(2)) == action  # reproducible for a seed
    # and the search scores positions with the shipped model
    evaluate = bot.hooks(game_id).evaluate
    shipped = model_evaluation(shipped_model(game_id), feature_module(game_id).features)
    for state in positions(game_id, 4, 2)[::9]:
        values = evaluate(state)
        assert values == pytest.approx(shipped(state))
        assert len(values) == 2 and values[0] == pytest.approx(-values[1])
        assert -1.0 <= values[0] <= 1.0


@pytest.mark.parametrize(
    "game_id", ["masquerade-ball", "project-assassination", "shadows-over-japan"]
)
def test_an_untrained_model_is_hards_evaluation(game_id: str) -> None:
    """Training starts from `hard`'s logistic weights with silent hidden units."""
    module = feature_module(game_id)
    model = ValueModel.linear(module.WEIGHTS, hidden=4)
    ours = model_evaluation(model, module.features)
    theirs = search_hooks(game_id).evaluate
    for state in positions(game_id, 5, 2)[::6]:
        assert ours(state) == pytest.approx(theirs(state))


def test_expert_searches_with_the_model_it_is_given() -> None:
    """A model with hidden units (as training hands candidates over) scores the leaves."""
    module = feature_module("project-assassination")
    rng = np.random.default_rng(1)
    d = len(module.WEIGHTS)
    model = ValueModel(np.asarray(module.WEIGHTS), rng.normal(size=(4, d)), np.zeros(4), np.ones(4))
    bot = ExpertBot(iterations=30, model=model)
    evaluate = bot.hooks("project-assassination").evaluate
    hard = search_hooks("project-assassination").evaluate
    seen = positions("project-assassination", 4, 2)
    assert any(evaluate(s) != pytest.approx(hard(s)) for s in seen[::9])
    state = seen[20]
    seat = state.to_move[0]
    action = bot_move(bot, state, seat, Rng(2))
    assert action in state.legal_actions(seat)
    assert bot_move(bot, state, seat, Rng(2)) == action


def test_the_hidden_units_change_the_value() -> None:
    model = ValueModel(np.zeros(2), np.eye(2), np.zeros(2), np.array([2.0, 0.0]))
    assert model.logits(np.array([[1.0, 0.0], [0.0, 1.0]])) == pytest.approx([2 * np.tanh(1), 0])
    again = ValueModel.from_json(json.loads(json.dumps(model.to_json())))
    assert np.allclose(again.logits(np.eye(2)), model.logits(np.eye(2)))


def test_a_game_without_weights_plays_as_hard() -> None:
    assert shipped_model("masquerade-murder") is None
    assert ExpertBot().hooks("masquerade-murder") is search_hooks("masquerade-murder")


def test_scale_sharpens_hards_evaluation_by_its_factor() -> None:
    """``expert:scale=2`` with no trained weights doubles the logits of `hard`'s evaluation."""
    module = feature_module("project-assassination")
    evaluate = make_bot("expert:scale=2").hooks("project-assassination").evaluate
    w = np.asarray(module.WEIGHTS)
    for state in positions("project-assassination", 4, 2)[::9]:
        z = [2 * w @ np.asarray(module.features(state, s)) for s in (0, 1)]
        expected = 0.5 * (np.tanh(z[0] / 2) - np.tanh(z[1] / 2))
        assert evaluate(state) == pytest.approx([expected, -expected])


def test_weights_file_is_loaded_from_the_setting(tmp_path: Any) -> None:
    module = feature_module("project-assassination")
    model = ValueModel.linear([2 * w for w in module.WEIGHTS])
    path = tmp_path / "candidate.json"
    path.write_text(json.dumps({"model": model.to_json()}))
    from_file = make_bot(f"expert:weights={path}").hooks("project-assassination").evaluate
    doubled = ExpertBot(scale=2).hooks("project-assassination").evaluate
    for state in positions("project-assassination", 4, 2)[::9]:
        assert from_file(state) == pytest.approx(doubled(state))


def test_scale_must_be_positive() -> None:
    with pytest.raises(ValueError, match="scale"):
        ExpertBot(scale=0)


@pytest.mark.parametrize("players", [2, 4])
def test_every_seats_features_at_once_score_as_each_seats_own(players: int) -> None:
    """Where the game computes every seat's features at once (the Ball's `seat_features`),
    the expert's evaluation reads them so, with the values of the seats' features one by one."""
    module = feature_module("masquerade-ball")
    model = scaled(ValueModel.linear(module.WEIGHTS), 2.0)
    one_by_one = model_evaluation(model, module.features)
    evaluate = ExpertBot(iterations=30, scale=2.0).hooks("masquerade-ball").evaluate
    for state in positions("masquerade-ball", 6, players)[::7]:
        assert evaluate(state) == pytest.approx(one_by_one(state))
