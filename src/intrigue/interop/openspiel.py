"""Every intrigue game as an OpenSpiel Python game (``pip install 'intrigue[openspiel]'``).

Importing this module registers each game as ``intrigue_<id with underscores>``::

    import pyspiel
    import intrigue.interop.openspiel  # registers the games
    game = pyspiel.load_game("intrigue_masquerade_murder", {"max_turns": 6})

How intrigue maps onto OpenSpiel:

* **Turns.** Sequential dynamics. A simultaneous phase (Masquerade Murder's targets) is
  presented as turns of its seats in ``to_move`` order; each seat's information state hides
  what the earlier ones chose, exactly as the engine's views do, so nothing leaks.
* **Chance.** ``EXPLICIT_STOCHASTIC``. An intrigue game draws all its chance from one
  generator seeded by the game's seed, so the OpenSpiel game opens with 16 chance nodes, each
  drawing 4 bits of a 64-bit seed uniformly (16 outcomes): the seed, hence every deal and
  every later draw, is exactly as random as in the engine, and players never observe it.
  Cloning copies the generator (a clone replays the same future); `resample_from_infostate`
  uses ``State.determinize``, which resamples the hidden past *and* reseeds the future, so
  search never peeks at either. (Python games cannot be ``SAMPLED_STOCHASTIC`` and still
  serialize: OpenSpiel then asks the game for an RNG state Python games cannot provide.)
* **Actions.** Ids are the game's stable action indices (``game.action_index``).
* **Observations.** ``observation_string``: canonical JSON of ``view(seat)``;
  ``information_state_string``: canonical JSON of the view and the seat's event log (perfect
  recall). Both tensors are the game's fixed-size encoding of ``view(seat)``
  (`intrigue.interop.tensors`); `Observer` lists the observation types.
* **Serialization.** A state pickles as its replay record (seed, options, actions), which
  rebuilds it exactly, determinized samples included.
* **Parameters.** ``players``, ``max_turns`` (always finite here: it bounds
  ``max_game_length``), ``max_decisions`` (the decision cap, `common.DECISIONS_PER_TURN`: -1
  the game's default, 0 none; a game it stops ends with 0 for everyone) and every game
  option; list options are ';'-separated strings and int options unset by default use -1.
  ``infostate_history`` (default false) appends each seat's `History` to its
  information-state tensor, which then has perfect recall (docs/interop.md).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pyspiel

import intrigue
from intrigue.engine import Game, Record, Rng, State, game_ids, load

from . import common
from .tensors import Canvas, Encoder, History, encoder

PREFIX = "intrigue_"


def short_name(game_id: str) -> str:
    """OpenSpiel's name of a game: ``masquerade-murder`` -> ``intrigue_masquerade_murder``."""
    return PREFIX + game_id.replace("-", "_")


# -- static data, shared by every state of a game (never copied into states) -----------------

# A 64-bit seed, drawn 4 bits at a time by the chance nodes at the start. Sixteen nodes of 16
# outcomes, not eight of 256: a sampler's cost grows with the outcomes listed (numpy's choice
# over 256 costs about four times its cost over 16), and rl_environment samples every node.
SEED_BITS = 4
SEED_NODES = 64 // SEED_BITS
SEED_OUTCOMES = 1 << SEED_BITS
SEED_CHANCES = [(digit, 1.0 / SEED_OUTCOMES) for digit in range(SEED_OUTCOMES)]
MAX_DECISIONS = "max_decisions"  # the adapter's own parameter: the decision cap
HISTORY = "infostate_history"  # the adapter's own parameter: perfect-recall tensors
DEFAULT_DECISIONS = -1  # -1: the game's default cap (`common.default_max_decisions`); 0: none


