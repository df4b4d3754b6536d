"""Computer players: the `Bot` protocol, the bots themselves and `make_bot` to get one by name."""

from .base import Bot, BotFactory, UnknownBot, bot_names, make_bot, register_bot
from .random_bot import RandomBot

__all__ = ["Bot", "BotFactory", "RandomBot", "UnknownBot", "bot_names", "make_bot", "register_bot"]
