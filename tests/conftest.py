"""Settings for every test directory.

Hypothesis runs without its per-example deadline (200 ms by default): a deadline is a timed
assertion, and on a loaded machine (CI beside other jobs) an example may take longer than that
with nothing wrong. Speed is measured in ``bench/``, never asserted in tests.
"""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("intrigue", deadline=None)
settings.load_profile("intrigue")