class Spec:
    """One configured game: rules, players, options and the tensor encoder."""

    def __init__(self, game: Game, params: Mapping[str, Any]) -> None:
        self.game = game
        self.players = int(params.get("players", game.player_counts[0]))
        if self.players not in game.player_counts:
            counts = ", ".join(map(str, game.player_counts))
            raise ValueError(f"{game.name} is played by {counts} players, not {self.players}")
        self.options = common.options_from_parameters(game, params)
        self.max_turns = int(self.options.get("max_turns") or 0)
        if self.max_turns < 1:
            raise ValueError("max_turns must be at least 1 (OpenSpiel needs a bounded game)")
        decisions = int(params.get(MAX_DECISIONS, DEFAULT_DECISIONS))
        if decisions < 0:
            decisions = common.default_max_decisions(game, self.players, self.max_turns)
        self.max_decisions = decisions  # 0: no decision cap
        self.max_game_length = common.max_game_length(game, self.players, self.max_turns, decisions)
        self.encoder: Encoder = encoder(game.id)
        self.history: History | None = None
        if bool(params.get(HISTORY, False)):
            self.history = History(
                game.action_table.ids,
                self.players,
                self.max_game_length,
                self.encoder.public_action,
            )
        self.action_ids = game.action_table.ids
        game.new(self.players, 0, **self.options)  # reject bad options now, not mid-search


class Core:
    """A state's progress: the seed digits drawn so far, then the intrigue `State`.

    It is the only entry of the OpenSpiel state's ``__dict__``. OpenSpiel clones a Python
    state by deep-copying that dict and serializes it by pickling it: here a deep copy is the
    engine's cheap `State.clone` and a pickle is the replay record (seed, options, actions).
    """

    __slots__ = ("drawn", "game", "replaying", "seed", "state")

    def __init__(
        self,
        seed: int = 0,
        drawn: int = 0,
        state: State | None = None,
        game: IntrigueGame | None = None,
    ) -> None:
        self.seed = seed  # the digits drawn so far, most significant first
        self.drawn = drawn
        self.state = state
        self.replaying: int | None = None  # the player whose recorded action is re-applied
        # The state's game, kept for the hot paths (asking pyspiel costs a call into C++);
        # None after unpickling until first needed (`IntrigueState._game`).
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> Core:
        state = None if self.state is None else self.state.clone()
        return Core(self.seed, self.drawn, state, self.game)

    def __reduce__(self) -> tuple[Any, ...]:
        if self.state is None:
            return (Core, (self.seed, self.drawn))
        return (_restore, (self.state.record().dumps(),))


def _restore(record: str) -> Core:
    """Unpickle a dealt `Core`: replay its record."""
    state = intrigue.replay(Record.loads(record))
    return Core(state.seed, SEED_NODES, state)


def seed_digits(seed: int) -> list[int]:
    """The chance outcomes that deal ``seed`` (its 4-bit digits, most significant first)."""
    seed &= (1 << (SEED_BITS * SEED_NODES)) - 1
    last = SEED_NODES - 1
    return [(seed >> (SEED_BITS * (last - i))) & (SEED_OUTCOMES - 1) for i in range(SEED_NODES)]


# -- the game and its states ------------------------------------------------------------------


def game_type(game: Game, players: int | None = None) -> pyspiel.GameType:
    """The OpenSpiel GameType of an intrigue game (utility as for ``players`` players)."""
    n = game.player_counts[0] if players is None else players
    utility = pyspiel.GameType.Utility
    params: dict[str, Any] = {
        "players": game.player_counts[0],
        MAX_DECISIONS: DEFAULT_DECISIONS,
        HISTORY: False,
        **{opt.name: common.parameter_default(opt, game.id) for opt in game.options},
    }
    return pyspiel.GameType(
        short_name=short_name(game.id),
        long_name=f"intrigue: {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if common.zero_sum(game, n) else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.player_counts),
        min_num_players=min(game.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


class IntrigueGame(pyspiel.Game):
    """An intrigue game configured by OpenSpiel parameters."""

    def __init__(self, game_id: str, params: Mapping[str, Any] | None = None) -> None:
        game = load(game_id)
        params = dict(params or {})
        spec = Spec(game, params)
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=SEED_OUTCOMES,
            num_players=spec.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if common.zero_sum(game, spec.players) else None,
            max_game_length=spec.max_game_length,
        )
        super().__init__(game_type(game, spec.players), info, params)
        self.spec = spec
        self._type = super().get_type()
        # The observers behind the states' Python-side tensor methods (see `IntrigueState`):
        # OpenSpiel's information-state and default observation types.
        self.tensor_observers = {
            True: Observer(spec, pyspiel.IIGObservationType(perfect_recall=True), None),
            False: Observer(spec, None, None),
        }

    def get_type(self) -> pyspiel.GameType:
        # pyspiel copies the whole type (names, parameter specification) on every call, and
        # rl_environment asks for it twice a step; a GameType cannot be changed from Python.
        return self._type

    def new_initial_state(self) -> IntrigueState:
        return IntrigueState(self)

    def max_chance_nodes_in_history(self) -> int:
        return SEED_NODES

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Any = None
    ) -> Observer:
        return Observer(self.spec, iig_obs_type, params)

    def adopt(self, state: State) -> IntrigueState:
        """An OpenSpiel state holding ``state`` (e.g. a determinization), with the history
        that deals its seed and plays its actions (its options may fix deals that differ from
        this game's; it is serialized by its own record)."""
        new = IntrigueState(self)
        core = new._core
        core.replaying = pyspiel.PlayerId.CHANCE  # current_player() answers it; no effect
        for digit in seed_digits(state.seed):
            new.apply_action(digit)
        ids = self.spec.action_ids
        for seat, action in state.history:
            core.replaying = seat
            new.apply_action(ids[action])
        core.replaying = None
        core.seed, core.drawn, core.state = state.seed, SEED_NODES, state
        return new


