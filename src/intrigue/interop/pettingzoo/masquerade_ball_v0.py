"""The Masquerade Ball in PettingZoo, version 0: see `intrigue.interop.pettingzoo`."""

from .aec import Module

_MODULE = Module("masquerade-ball", version=0)
env = _MODULE.env
raw_env = _MODULE.raw_env
parallel_env = _MODULE.parallel_env
metadata = _MODULE.metadata
