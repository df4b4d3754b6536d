"""The PettingZoo adapter: PettingZoo's API, seed and parallel tests for every game, plus
rewards, masks, truncation and rendering."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from interop_support import CONFIG_IDS, CONFIGS, short  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import turn_based_aec_to_parallel  # noqa: E402

import intrigue  # noqa: E402
from intrigue.interop.pettingzoo import env, raw_env  # noqa: E402
from intrigue.interop.tensors import encoder  # noqa: E402

# Dict observations ({"observation", "action_mask"}) are PettingZoo's own convention for
# board games, yet its API test warns about them as it does for its classic environments.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


def _unexpected(caught):
    return [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_api_test(game_id, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(game_id, players=players, max_turns=short(game_id)), num_cycles=100)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_seed_test(game_id, players):
    seed_test(lambda: env(game_id, players=players, max_turns=short(game_id)), num_cycles=50)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_parallel_api_test(game_id, players):
    parallel = turn_based_aec_to_parallel(env(game_id, players=players, max_turns=short(game_id)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel, num_cycles=200)
    assert _unexpected(caught) == []


def _play_out(e, seed):
    rng = np.random.default_rng(seed)
    finals = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            finals[agent] = (reward, terminated, truncated)
            e.step(None)
            continue
        mask = obs["action_mask"]
        e.step(int(rng.choice(np.flatnonzero(mask))))
    return finals


def test_rewards_are_the_outcome_and_a_cap_truncates():
    e = raw_env("project-assassination", max_turns=2)
    e.reset(seed=3)
    state = e.intrigue_state
    finals = _play_out(e, 0)
    assert state.outcome.capped
    assert finals == {
        f"player_{seat}": (state.outcome.returns[seat], False, True) for seat in range(2)
    }


def test_a_game_ended_by_its_rules_terminates():
    e = raw_env("masquerade-murder", max_turns=60)
    for seed in range(20):
        e.reset(seed=seed)
        state = e.intrigue_state
        finals = _play_out(e, seed)
        if not state.outcome.capped:
            break
    assert not state.outcome.capped
    assert all(terminated and not truncated for _, terminated, truncated in finals.values())
    assert {a: r for a, (r, _, _) in finals.items()} == {
        f"player_{s}": state.outcome.returns[s] for s in range(5)
    }


def test_observation_is_the_seat_tensor_and_the_mask_its_legal_actions():
    e = raw_env("masquerade-murder", max_turns=2)
    e.reset(seed=1)
    state = e.intrigue_state
    game = intrigue.load("masquerade-murder")
    for agent in e.agents:
        seat = e.seats[agent]
        obs = e.observe(agent)
        assert np.array_equal(obs["observation"], encoder(game.id).encode(state.view(seat)))
        legal = {game.action_index(a) for a in state.legal_actions(seat)}
        expected = legal if agent == e.agent_selection else set()
        assert set(np.flatnonzero(obs["action_mask"])) == expected


def test_same_seed_same_game_and_unseeded_resets_follow_the_seed():
    a, b = raw_env("shadows-over-japan", players=3), raw_env("shadows-over-japan", players=3)
    a.reset(seed=9)
    b.reset(seed=9)
    assert a.intrigue_state.record() == b.intrigue_state.record()
    a.reset()
    b.reset()
    assert a.intrigue_state.seed == b.intrigue_state.seed
    a.reset(seed=10)
    assert a.intrigue_state.seed != b.intrigue_state.seed


def test_render_ansi_draws_the_spectator_view():
    e = env("masquerade-murder", render_mode="ansi", max_turns=2)
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str)
    assert "Masquerade Murder" in text
    assert "\x1b[" not in text  # plain text, no terminal colour codes
    with pytest.raises(ValueError):
        raw_env("masquerade-murder", render_mode="human")


def test_bad_options_fail_at_construction():
    with pytest.raises(intrigue.InvalidOption):
        raw_env("masquerade-murder", board="hexagon")
    with pytest.raises(intrigue.InvalidOption):
        raw_env("masquerade-ball", players=5)
