"""The OpenSpiel adapter: OpenSpiel's own random simulation test, chance, parameters,
observations, resampling, serialization and its Python ISMCTS bot playing through it."""

from __future__ import annotations

import json

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from interop_support import CONFIG_IDS, CONFIGS, short  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

import intrigue  # noqa: E402
from intrigue.engine import game_ids  # noqa: E402
from intrigue.interop import openspiel as adapter  # noqa: E402
from intrigue.interop.tensors import encoder  # noqa: E402


def _load(game_id, players, **params):
    if players is not None:
        params["players"] = players
    return adapter.load_game(game_id, max_turns=short(game_id), **params)


def _deal(state, seed):
    """Play the opening chance nodes with the bytes of ``seed``."""
    for digit in adapter.seed_digits(seed):
        assert state.is_chance_node()
        state.apply_action(digit)
    return state


def _advance(state, steps, seed):
    rng = np.random.RandomState(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_every_game_is_registered():
    names = set(pyspiel.registered_names())
    for game_id in game_ids():
        assert adapter.short_name(game_id) in names
    game = pyspiel.load_game("intrigue_masquerade_murder")
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game.num_distinct_actions() == intrigue.load("masquerade-murder").num_actions


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_random_sim_test_with_serialization(game_id, players):
    game = _load(game_id, players)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_utility_matches_the_outcomes():
    zero = pyspiel.GameType.Utility.ZERO_SUM
    assert _load("project-assassination", 2).get_type().utility == zero
    assert _load("masquerade-ball", 2).get_type().utility == zero
    assert _load("masquerade-ball", 4).get_type().utility != zero
    assert _load("shadows-over-japan", 2).get_type().utility != zero  # ties share the win


def test_chance_deals_a_uniform_64_bit_seed():
    game = _load("masquerade-murder", 5)
    state = game.new_initial_state()
    # Sixteen chance nodes of 16 outcomes (4 bits each): cheaper to sample than 8 of 256.
    assert game.max_chance_outcomes() == 16
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(16))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    seed = 0x0123_4567_89AB_CDEF
    _deal(state, seed)
    assert state.intrigue_state.seed == seed
    assert len(state.history()) == 16
    assert state.history() == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    again = _deal(game.new_initial_state(), seed)
    assert str(again) == str(state)
    # Different seeds deal different games (roles, seating, cards).
    deals = {
        str(_deal(game.new_initial_state(), seed + i).intrigue_state.view(0)) for i in range(4)
    }
    assert len(deals) == 4


def test_parameters_reach_the_game():
    game = adapter.load_game(
        "masquerade-murder",
        max_turns=4,
        roles="duke;thug;seductress;assassin;constable",
        board="ring12",
    )
    assert pyspiel.load_game(str(game)).get_parameters()["roles"] == (
        "duke;thug;seductress;assassin;constable"
    )
    state = _deal(game.new_initial_state(), 7).intrigue_state
    assert state.role_of(0) == "duke" and state.role_of(4) == "constable"
    assert state.view(None)["board"]["name"] == "ring12"
    assert state.options["max_turns"] == 4
    with pytest.raises(Exception, match="players"):
        adapter.load_game("masquerade-ball", players=5)
    three = adapter.load_game("masquerade-ball", players=3)  # MB-30: 2 to 4 players
    assert three.num_players() == 3
    assert _deal(three.new_initial_state(), 3).intrigue_state.players == 3


def test_max_game_length_bounds_random_games():
    for game_id in game_ids():
        game = _load(game_id, None)
        for seed in range(3):
            state = _advance(_deal(game.new_initial_state(), seed), 100_000, seed)
            assert state.is_terminal()
            assert len(state.history()) - 16 <= game.max_game_length()  # 16 chance nodes


def test_strings_and_tensors_come_from_the_view():
    game = _load("masquerade-murder", 5)
    state = _advance(_deal(game.new_initial_state(), 3), 9, 0)
    core = state.intrigue_state
    enc = encoder("masquerade-murder")
    for seat in range(5):
        assert np.array_equal(state.observation_tensor(seat), enc.encode(core.view(seat)))
        assert np.array_equal(state.information_state_tensor(seat), enc.encode(core.view(seat)))
        assert str(core.view(seat)["you"]["role"]) in state.observation_string(seat)
        assert state.information_state_string(seat).startswith('{"events":')
    # Each seat knows its own role, so information states differ between seats...
    assert len({state.information_state_string(s) for s in range(5)}) == 5
    # ...while the public observer shows everyone the spectator's view.
    public = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
    )
    observation = make_observation(game, public)
    strings = {observation.string_from(state, seat) for seat in range(5)}
    assert strings == {adapter.common.observation_string(core, None)}


