"""Perfect recall in the PettingZoo and Gymnasium environments (``history=True``): the seat's
tensor followed by its History of decisions. Distinct information states never share an
observation, a resampled state (what the seat knows, the rest redrawn) gives the same one,
and PettingZoo's API test, SB3's check_env and `evaluate` take it."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from interop_support import CONFIG_IDS, CONFIGS, short  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import intrigue  # noqa: E402
from intrigue.engine import Rng  # noqa: E402
from intrigue.interop import common, evaluate  # noqa: E402
from intrigue.interop.evaluation import random_policy  # noqa: E402
from intrigue.interop.gymnasium import SingleAgentEnv  # noqa: E402
from intrigue.interop.observations import SeatTensors  # noqa: E402
from intrigue.interop.pettingzoo import env, raw_env  # noqa: E402
from intrigue.interop.tensors import encoder  # noqa: E402

# Games per configuration: Project Assassination's tensor alone merges 1.3% of information
# states (docs/interop.md), so its random games show the History is needed.
GAMES = {"project-assassination": 25, "masquerade-murder": 4}


def _random_decisions(raw, seed):
    """Play one seeded random game in ``raw``; yield (agent, observation) at each decision,
    before the random legal action is played."""
    raw.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in raw.agent_iter():
        observation, _, terminated, truncated, _ = raw.last()
        if terminated or truncated:
            raw.step(None)
            continue
        yield agent, observation
        raw.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_history_observations_have_perfect_recall_and_leak_nothing(game_id, players):
    turns = short(game_id)
    raw = raw_env(game_id, players=players, max_turns=turns, history=True)
    game = raw.game
    rows = common.max_game_length(game, players, turns, raw.max_decisions)
    size = encoder(game_id).size + rows * (players + 2)
    assert raw.observation_space("player_0")["observation"].shape == (size,)
    seen: dict[bytes, set[str]] = {}
    for seed in range(GAMES.get(game_id, 3)):
        for agent, observation in _random_decisions(raw, seed):
            state, seat = raw.intrigue_state, raw.seats[agent]
            tensor = observation["observation"]
            assert raw.observation_space(agent).contains(observation)
            key = tensor.tobytes()
            seen.setdefault(key, set()).add(common.information_state_string(state, seat))
            if state.actions_played % 4 == 0:
                sample = state.determinize(seat, Rng(seed + state.actions_played))
                fresh = SeatTensors(game, players, turns, raw.max_decisions, history=True)
                assert np.array_equal(fresh.tensor(sample, seat), tensor)
    assert all(len(strings) == 1 for strings in seen.values())


def test_without_history_project_assassination_merges_information_states():
    """The control: the plain tensor does merge some, which is what the History is for."""
    raw = raw_env("project-assassination", max_turns=short("project-assassination"))
    seen: dict[bytes, set[str]] = {}
    for seed in range(GAMES["project-assassination"]):
        for agent, observation in _random_decisions(raw, seed):
            key = observation["observation"].tobytes()
            string = common.information_state_string(raw.intrigue_state, raw.seats[agent])
            seen.setdefault(key, set()).add(string)
    assert any(len(strings) > 1 for strings in seen.values())


@pytest.mark.parametrize("game_id", ["masquerade-murder", "project-assassination"])
def test_pettingzoo_api_test_with_history(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the dict-observation warnings (see the env tests)
        api_test(env(game_id, max_turns=short(game_id), history=True), num_cycles=60)


def test_gymnasium_history_passes_check_env_and_matches_pettingzoo():
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    game_id = "project-assassination"
    gym = SingleAgentEnv(game_id, opponent="random", seat=0, max_turns=3, history=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env_checker.check_env(gym)
    assert [str(w.message) for w in caught] == []
    observation, _ = gym.reset(seed=5)
    raw = raw_env(game_id, max_turns=3, history=True)
    assert raw.observation_space("player_0")["observation"] == gym.observation_space
    raw.reset()
    raw._state = gym.intrigue_state  # the same position, seen through the other env
    assert np.array_equal(raw.observe("player_0")["observation"], observation)


@pytest.mark.parametrize("game_id", ["masquerade-murder", "masquerade-ball"])
def test_history_observation_is_openspiels_perfect_recall_tensor(game_id):
    """The same game through both adapters: PettingZoo's history observation equals
    OpenSpiel's information-state tensor with infostate_history at every decision."""
    openspiel = pytest.importorskip("intrigue.interop.openspiel")
    turns = short(game_id)
    raw = raw_env(game_id, max_turns=turns, history=True)
    spiel = openspiel.load_game(game_id, max_turns=turns, infostate_history=True)
    raw.reset(seed=11)
    spiel_state = spiel.new_initial_state()
    for digit in openspiel.seed_digits(raw.intrigue_state.seed):
        spiel_state.apply_action(digit)
    rng = np.random.default_rng(11)
    for agent in raw.agent_iter():
        observation, _, terminated, truncated, _ = raw.last()
        if terminated or truncated:
            raw.step(None)
            continue
        seat = raw.seats[agent]
        assert spiel_state.current_player() == seat
        expected = np.asarray(spiel_state.information_state_tensor(seat), np.float32)
        assert np.array_equal(observation["observation"], expected)
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        raw.step(action)
        spiel_state.apply_action(action)


def test_evaluate_feeds_a_policy_the_history_observation():
    game_id = "masquerade-murder"
    sizes = set()
    policy = random_policy(3)

    def recording(observation, mask):
        sizes.add(observation.shape)
        return policy(observation, mask)

    evaluate(recording, game_id, opponents=("random",), games=2, max_turns=2, history=True)
    rows = common.max_game_length(intrigue.load(game_id), 5, 2, 30)
    assert sizes == {(encoder(game_id).size + rows * 7,)}


def test_history_needs_a_finite_max_turns():
    with pytest.raises(ValueError, match="finite max_turns"):
        raw_env("masquerade-ball", max_turns=None, history=True)
