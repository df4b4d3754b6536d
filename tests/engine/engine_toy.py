"""A tiny game used only to test the engine's shared `Game`/`State` code.

Players add 1 or 2 to a shared counter in turn; whoever reaches the goal wins. Chance picks the
first player and deals every seat a secret number (told privately), so the engine's seeding,
logging and hidden-information plumbing all have something to carry.
"""

from __future__ import annotations

from typing import Any

from intrigue.engine import (
    MAX_TURNS,
    Action,
    ActionTable,
    Game,
    IllegalAction,
    Option,
    Outcome,
    Rng,
    State,
)

ADD = {n: Action("add", n) for n in (1, 2)}


class ToyGame(Game):
    id = "toy-race"
    name = "Toy Race"
    summary = "Add 1 or 2; reach the goal first."
    player_counts = (2, 3)
    options = (
        MAX_TURNS,
        Option("goal", int, 5, "The total that wins.", minimum=2),
        Option("mode", str, "plain", "Unused.", choices=("plain", "fancy")),
        Option("loud", bool, False, "Unused."),
        Option("tags", list, None, "Unused.", choices=("a", "b", "c")),
    )
    action_table = ActionTable([*ADD.values(), Action("pass")])

    def _new_state(self, players: int, seed: int, options: dict[str, Any]) -> ToyState:
        return ToyState(self, players, seed, options)


class ToyState(State):
    def _start(self) -> None:
        self.total = 0
        self.turns = 0
        self.turn = self.rng.randrange(self.players)
        self.secrets = [self.rng.randrange(100) for _ in range(self.players)]
        for seat, secret in enumerate(self.secrets):
            self._emit("secret", (seat,), value=secret)
        self._emit("start", first=self.turn)

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if self.is_over else (self.turn,)

    def legal_actions(self, seat: int) -> list[Action]:
        return list(ADD.values()) if seat in self.to_move else []

    def _apply(self, seat: int, action: Action) -> None:
        if action.verb != "add":
            raise IllegalAction(seat, action, "only 'add 1' or 'add 2'")
        self.total += action.args[0]  # type: ignore[operator]
        self.turns += 1
        self._emit("added", seat=seat, amount=action.args[0], total=self.total)
        cap = self.options["max_turns"]
        if self.total >= self.options["goal"]:
            self._finish(Outcome.win_loss(self.players, {seat}, "reached the goal"))
        elif cap is not None and self.turns >= cap:
            self._finish(Outcome.win_loss(self.players, set(), "out of turns", capped=True))
        else:
            self.turn = (self.turn + 1) % self.players

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "total": self.total,
            "turn": self.turn,
            "secret": None if seat is None else self.secrets[seat],
        }

    def _copy_mutables(self, new: State) -> None:
        assert isinstance(new, ToyState)
        new.secrets = self.secrets.copy()

    def determinize(self, seat: int, rng: Rng) -> State:
        sample = self.clone()
        sample.rng = Rng(rng.randrange(2**62))
        return sample


TOY = ToyGame()