class IntrigueState(pyspiel.State):
    """One play of an intrigue game, seen through OpenSpiel's API."""

    def __init__(self, game: IntrigueGame) -> None:
        super().__init__(game)
        self._core = Core(game=game)

    def _game(self) -> IntrigueGame:
        """``get_game()``, kept in the core after the first call."""
        game = self._core.game
        if game is None:
            game = self._core.game = self.get_game()
        return game

    def _ended(self, state: State) -> bool:
        """Whether the dealt ``state`` is terminal: over, or stopped by the decision cap."""
        spec = (self._core.game or self._game()).spec
        return state.is_over or common.cut_off(state, spec.max_decisions)

    @property
    def intrigue_state(self) -> State | None:
        """The engine's state once the seed is dealt (for adapters and tests: it holds every
        secret); None at the opening chance nodes."""
        return self._core.state

    def current_player(self) -> int:
        core = self._core
        if core.replaying is not None:
            return core.replaying
        state = core.state
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if self._ended(state):
            return pyspiel.PlayerId.TERMINAL
        return state.to_move[0]

    def is_chance_node(self) -> bool:
        return self.current_player() == pyspiel.PlayerId.CHANCE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return SEED_CHANCES.copy()

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.state
        assert state is not None
        return sorted(map(state.game.action_table.ids.__getitem__, state.legal_actions(player)))

    # Python callers (rl_environment asks every player's tensor and legal actions, whether it
    # is a chance node and the rewards at every step) reach these and `is_chance_node` and
    # `rewards` before pyspiel's methods, which answer the same from C++ but cost far more
    # for a Python game: C++ sizes the tensor by building a new initial state and writing its
    # tensor through the observer, copies every named piece, then converts the vector to a
    # list; its legal_actions calls back into Python three or four times, and the others once
    # or twice. C++ callers still use pyspiel's path, which gives the same values (tests
    # compare both).

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(True, player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return self._tensor(False, player)

    def _tensor(self, recall: bool, player: int | None) -> list[float]:
        game = self._core.game or self._game()
        if player is None or not 0 <= player < game.spec.players:  # pyspiel's answer: an error
            base = (
                pyspiel.State.information_state_tensor
                if recall
                else pyspiel.State.observation_tensor
            )
            return base(self) if player is None else base(self, player)
        return game.tensor_observers[recall].values(self, player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        core = self._core
        state = core.state
        if state is None or core.replaying is not None or (player is not None and player < 0):
            return super().legal_actions() if player is None else super().legal_actions(player)
        if self._ended(state):
            return []
        seat = state.to_move[0]
        return self._legal_actions(seat) if player is None or player == seat else []

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.replaying is not None:
            return
        state = core.state
        if state is None:
            if not 0 <= action < SEED_OUTCOMES:
                raise ValueError(
                    f"chance outcome {action} out of range: a seed digit is 0..{SEED_OUTCOMES - 1}"
                )
            self._deal(int(action))
        else:
            state.apply(state.to_move[0], state.game.action_at(int(action)))

    def _deal(self, digit: int) -> None:
        core = self._core
        core.seed = (core.seed << SEED_BITS) | digit
        core.drawn += 1
        if core.drawn == SEED_NODES:
            spec = self.get_game().spec
            core.state = spec.game.new(spec.players, core.seed, **spec.options)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed digit {action}"
        return str(self.get_game().spec.game.action_at(int(action)))

    def is_terminal(self) -> bool:
        state = self._core.state
        return state is not None and self._ended(state)

    def rewards(self) -> list[float]:
        # The reward model is terminal: pyspiel's answer is the returns (0 before the end).
        return self.returns()

    def returns(self) -> list[float]:
        state = self._core.state
        outcome = None if state is None else state.outcome
        if outcome is None:
            return [0.0] * self.num_players()
        return [float(r) for r in outcome.returns]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float] | None = None
    ) -> IntrigueState:
        """A state with the same information state for ``player_id``: ``State.determinize``
        seeded from ``probability_sampler`` (a uniform [0, 1) sampler, as OpenSpiel passes)."""
        state = self._core.state
        if state is None:  # nothing dealt yet: any seed is as good as this one
            return self.clone()
        sample = state.determinize(int(player_id), Rng(_seed_from(probability_sampler)))
        return self.get_game().adopt(sample)

    def __str__(self) -> str:
        core = self._core
        if core.state is None:
            return f"dealing: {core.drawn} of {SEED_NODES} seed digits drawn"
        return common.canonical_json(core.state.record().to_json())


