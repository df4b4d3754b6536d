"""The ``intrigue`` command: list the games, play one in the terminal, replay a record, serve.

Exit codes: 0 success (or the player quit), 1 the input ended or a file could not be written,
2 bad command-line arguments (unknown game, bot or option, bad seat), 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

import intrigue
from intrigue.bots import Bot, UnknownBot, bot_names, make_bot
from intrigue.engine import Game, IntrigueError, State

from .balance import add_balance_parser, balance_command
from .ladder import add_ladder_parser, ladder_command
from .output import make_console, say
from .play import QuitGame, TerminalPlay, bot_names_for, describe_seats, save_record, seat_list
from .replay import ReplayError, replay_file

USAGE_ERROR = 2
# The cap the arena applies when none is given (RULINGS MM-20 recommends 15 nights).
DEFAULT_ARENA_MAX_TURNS = {"masquerade-murder": 15}
# Elsewhere bots play at most this many turns per player: a game's turns are every side's, and
# the Masquerade Ball's natural length grows with the players (`medium` balls: a median of 124
# turns with three players, 179 with four, 1% longer than 322 and 441; docs/games/
# masquerade-ball.md), so one cap of 200 for every player count cut off a third of four-player
# balls, and 100 a player still 1-2% of them.
TURNS_PER_PLAYER = 150


def default_max_turns(game: Game, players: int | None) -> str:
    """The length cap bots play with when the user chose none (RULINGS §0)."""
    if game.id in DEFAULT_ARENA_MAX_TURNS:
        return str(DEFAULT_ARENA_MAX_TURNS[game.id])
    return str(TURNS_PER_PLAYER * (players if players is not None else game.player_counts[0]))


def add_default_cap(options: dict[str, Any], game: Game, players: int | None) -> bool:
    """Give bots a length cap (RULINGS §0) unless the user chose one or the game has none;
    whether one was added."""
    if "max_turns" in options or not any(o.name == "max_turns" for o in game.options):
        return False
    options["max_turns"] = default_max_turns(game, players)
    return True


class UsageError(Exception):
    """A bad command line: printed as ``error: ...`` with exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="intrigue", description="Hidden-information board games in the terminal."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("games", help="list the games and their options")

    play = commands.add_parser("play", help="play a game against bots or friends")
    play.add_argument("game", help="game id (see 'intrigue games')")
    play.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    play.add_argument(
        "--hotseat",
        nargs="?",
        const="all",
        metavar="SEATS",
        help="several humans at one keyboard: every seat, or the seats listed (e.g. 0,2)",
    )
    play.add_argument(
        "--bots",
        default="random",
        help="bot for the other seats, or one per bot seat, comma-separated "
        f"({', '.join(bot_names())})",
    )
    play.add_argument("--seed", type=int, help="random seed (default: random; printed)")
    play.add_argument("--players", type=int, help="number of players")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="game option (repeatable; lists are comma-separated)",
    )
    play.add_argument("--save", type=Path, metavar="FILE", help="write the replay record here")

    arena = commands.add_parser("arena", help="play seeded games between bots and rate them")
    arena.add_argument("game", help="game id (see 'intrigue games')")
    arena.add_argument(
        "--bots",
        default="ismcts,heuristic,random",
        help="comma-separated bots, rotated over the seats from game to game",
    )
    arena.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    arena.add_argument("--players", type=int, help="number of players")
    arena.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="game option"
    )
    arena.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")

    add_balance_parser(commands)
    add_ladder_parser(commands)

    replay = commands.add_parser("replay", help="replay a saved game step by step")
    replay.add_argument("file", type=Path, help="a record written by 'intrigue play --save'")
    replay.add_argument("--seat", type=int, help="see the game as this seat (default: spectator)")

    serve = commands.add_parser("serve", help="run the web server: lobby, tables and bots")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    serve.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: $INTRIGUE_DATABASE_URL, else sqlite:///intrigue.sqlite3)",
    )
    serve.add_argument(
        "--bot-delay",
        type=float,
        metavar="SECONDS",
        help="pause before each bot move (default: $INTRIGUE_BOT_DELAY, else 0.8)",
    )
    serve.add_argument(
        "--redis",
        metavar="URL",
        help="scale-out: Redis linking several server processes on one database "
        "(default: $INTRIGUE_REDIS_URL, else none: one process); see docs/deploy.md",
    )
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes sharing the port (more than 1 needs --redis)",
    )
    serve.add_argument(
        "--log-level",
        default="info",
        choices=("critical", "error", "warning", "info", "debug", "trace"),
        help="how much the server logs (info); secrets are masked at every level",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    console = make_console()
    try:
        if args.command == "games":
            return cmd_games(console)
        if args.command == "play":
            return cmd_play(console, args)
        if args.command == "arena":
            return cmd_arena(console, args)
        if args.command == "balance":
            return balance_command(console, args)
        if args.command == "ladder":
            return ladder_command(console, args)
        if args.command == "serve":
            return cmd_serve(args)
        return cmd_replay(console, args)
    except (UsageError, ReplayError, IntrigueError) as exc:
        say(make_console(stderr=True), f"error: {exc}", "bold red")
        return USAGE_ERROR
    except KeyboardInterrupt:
        say(console, "\nInterrupted.")
        return 130


def cmd_games(console: Console) -> int:
    for info in intrigue.games():
        players = "/".join(map(str, info["players"]))
        say(console, f"{info['id']} — {info['name']} ({players} players)", "bold")
        if info["summary"]:
            say(console, f"  {info['summary']}")
        options = Table.grid(padding=(0, 2))
        options.add_column(no_wrap=True)
        options.add_column()
        for opt in info["options"]:
            default = "none" if opt["default"] is None else opt["default"]
            about = f"{opt['help']} ({opt['type']}, default {default}"
            if opt["choices"]:
                about += f"; from {', '.join(map(str, opt['choices']))}"
            options.add_row(Text(f"  {opt['name']}"), Text(about + ")"))
        if info["options"]:
            say(console, "  Options (--option NAME=VALUE):")
            console.print(options)
    return 0


def parse_options(pairs: list[str]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"--option takes NAME=VALUE, not {pair!r}")
        options[name.strip()] = value.strip()
    return options


def new_state(args: argparse.Namespace) -> State:
    game = intrigue.load(args.game)
    return game.new(args.players, args.seed, **parse_options(args.option))


def choose_humans(args: argparse.Namespace, players: int) -> set[int]:
    if args.hotseat is None:
        if not 0 <= args.seat < players:
            raise UsageError(f"--seat {args.seat}: seats are 0..{players - 1}")
        return {args.seat}
    if args.hotseat == "all":
        return set(range(players))
    try:
        return seat_list(args.hotseat, players)
    except ValueError as exc:
        raise UsageError(f"--hotseat: {exc}") from None


# A search bot at a terminal table thinks at most this long about a move (a person waits).
PLAY_MOVE_SECONDS = 1.0


def play_bots(names: dict[int, str]) -> dict[int, Bot]:
    """The bots of a terminal game by seat, their searches capped at `PLAY_MOVE_SECONDS` (as
    the server caps them) unless a bot's name sets its own time budget."""
    from intrigue.bots.ismcts import cap_thinking

    bots = {seat: make_bot(name) for seat, name in names.items()}
    for bot in bots.values():
        cap_thinking(bot, PLAY_MOVE_SECONDS)
    return bots


def cmd_play(console: Console, args: argparse.Namespace) -> int:
    state = new_state(args)
    humans = choose_humans(args, state.players)
    bot_seats = [s for s in range(state.players) if s not in humans]
    try:
        bots = play_bots(bot_names_for(args.bots, bot_seats))
    except (UnknownBot, ValueError) as exc:
        raise UsageError(f"--bots: {exc}") from None
    say(console, f"{state.game.name}, seed {state.seed}. {describe_seats(humans, bots)}", "bold")
    code = 0
    try:
        TerminalPlay(console, state, humans, bots).run()
    except QuitGame as exc:
        say(console, f"Game abandoned: {exc.reason}.")
        code = 1 if exc.eof else 0
    if args.save is not None:
        try:
            save_record(state, args.save)
        except OSError as exc:
            say(console, f"error: cannot write {args.save}: {exc.strerror}", "bold red")
            return 1
        say(console, f"Record saved to {args.save}.")
    return code


def cmd_arena(console: Console, args: argparse.Namespace) -> int:
    from .arena import arena_command

    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if not names:
        raise UsageError("--bots: name at least one bot")
    for name in names:
        try:
            make_bot(name)
        except UnknownBot as exc:
            raise UsageError(f"--bots: {exc}") from None
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    options = parse_options(args.option)
    # Bots always play with a length cap (RULINGS §0), unless the user chose one.
    game = intrigue.load(args.game)
    add_default_cap(options, game, args.players)
    arena_command(
        console, args.game, names, args.games, args.seed, args.players, options, args.json
    )
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    # Imported here: the server's dependencies are an extra, and slow to import.
    try:
        from intrigue.server.config import (
            Settings,
            choose_bot_delay,
            choose_database_url,
            choose_redis,
            limits_from_environment,
            origins_from_environment,
        )
        from intrigue.server.transport.run import serve
    except ImportError as exc:
        raise UsageError(
            f"the server needs its extra: pip install 'intrigue[server]' ({exc})"
        ) from None
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: not a port number")
    try:
        bot_delay = choose_bot_delay(args.bot_delay)
    except ValueError as exc:
        raise UsageError(f"INTRIGUE_BOT_DELAY: {exc}") from None
    redis_url, redis_prefix = choose_redis(args.redis)
    if args.workers < 1:
        raise UsageError(f"--workers {args.workers}: at least 1")
    if args.workers > 1 and not redis_url:
        raise UsageError("--workers above 1 needs --redis (the processes must wake each other)")
    bus_secret = os.environ.get("INTRIGUE_BUS_SECRET") or None
    if redis_url and args.workers == 1 and not bus_secret:
        raise UsageError(
            "--redis needs INTRIGUE_BUS_SECRET: the same long random secret in every server "
            "process, which signs the notes on the bus (docs/deploy.md)"
        )
    try:
        limits = limits_from_environment()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    settings = Settings(
        database_url=choose_database_url(args.db),
        bot_delay=bot_delay,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        bus_secret=bus_secret,
        **limits,
        **origins_from_environment(args.host),
    )
    return serve(settings, args.host, args.port, args.workers, args.log_level)


def cmd_replay(console: Console, args: argparse.Namespace) -> int:
    replay_file(console, args.file, args.seat)
    return 0


def run() -> None:  # pragma: no cover - the console-script entry, for ``python -m``
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
