"""Playing a game in the terminal: humans at the keyboard, bots for the other seats.

The loop is the same for every game. Bots move as soon as they are due (several seats may be
due at once in a simultaneous phase); each human is shown its own view, the events it has not
seen yet and a numbered menu of its legal actions. In hot-seat mode, with several humans at one
keyboard, the screen is hidden between them so nobody sees another seat's secrets.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from intrigue.bots import Bot
from intrigue.bots.match import bot_move
from intrigue.engine import Action, IllegalAction, InvalidAction, Rng, State

from .output import hide_screen, print_events, print_outcome, say, show

HELP = """\
Type the number of a move from the menu, or the move itself as text (as shown in brackets,
e.g. 'target 3'). Other commands: 'board' redraws the board, 'rules' explains the game,
'help' shows this, 'quit' leaves the game."""

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?", "h"})
BOARD_WORDS = frozenset({"board", "look", "l"})
RULES_WORDS = frozenset({"rules", "how", "guide"})


class QuitGame(Exception):
    """The player left (``quit`` or end of input) before the game was over."""

    def __init__(self, reason: str, *, eof: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.eof = eof


class TerminalPlay:
    """One game at the terminal: ``humans`` play at the keyboard, ``bots`` play the rest."""

    def __init__(
        self,
        console: Console,
        state: State,
        humans: set[int],
        bots: dict[int, Bot],
        *,
        read: Callable[[str], str] | None = None,
    ) -> None:
        self.console = console
        self.state = state
        self.game = state.game
        self.humans = humans
        self.bots = bots
        # One generator per bot, seeded from the game seed, so a seed replays the whole game.
        self.bot_rngs = {seat: Rng(state.seed * 1009 + seat) for seat in bots}
        self.hide = len(humans) > 1
        self.seen = dict.fromkeys(humans, 0)  # log position each human has read up to
        self.read = read or (lambda prompt: console.input(Text(prompt)))

    # -- the loop -------------------------------------------------------------------------------
    def run(self) -> None:
        """Play until the game is over; raises `QuitGame` if a human leaves."""
        state = self.state
        while not state.is_over:
            seat = self._next_seat()
            if seat in self.bots:
                self._bot_move(seat)
            else:
                self._human_turn(seat)
        self._show_end()

    def _next_seat(self) -> int:
        """Bots first (they do not keep anyone waiting), then the humans in seat order."""
        movers = self.state.to_move
        if not movers:
            raise RuntimeError("the game is not over but no seat is to move")
        for seat in movers:
            if seat in self.bots:
                return seat
        return movers[0]

    def _bot_move(self, seat: int) -> None:
        # bot_move hands the bot the seat's view only (and search bots a determinizer).
        action = bot_move(self.bots[seat], self.state, seat, self.bot_rngs[seat])
        self.state.apply(seat, action)

    # -- a human's turn -------------------------------------------------------------------------
    def _human_turn(self, seat: int) -> None:
        if self.hide:
            self._hand_over(seat)
        self._show_position(seat)
        legal = self.state.legal_actions(seat)
        self._show_menu(seat, legal)
        while True:
            text = self._ask(f"Your move (seat {seat})> ").strip()
            word = text.lower()
            if not word:
                say(self.console, "Type a move number or a move ('help' explains).")
            elif word in QUIT_WORDS:
                raise QuitGame(f"seat {seat} left the game")
            elif word in HELP_WORDS:
                say(self.console, HELP)
                self._show_menu(seat, legal)
            elif word in BOARD_WORDS:
                show(self.console, self.game.render(self.state.view(seat)))
                self._show_menu(seat, legal)
            elif word in RULES_WORDS:
                self._show_rules()
                self._show_menu(seat, legal)
            elif self._try_move(seat, text, legal):
                break
        if self.hide:
            hide_screen(self.console)

    def _hand_over(self, seat: int) -> None:
        hide_screen(self.console)
        say(
            self.console,
            f"Pass to seat {seat} — press Enter when only seat {seat} is looking",
            "bold",
        )
        self._ask("")

    def _show_position(self, seat: int) -> None:
        state = self.state
        view = state.view(seat)
        show(self.console, self.game.render(view))
        events = state.events(seat, since=self.seen[seat])
        self.seen[seat] = state.log_length
        print_events(self.console, self.game, events, view, "Since you last looked:")

    def _show_rules(self) -> None:
        guide = self.game.guide()
        if guide is None:
            say(self.console, f"{self.game.name} has no rules summary; see docs/games/.")
            return
        say(self.console, f"How to play {self.game.name}", "bold")
        for line in guide.lines():
            say(self.console, line, None if line.startswith(" ") else "bold")

    def _show_menu(self, seat: int, legal: list[Action]) -> None:
        view = self.state.view(seat)
        entries = [
            Text(f"{i:>2}. {self.game.describe_action(a, view)}  [{a}]")
            for i, a in enumerate(legal, 1)
        ]
        say(self.console, f"Seat {seat}, your moves:", "bold")
        self.console.print(Columns(entries, padding=(0, 3)))

    def _try_move(self, seat: int, text: str, legal: list[Action]) -> bool:
        """Play the move the input names; on bad input say why and return False."""
        action: Action | str = text
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(legal):
                say(self.console, f"There is no move number {number}; choose 1 to {len(legal)}.")
                return False
            action = legal[number - 1]
        try:
            self.state.apply(seat, action)
        except InvalidAction as exc:
            say(self.console, f"Not a move: {exc}. Type 'help' for help.")
            return False
        except IllegalAction as exc:
            say(self.console, f"Not allowed: {exc.reason}.")
            return False
        return True

    def _ask(self, prompt: str) -> str:
        try:
            return self.read(prompt)
        except EOFError:
            self.console.print()
            raise QuitGame("the input ended", eof=True) from None

    # -- the end --------------------------------------------------------------------------------
    def _show_end(self) -> None:
        state = self.state
        if self.hide:
            hide_screen(self.console)
            # Everything is unmasked now, so a spectator's view is fair to show to all.
            viewer, since = None, min(self.seen.values())
        else:
            (viewer,) = self.humans
            since = self.seen[viewer]
        view = state.view(viewer)
        show(self.console, self.game.render(view))
        title = "Since you last looked:" if viewer is not None else "Last events:"
        print_events(self.console, self.game, state.events(viewer, since=since), view, title)
        print_outcome(self.console, view, viewer)


def save_record(state: State, path: Path) -> None:
    """Write the replay record as JSON (readable by ``intrigue replay`` and ``intrigue.replay``)."""
    path.write_text(json.dumps(state.record().to_json(), indent=2) + "\n", encoding="utf-8")


def describe_seats(humans: set[int], bots: dict[int, Bot]) -> str:
    """``Humans: seat 0. Bots: seat 1 (random), ...``"""
    human_text = ", ".join(f"seat {s}" for s in sorted(humans))
    bot_text = ", ".join(f"seat {s} ({bots[s].name})" for s in sorted(bots)) or "none"
    return f"Humans: {human_text}. Bots: {bot_text}."


def seat_list(text: str, players: int) -> set[int]:
    """Parse ``"0,2"`` into seats, checking each is a seat of the game."""
    seats: set[int] = set()
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        if not part.isdigit() or not 0 <= int(part) < players:
            raise ValueError(f"{part!r} is not a seat (seats are 0..{players - 1})")
        seats.add(int(part))
    if not seats:
        raise ValueError("name at least one seat")
    return seats


def bot_names_for(spec: str, seats: list[int]) -> dict[int, str]:
    """Assign bot names to seats: one name for all, or one per bot seat in seat order."""
    names = [n.strip() for n in spec.split(",") if n.strip()] or ["random"]
    if len(names) == 1:
        return dict.fromkeys(seats, names[0])
    if len(names) != len(seats):
        raise ValueError(f"give one bot name, or one per bot seat ({len(seats)})")
    return dict(zip(seats, names, strict=True))
