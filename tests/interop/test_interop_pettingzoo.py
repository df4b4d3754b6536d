"""The PettingZoo adapter: PettingZoo's own API, parallel, seed and render tests for every game
and player count, the classic environments' conventions (wrappers, illegal moves, versioned
modules), rewards, endings, masks and rendering."""

from __future__ import annotations

import functools
import io
import warnings

import pytest

pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from interop_support import CONFIG_IDS, CONFIGS, short  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, render_test, seed_test  # noqa: E402

import intrigue  # noqa: E402
from intrigue.engine import game_ids  # noqa: E402
from intrigue.interop.pettingzoo import env, environments, module, raw_env  # noqa: E402
from intrigue.interop.pettingzoo.aec import env_name  # noqa: E402
from intrigue.interop.tensors import encoder  # noqa: E402

# PettingZoo's API test warns about dict observations ({"observation", "action_mask"}), its
# own convention for board games, unless the environment's name is on its lists of classic
# environments; these two warnings are expected, any other is a failure.
EXPECTED_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent")


def _unexpected(caught):
    return [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)]


def _module(game_id):
    return module(env_name(game_id))


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_api_test(game_id, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(_module(game_id).env(players=players, max_turns=short(game_id)), num_cycles=100)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_seed_test(game_id, players):
    make = functools.partial(_module(game_id).env, players=players, max_turns=short(game_id))
    seed_test(make, num_cycles=50)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_parallel_api_test(game_id, players):
    parallel = _module(game_id).parallel_env(players=players, max_turns=short(game_id))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parallel_api_test(parallel, num_cycles=200)
    assert _unexpected(caught) == []


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_render_test(game_id, players, capsys):
    make = functools.partial(_module(game_id).env, players=players, max_turns=short(game_id))
    render_test(make)
    ansi = make(render_mode="ansi")
    ansi.reset(seed=0)
    opening = ansi.render().split()[:3]
    assert opening == capsys.readouterr().out.split()[:3]  # "human" printed the same drawing


def test_one_versioned_module_per_game():
    modules = environments()
    assert sorted(modules) == sorted(f"{g.replace('-', '_')}_v0" for g in game_ids())
    for name, mod in modules.items():
        assert mod.metadata["name"] == name
        assert mod.metadata["render_modes"] == ["human", "ansi"]
        made = mod.env()
        assert str(made.unwrapped) == name == made.unwrapped.metadata["name"]
        assert type(mod.raw_env()).__name__ == "IntrigueEnv"


def test_pettingzoo_make_finds_every_game():
    import pettingzoo

    for game_id in game_ids():
        name = f"intrigue/{game_id.replace('-', '_')}_v0"
        made = pettingzoo.make("aec", name, max_turns=2)
        assert made.unwrapped.game.id == game_id
        parallel = pettingzoo.make("parallel", name, max_turns=2)
        assert set(parallel.reset(seed=0)[0]) == set(parallel.possible_agents)


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


def test_a_cap_the_game_does_not_define_truncates_without_rewards():
    """Project Assassination has no turn limit: its max_turns only cuts the game off, so the
    episode is truncated, rewards are 0 and the arbiter's verdict is in the infos."""
    e = raw_env("project-assassination", max_turns=2)
    e.reset(seed=3)
    state = e.intrigue_state
    finals = _play_out(e, 0)
    assert state.outcome.capped
    assert finals == {f"player_{seat}": (0.0, False, True) for seat in range(2)}
    assert e.infos == {}  # every agent is done and removed
    verdicts = []
    e.reset(seed=3)
    for _ in e.agent_iter():
        obs, _, terminated, truncated, info = e.last()
        if terminated or truncated:
            verdicts.append(info["outcome"])
            e.step(None)
        else:
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert verdicts and all(v["capped"] and v["reason"] for v in verdicts)


def test_the_night_limit_is_a_rule_so_it_terminates_with_real_rewards():
    """Masquerade Murder's max_turns is the ball's last night (MM-20): Good wins, a real
    ending, so it is terminated with the outcome's returns."""
    e = raw_env("masquerade-murder", max_turns=1)
    for seed in range(20):
        e.reset(seed=seed)
        state = e.intrigue_state
        finals = _play_out(e, seed)
        if state.outcome.capped:
            break
    assert state.outcome.capped
    assert finals == {f"player_{s}": (state.outcome.returns[s], True, False) for s in range(5)}
    assert sorted(r for r, _, _ in finals.values()) != [0.0] * 5


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


def test_render_ansi_draws_the_spectator_view_without_cutting_columns():
    from rich.console import Console

    widest = {}
    for game_id in game_ids():
        e = env(game_id, render_mode="ansi", max_turns=2)
        e.reset(seed=0)
        text = e.render()
        assert isinstance(text, str) and text.strip()
        assert "\x1b[" not in text  # plain text, no terminal colour codes
        # A wider terminal would show exactly the same lines: nothing was wrapped or cut.
        drawing = e.unwrapped.game.render(e.unwrapped.intrigue_state.view(None))
        wide = Console(width=400, record=True, color_system=None, file=io.StringIO())
        wide.print(drawing)
        assert text.splitlines() == [line.rstrip() for line in wide.export_text().splitlines()]
        widest[game_id] = max(map(len, text.splitlines()))
    assert max(widest.values()) > 100  # the old 100-column export cut these
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("masquerade-murder", render_mode="rgb_array")


def test_an_illegal_move_ends_the_game_with_minus_one_for_the_offender():
    e = env("project-assassination", max_turns=4)
    e.reset(seed=1)
    offender = e.agent_selection
    obs = e.last()[0]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    rewards = {}
    for agent in e.agent_iter():
        _, reward, terminated, truncated, _ = e.last()
        assert terminated and truncated
        rewards[agent] = reward
        e.step(None)
    assert rewards == {offender: -1.0, **{a: 0.0 for a in rewards if a != offender}}
    assert len(rewards) == 2
    raw = raw_env("project-assassination", max_turns=4)
    raw.reset(seed=1)
    with pytest.raises(intrigue.IllegalAction):
        raw.step(illegal)


@pytest.mark.parametrize("action", [2.7, 2.0, True, "2", None])
def test_non_integer_actions_are_refused(action):
    wrapped = env("masquerade-murder", max_turns=2)
    wrapped.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        wrapped.step(action)
    raw = raw_env("masquerade-murder", max_turns=2)
    raw.reset(seed=0)
    before = raw.intrigue_state.record()
    with pytest.raises(TypeError, match="integer"):
        raw.step(action)
    assert raw.intrigue_state.record() == before


def test_numpy_integers_are_actions():
    raw = raw_env("masquerade-murder", max_turns=2)
    raw.reset(seed=0)
    legal = np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])
    raw.step(np.int64(legal[0]))
    raw.step(np.array(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"])[0]))
    assert len(raw.intrigue_state.history) == 2


def test_bad_options_fail_at_construction():
    with pytest.raises(intrigue.InvalidOption):
        raw_env("masquerade-murder", board="hexagon")
    with pytest.raises(intrigue.InvalidOption):
        raw_env("masquerade-ball", players=5)


def _classic_stack(raw):
    """PettingZoo's three classic wrappers, as `wrap` fuses them."""
    from pettingzoo.utils import wrappers

    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1.0)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(wrapped))