def test_simultaneous_choices_stay_hidden_from_later_seats():
    game = _load("masquerade-murder", 5)
    first = _deal(game.new_initial_state(), 9)
    second = first.clone()
    legal = first.legal_actions()
    first.apply_action(legal[0])
    second.apply_action(legal[-1])
    assert first.current_player() == second.current_player() == 1
    for seat in range(1, 5):
        assert first.information_state_string(seat) == second.information_state_string(seat)
    assert first.information_state_string(0) != second.information_state_string(0)


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_resample_keeps_the_information_state(game_id, players):
    game = _load(game_id, players)
    state = _advance(_deal(game.new_initial_state(), 21), 12, 1)
    if state.is_terminal():
        pytest.skip("the random game ended early")
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(5, 0.0, 1.0)
    for _ in range(3):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.current_player() == player
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.information_state_tensor(player) == state.information_state_tensor(player)
        assert len(sample.history()) == len(state.history())
        # A sample serializes by its record and comes back identical.
        text = pyspiel.serialize_game_and_state(game, sample)
        _, back = pyspiel.deserialize_game_and_state(text)
        assert str(back) == str(sample)
        assert back.information_state_string(player) == state.information_state_string(player)


def test_clones_share_the_future_but_not_the_present():
    game = _load("project-assassination", 2)
    state = _advance(_deal(game.new_initial_state(), 5), 3, 0)
    clone = state.clone()
    assert str(clone) == str(state)
    _advance(clone, 5, 1)
    assert str(clone) != str(state)
    again = state.clone()
    _advance(again, 5, 1)
    assert str(again) == str(clone)  # same actions, same generator: the same chance


def _ismcts_bot(game, seed, simulations=8):
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    bot.set_resampler(adapter.resampler(seed))
    return bot


@pytest.mark.parametrize("game_id", ["project-assassination", "masquerade-murder"])
def test_openspiel_ismcts_plays_a_short_game(game_id):
    game = adapter.load_game(game_id, max_turns=1 if game_id == "masquerade-murder" else 4)
    bot = _ismcts_bot(game, 0)
    state = _deal(game.new_initial_state(), 17)
    moves = 0
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(int(action))
        moves += 1
    assert moves > 0
    assert sorted(state.returns()) == sorted(state.intrigue_state.outcome.returns)


def test_openspiel_ismcts_is_reproducible_with_the_resampler():
    game = adapter.load_game("masquerade-murder", max_turns=1)
    start = _advance(_deal(game.new_initial_state(), 4), 5, 0)
    choices = {_ismcts_bot(game, 3, simulations=12).step(start.clone()) for _ in range(2)}
    assert len(choices) == 1


@pytest.mark.parametrize("outcome", [16, 256, 999, -1])
def test_a_chance_outcome_out_of_range_raises(outcome):
    game = _load("masquerade-murder", 5)
    state = game.new_initial_state()
    state.apply_action(3)
    # -1 is OpenSpiel's own invalid action, refused before it reaches the game.
    with pytest.raises(Exception, match=r"out of range|kInvalidAction"):
        state.apply_action(outcome)
    assert state.history() == [3]  # unchanged: the seed is not corrupted
    _deal(game.new_initial_state(), 5)


def _observer(game, public, private, recall=False):
    kind = pyspiel.IIGObservationType(
        perfect_recall=recall, public_info=public, private_info=private
    )
    return make_observation(game, kind)