def _seed_from(sampler: Callable[[], float] | None) -> int:
    if sampler is None:
        return secrets.randbits(63)
    # Two uniform draws give more bits than one double holds.
    return (int(sampler() * (1 << 31)) << 31) | int(sampler() * (1 << 31))


def resampler(seed: int) -> Callable[[IntrigueState, int], IntrigueState]:
    """A reproducible resampler for ``ISMCTSBot.set_resampler``: determinizations from a
    seeded stream instead of OpenSpiel's randomly seeded sampler."""
    stream = random.Random(seed)

    def resample(state: IntrigueState, player: int) -> IntrigueState:
        return state.resample_from_infostate(player, stream.random)

    return resample


# -- observations ---------------------------------------------------------------------------


class SeatTensor:
    """One seat's canvas in an `Observer`, the position it holds, and its values as a list
    with a copy of the canvas as that list last saw it (``listed``): the list is brought up to
    date by comparing the two, so only the values that changed are made anew (an encoding
    rewrites whole sections and rows, most of whose values stay as they were)."""

    __slots__ = ("canvas", "key", "listed", "stale", "values")

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.key: tuple[State | None, int] = (None, -1)
        self.values: list[float] | None = None
        self.listed: np.ndarray | None = None
        self.stale = False  # the canvas was written since the list was brought up to date

    def listing(self) -> list[float]:
        """The canvas's values as the kept list (brought up to date first)."""
        data, values = self.canvas.data, self.values
        if values is None or self.listed is None:
            values = self.values = data.tolist()
            self.listed = data.copy()
        elif self.stale:
            listed = self.listed
            (changed,) = (data != listed).nonzero()
            if changed.size:
                new = data[changed]
                listed[changed] = new
                for index, value in zip(changed.tolist(), new.tolist(), strict=True):
                    values[index] = value
        self.stale = False
        return values


