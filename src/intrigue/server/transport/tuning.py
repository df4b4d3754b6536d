"""Process-wide settings for a server process under load (docs/performance.md).

Every move allocates thousands of short-lived dicts and lists (a view, events and a message per
connection). With CPython's default thresholds the cyclic garbage collector then runs about
every 700 allocations, and its full collections walk every object the process holds (the
imported framework alone is about 100,000); under load this cost about a quarter of the event
loop's time. So a serving process

* freezes what exists once the application is built (`gc.freeze`: modules, routes, settings
  are never garbage, so full collections stop walking them), and
* collects the youngest generation every `GEN0_THRESHOLD` allocations instead of 700: the
  garbage of a move is freed by reference counting anyway; the collector only has cycles to
  find, which the server hardly makes.

It also raises its limit on open files to the most the system allows (the soft limit is often
1,024: a thousand idle connections would leave no descriptor for anyone else).

Only the serving entry points call `tune_process` (``intrigue serve`` and its workers, the load
benchmark's server); tests that run a server in their own process keep the defaults.
"""

from __future__ import annotations

import contextlib
import gc
import resource

GEN0_THRESHOLD = 10_000  # allocations between collections of the youngest generation


def tune_process() -> None:
    """Freeze the objects of the built application and relax the collector's thresholds."""
    gc.collect()
    gc.freeze()
    _, gen1, gen2 = gc.get_threshold()
    gc.set_threshold(GEN0_THRESHOLD, gen1, gen2)
    _, most = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):  # an unlimited hard limit cannot be the soft
        resource.setrlimit(resource.RLIMIT_NOFILE, (most, most))