def test_every_observation_type_the_tools_ask_for():
    single, none = pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE
    game = _load("masquerade-murder", 5)
    state = _advance(_deal(game.new_initial_state(), 3), 7, 0)
    core = state.intrigue_state
    full, public = _observer(game, True, single), _observer(game, True, none)
    private = _observer(game, False, single)
    private_recall = _observer(game, False, single, recall=True)
    for seat in range(5):
        # Public + private tensors add up to the player's tensor.
        full.set_from(state, seat)
        public.set_from(state, seat)
        private.set_from(state, seat)
        assert np.allclose(public.tensor + private.tensor, full.tensor)
        assert private.tensor.any()  # at least the seat and its role are private
        # The private string holds the seat's secrets and nothing public.
        text = private.string_from(state, seat)
        assert core.view(seat)["you"]["role"] in text
        assert '"board"' not in text and '"seating"' not in text
        # With recall it adds the events only this seat saw (its role, its targets).
        events = json.loads(private_recall.string_from(state, seat))["events"]
        assert events and all(e not in core.events(None) for e in events)
        assert any(e["kind"] == "role" for e in events)
    with pytest.raises(ValueError, match="every player"):
        _observer(game, True, pyspiel.PrivateInfoType.ALL_PLAYERS)


PERFECT_RECALL_GAMES = {"project-assassination": 40, "masquerade-murder": 6}


@pytest.mark.parametrize(("game_id", "players"), CONFIGS, ids=CONFIG_IDS)
def test_the_history_tensor_has_perfect_recall_and_leaks_nothing(game_id, players):
    """With infostate_history, distinct information states (strings) never share a tensor in
    seeded random games, and a resampled state (same information state) has the same tensor:
    hidden choices of other seats stay out of the history."""
    game = _load(game_id, players, infostate_history=True)
    assert game.information_state_tensor_size() == (
        game.observation_tensor_size() + game.max_game_length() * (players + 2)
    )
    tensors: dict[bytes, set[str]] = {}
    sampler = pyspiel.UniformProbabilitySampler(3, 0.0, 1.0)
    for seed in range(PERFECT_RECALL_GAMES.get(game_id, 3)):
        state = _deal(game.new_initial_state(), seed)
        rng = np.random.RandomState(seed)
        while not state.is_terminal():
            player = state.current_player()
            tensor = state.information_state_tensor(player)
            key = np.asarray(tensor, np.float32).tobytes()
            tensors.setdefault(key, set()).add(state.information_state_string(player))
            if len(state.history()) % 5 == 0:
                sample = state.resample_from_infostate(player, sampler)
                assert sample.information_state_tensor(player) == tensor
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert all(len(strings) == 1 for strings in tensors.values())


@pytest.mark.parametrize("history", [False, True])
@pytest.mark.parametrize("game_id", game_ids())
def test_python_side_tensors_and_legal_actions_equal_pyspiels(game_id, history):
    # The state answers these from Python (rl_environment's hot path); pyspiel's own methods
    # go through C++ and the game's observers. Both must agree at every node, chance and
    # terminal ones included, and refuse the same calls.
    game = _load(game_id, None, infostate_history=history)
    kept, made = game.get_type(), pyspiel.Game.get_type(game)  # kept once, not copied
    for name in (n for n in dir(made) if n[0].islower() and n != "pretty_print"):
        assert getattr(kept, name) == getattr(made, name), name
    players = game.num_players()
    base = pyspiel.State
    for seed in range(2):
        state = game.new_initial_state()
        rng = np.random.RandomState(seed)
        while True:
            # Players asked at random, so a seat's kept values may be several steps behind.
            assert state.is_chance_node() == base.is_chance_node(state)
            assert state.rewards() == base.rewards(state)
            for p in [p for p in range(players) if rng.random_sample() < 0.6] + [None]:
                args = () if p is None else (p,)
                assert state.legal_actions(*args) == base.legal_actions(state, *args)
                if p is None:
                    continue
                assert state.information_state_tensor(p) == base.information_state_tensor(state, p)
                assert state.observation_tensor(p) == base.observation_tensor(state, p)
            if state.is_terminal():
                break
            state.apply_action(int(rng.choice(state.legal_actions())))
        for call in ("information_state_tensor", "observation_tensor"):
            with pytest.raises(pyspiel.SpielError):
                getattr(state, call)()  # terminal: no current player
            with pytest.raises(pyspiel.SpielError):
                getattr(state, call)(players)
        with pytest.raises(pyspiel.SpielError):
            _deal(game.new_initial_state(), 0).legal_actions(-1)