class Observer:
    """OpenSpiel's PyObserver: tensors from the game's encoder, strings from the views.

    Every observation type OpenSpiel's tools ask for:

    * public and private information of one player (the default): ``view(player)``;
    * public information only (``private_info=NONE``): the spectator's ``view(None)``;
    * private information only (``public_info=False``): what ``view(player)`` holds beyond
      ``view(None)``; its string is that difference (`common.private_part`), its tensor the
      player's tensor minus the spectator's, so public + private = the player's tensor;
    * with ``perfect_recall``, strings add the seat's event log (`common.information_state_string`).

    ``ALL_PLAYERS`` (every player's secrets at once) is refused: no view shows them.
    """

    def __init__(
        self, spec: Spec, iig_obs_type: pyspiel.IIGObservationType | None, params: Any
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        public, private, recall = True, pyspiel.PrivateInfoType.SINGLE_PLAYER, False
        if iig_obs_type is not None:
            public = iig_obs_type.public_info
            private, recall = iig_obs_type.private_info, iig_obs_type.perfect_recall
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("intrigue has no observation of every player's secrets")
        if not public and private == pyspiel.PrivateInfoType.NONE:
            raise ValueError("an observation needs public or private information")
        self.public = public
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = recall
        self.encoder = spec.encoder
        size = spec.encoder.size
        # With perfect recall and the game's infostate_history, the seat's History follows.
        self.history = spec.history if recall else None
        extra = 0 if self.history is None else self.history.size
        self.tensor = np.zeros(size + extra, np.float32)  # what OpenSpiel reads
        self._canvas = Canvas(spec.encoder.layout, self.tensor[:size])
        self.dict = dict(self._canvas)
        if self.history is not None:
            self._record = self.tensor[size:].reshape(self.history.shape)
            self._public_record = np.zeros(self.history.shape, np.float32)
            self.dict["history"] = self._record
        # One canvas per seat (and the spectator), updated incrementally: only the parts of a
        # seat's view that changed since its last encoding are encoded again.
        self._seats: dict[int | None, SeatTensor] = {}

    def _seat(self, player: int) -> int | None:
        return int(player) if self.private else None

    def _encoded(self, core: State, seat: int | None) -> np.ndarray:
        """``seat``'s tensor of ``core``, encoded at most once per position."""
        return self._seat_tensor(core, seat).canvas.data

    def _seat_tensor(self, core: State, seat: int | None) -> SeatTensor:
        held = self._seats.get(seat)
        if held is None:
            held = self._seats[seat] = SeatTensor(self.encoder.layout.canvas())
        now = (core, core.actions_played)
        if held.key != now:
            if self.encoder.alike:  # start from another seat's encoding of this position
                for other in self._seats.values():
                    if other.key == now:
                        self.encoder.adopt(held.canvas, other.canvas)
                        break
            self.encoder.update(held.canvas, core.shared_view(seat))
            held.key = now
            held.stale = True
        return held

    def values(self, state: IntrigueState, player: int) -> list[float]:
        """What `set_from` leaves in `tensor`, as a new list (a Python game's tensor methods
        return one): for the default observation types, from a list kept per seat, where only
        the values that changed are made anew (`SeatTensor.listing`)."""
        core = state.intrigue_state
        if core is None or not self.public or self.history is not None:
            self.set_from(state, player)
            return self.tensor.tolist()
        return self._seat_tensor(core, self._seat(player)).listing().copy()

    def set_from(self, state: IntrigueState, player: int) -> None:
        core = state.intrigue_state
        if core is None:  # still dealing: nothing to see
            self.tensor.fill(0.0)
            return
        size = self.encoder.size
        observation = self.tensor[:size]
        seat = self._seat(player)
        observation[:] = self._encoded(core, seat)
        if not self.public:
            observation -= self._encoded(core, None)
        if self.history is not None:
            played = core.history
            self.history.encode_into(self._record, played, seat)
            if not self.public:  # only what the seat saw beyond the public record
                self.history.encode_into(self._public_record, played, None)
                self._record -= self._public_record

    def string_from(self, state: IntrigueState, player: int) -> str:
        core = state.intrigue_state
        if core is None:
            return common.canonical_json({"dealing": True})
        seat = self._seat(player)
        if not self.public:
            return common.private_string(core, int(player), self.perfect_recall)
        if self.perfect_recall:
            return common.information_state_string(core, seat)
        return common.observation_string(core, seat)


# -- registration ---------------------------------------------------------------------------

_registered: set[str] = set()


def register(ids: list[str] | None = None) -> list[str]:
    """Register games with OpenSpiel (default: every intrigue game); returns their names."""
    names = []
    for game_id in ids or game_ids():
        name = short_name(game_id)
        if name not in _registered and name not in pyspiel.registered_names():
            pyspiel.register_game(game_type(load(game_id)), _creator(game_id))
        _registered.add(name)
        names.append(name)
    return names


def _creator(game_id: str) -> type[IntrigueGame]:
    """A subclass bound to one game: OpenSpiel keeps the creator until the process ends, and
    a class (unlike a closure) is safe to release that late."""

    class Bound(IntrigueGame):
        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            super().__init__(game_id, params)

    Bound.__name__ = Bound.__qualname__ = "".join(p.title() for p in game_id.split("-")) + "Game"
    return Bound


def load_game(game_id: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` by intrigue id, registering first: ``load_game("masquerade-murder",
    max_turns=6)``."""
    register([game_id])
    return pyspiel.load_game(short_name(game_id), params)


register()
