"""Every intrigue game as a PettingZoo environment (``pip install 'intrigue[pettingzoo]'``).

One versioned module per game, following PettingZoo's classic environments::

    from intrigue.interop.pettingzoo import masquerade_murder_v0
    env = masquerade_murder_v0.env(render_mode="ansi", max_turns=10)
    env.reset(seed=42)

Each module has ``env`` (wrapped like the classic environments: an illegal move ends the
game with -1 for the offender, an action outside the space fails, the API order is enforced),
``raw_env`` (unwrapped: an illegal move raises ``IllegalAction``), ``parallel_env`` and
``metadata``. Importing this package also registers every game with PettingZoo's registry::

    import pettingzoo
    import intrigue.interop.pettingzoo  # registers intrigue/masquerade_murder_v0, ...
    env = pettingzoo.make("aec", "intrigue/masquerade_murder_v0", max_turns=10)
    par = pettingzoo.make("parallel", "intrigue/masquerade_murder_v0")

``environments()`` maps each name to its module; ``env(game_id, **kwargs)`` builds any game
by its intrigue id. See `aec` for observations, rewards and endings.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import pettingzoo
from pettingzoo import AECEnv, ParallelEnv

from intrigue.engine import game_ids

from .aec import IntrigueEnv, env_name

__all__ = [
    "NAMESPACE",
    "IntrigueEnv",
    "env",
    "env_name",
    "environments",
    "parallel_env",
    "raw_env",
    "register",
]
NAMESPACE = "intrigue"


def environments() -> dict[str, ModuleType]:
    """Every game's module by name (``{"masquerade_murder_v0": <module>, ...}``)."""
    return {name: module(name) for name in map(env_name, game_ids())}


def module(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}")


def env(game_id: str, **kwargs: Any) -> AECEnv:
    """The wrapped environment of ``game_id`` (``players``, ``render_mode``, game options)."""
    return module(env_name(game_id)).env(**kwargs)


def raw_env(game_id: str, **kwargs: Any) -> IntrigueEnv:
    """The environment of ``game_id`` without wrappers."""
    return module(env_name(game_id)).raw_env(**kwargs)


def parallel_env(game_id: str, **kwargs: Any) -> ParallelEnv:
    """The parallel environment of ``game_id``."""
    return module(env_name(game_id)).parallel_env(**kwargs)


def register() -> list[str]:
    """Register every game with PettingZoo's registry (AEC and parallel); returns the ids."""
    ids = []
    for game_id in game_ids():
        name = env_name(game_id)
        env_id = f"{NAMESPACE}/{name}"
        for kind, constructor in (("aec", "env"), ("parallel", "parallel_env")):
            registry = pettingzoo.aec_registry if kind == "aec" else pettingzoo.parallel_registry
            if env_id not in registry:
                pettingzoo.register(kind, env_id, entry_point=f"{__name__}.{name}:{constructor}")
        ids.append(env_id)
    return ids


register()
