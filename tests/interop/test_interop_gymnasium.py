"""The single-agent Gymnasium environment: Stable-Baselines3's ``check_env`` and Gymnasium's own
checker on every game and player count, registration, rewards, illegal moves and masks."""

from __future__ import annotations

import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium")
np = pytest.importorskip("numpy")

from interop_support import CONFIG_IDS, CONFIGS, short  # noqa: E402

import intrigue  # noqa: E402
from intrigue.engine import game_ids  # noqa: E402
from intrigue.interop.gymnasium import SingleAgentEnv, env_id  # noqa: E402


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_stable_baselines3_check_env(game_id, players):
    env_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = SingleAgentEnv(game_id, opponent="random", players=players, max_turns=short(game_id))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env_checker.check_env(env)
    assert [str(w.message) for w in caught] == []


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_gymnasium_check_env(game_id, players):
    from gymnasium.utils.env_checker import check_env

    made = gymnasium.make(
        f"intrigue.interop.gymnasium:{env_id(game_id)}",
        opponent="random",
        players=players,
        max_turns=short(game_id),
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(made.unwrapped)  # it steps random actions: most are illegal and end the game
    assert [str(w.message) for w in caught] == []


def test_gymnasium_make_finds_every_game():
    for game_id in game_ids():
        env = gymnasium.make(f"intrigue.interop.gymnasium:{env_id(game_id)}", max_turns=2)
        assert env.unwrapped.game.id == game_id
    assert env_id("project-assassination") == "intrigue/ProjectAssassination-v0"


def _play(env, seed, policy=None):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(0 if seed is None else seed)
    total, done = 0.0, False
    while not done:
        assert env.observation_space.contains(obs)
        legal = np.flatnonzero(info["action_mask"])
        assert np.array_equal(legal, np.flatnonzero(env.action_masks()))
        action = int(rng.choice(legal)) if policy is None else policy(legal)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    return total, terminated, truncated, info


def test_the_learner_plays_its_seat_and_gets_its_return():
    env = SingleAgentEnv("masquerade-murder", opponent="random", max_turns=3)
    seats = set()
    for seed in [7, None, None, None, None]:  # seeded once, then the seats rotate
        total, terminated, truncated, _ = _play(env, seed)
        state = env.intrigue_state
        seats.add(env.seat)
        # Masquerade Murder's night limit is a rule: always a real ending.
        assert terminated and not truncated
        assert total == state.outcome.returns[env.seat]
        # Every decision of the learner's seat came through step().
        assert all(seat == env.seat or seat in range(5) for seat, _ in state.history)
    assert len(seats) == 5  # one episode per seat, rotating


def test_a_cap_the_game_does_not_define_truncates():
    env = SingleAgentEnv("project-assassination", opponent="random", seat=0, max_turns=2)
    total, terminated, truncated, info = _play(env, 1)
    assert truncated and not terminated and total == 0.0
    assert info["outcome"]["capped"]


def test_an_illegal_action_ends_the_episode_with_minus_one():
    env = SingleAgentEnv("project-assassination", opponent="random", seat=0, max_turns=4)
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    before = env.intrigue_state.record()
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal"]) == (-1.0, True, False, True)
    assert env.intrigue_state.record() == before
    with pytest.raises(TypeError, match="integer"):
        env.step(2.7)


def test_opponents_are_bots_and_seeds_reproduce():
    a = SingleAgentEnv("project-assassination", opponent="medium", max_turns=6)
    b = SingleAgentEnv("project-assassination", opponent="medium", max_turns=6)
    first = [_play(a, s, policy=lambda legal: int(legal[0]))[:3] for s in (4, None)]
    second = [_play(b, s, policy=lambda legal: int(legal[0]))[:3] for s in (4, None)]
    assert first == second
    assert a.intrigue_state.record() == b.intrigue_state.record()
    with pytest.raises(intrigue.bots.UnknownBot):
        SingleAgentEnv("project-assassination", opponent="grandmaster")