def _outcome(call):
    """What a call returned or raised (as its type and message), for comparing two stacks."""
    try:
        result = call()
    except (AssertionError, AttributeError) as error:
        return type(error).__name__, str(error)
    if isinstance(result, tuple):  # last(): observation dict, reward, flags, info
        obs, *rest = result
        return {k: v.tolist() for k, v in (obs or {}).items()}, rest
    return result


@pytest.mark.parametrize("game_id", game_ids())
def test_fused_wrapper_behaves_as_the_three_classic_wrappers(game_id):
    # Random play through both stacks: mostly legal moves, some illegal (ending the game with
    # -1), some outside the space (refused), steps after the end and access before reset.
    made = [_module(game_id).env(max_turns=short(game_id))]
    made.append(_classic_stack(_module(game_id).raw_env(max_turns=short(game_id))))
    assert str(made[0]) == str(made[1])
    probes = [lambda e: e.agent_selection, lambda e: e.last(), lambda e: e.step(0)]
    seen = [[_outcome(functools.partial(p, e)) for p in probes] for e in made]
    assert seen[0] == seen[1]
    rng = np.random.default_rng(7)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for episode in range(4):
            for e in made:
                e.reset(seed=episode)
            for _ in range(400):
                seen = [_outcome(e.last) for e in made]
                assert seen[0] == seen[1]
                obs, rest = seen[0]
                legal = np.flatnonzero(obs["action_mask"])
                roll = rng.random()
                if rest[1] or rest[2]:
                    action = None
                elif roll < 0.03 or not len(legal):
                    action = int(rng.integers(made[0].unwrapped.game.num_actions))
                elif roll < 0.05:
                    action = -1
                else:
                    action = int(rng.choice(legal))
                stepped = [_outcome(functools.partial(e.step, action)) for e in made]
                assert stepped[0] == stepped[1]
                state = [(e.agents, e.rewards, e._cumulative_rewards) for e in made]
                assert state[0] == state[1]
                if not made[0].agents:
                    assert _outcome(lambda: made[0].step(None)) is None
                    break
