"""The ``intrigue`` terminal front end: ``intrigue games``, ``play`` and ``replay``.

The entry point is `intrigue.cli.main.main`. This package does not import that module itself: a
server started as ``python -m intrigue.cli.main`` spawns bot workers that run the module again
(as ``__mp_main__``), and runpy warns when the package has already imported the module it is
about to run.
"""
