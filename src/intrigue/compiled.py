"""Compiled modules: Cython builds of intrigue's own modules, used only while they match.

Every module of intrigue is plain Python and runs as such. For speed (docs/performance.md,
*Issue 22, tenth round: compiled modules*), ``make serve`` and ``make test`` compile the
modules that a move and a search go through (`COMPILED`: the engine, the games, the bots and
the server's tables, transport and storage) with Cython, in pure-Python mode: the same source,
its annotations ignored, each module built in place beside its source
(``engine/game.cpython-311-x86_64-linux-gnu.so`` beside ``engine/game.py``), and the digest of
each source it was built from noted in ``_compiled.json``.

A compiled module is imported only while its source is exactly what it was built from: the
finder that ``intrigue/__init__.py`` installs (`use_matching_builds`) compares the digests and
imports the source itself when they differ, so an edited module runs as edited, and ``make``
rebuilds it later. ``INTRIGUE_PURE_PYTHON=1`` imports every source (for a debugger, or to
compare the two). A machine without Cython or a C compiler simply runs the sources.

    .venv/bin/python -m intrigue.compiling           # build what changed (Cython, a C compiler)
    .venv/bin/python -m intrigue.compiling --clean   # remove every build

This module is imported first of all and stays small; the build is `intrigue.compiling`.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = "intrigue"
PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "_compiled.json"
# The folders (under the package) whose modules are compiled: what a move and a search run.
COMPILED = (
    "engine",
    "games",
    "bots",
    "server/tables",
    "server/transport",
    "server/storage",
)
# Never compiled: packages' own files, Alembic's migrations (loaded by path, by Alembic) and
# modules run as programs (`python -m`: runpy runs a source, not a build).
SKIPPED_NAMES = ("__init__.py", "__main__.py")
SKIPPED_FOLDERS = ("migrations",)
PROGRAM = 'if __name__ == "__main__":'
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
PURE_VARIABLE = "INTRIGUE_PURE_PYTHON"
HINT = "make compiled"


def module_name(source: Path, directory: Path = PACKAGE_DIR, package: str = PACKAGE) -> str:
    """The dotted name of the module at ``source`` in ``package`` (rooted at ``directory``)."""
    return ".".join((package, *source.relative_to(directory).with_suffix("").parts))


def digest(source: Path) -> str:
    return hashlib.sha256(source.read_bytes()).hexdigest()


def sources(directory: Path = PACKAGE_DIR) -> list[Path]:
    """The modules that are compiled, in a stable order."""
    found = []
    for folder in COMPILED:
        for source in sorted((directory / folder).rglob("*.py")):
            if source.name in SKIPPED_NAMES or any(f in source.parts for f in SKIPPED_FOLDERS):
                continue
            if PROGRAM in source.read_text():
                continue
            found.append(source)
    return found


class MatchingBuilds(importlib.abc.MetaPathFinder):
    """A finder that imports a module of ``package`` compiled only if its source's digest is
    the one noted when it was built, else the source; it leaves other modules to the rest."""

    def __init__(self, package: str, directory: Path, digests: dict[str, str], pure: bool):
        self.prefix = package + "."
        self.directory = directory
        self.digests = digests
        self.pure = pure

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(self.prefix):
            return None
        *folders, name = fullname.split(".")[1:]
        folder = self.directory.joinpath(*folders)
        built = folder / (name + SUFFIX)
        if not built.exists():
            return None  # a package, or a module never built: the usual import
        source = folder / (name + ".py")
        if not source.exists():
            # A build left behind by a module since removed: never import it.
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        if not self.pure and self.digests.get(fullname) == digest(source):
            return importlib.util.spec_from_file_location(fullname, built)
        return importlib.util.spec_from_file_location(fullname, source)


def built_digests(manifest: Path = MANIFEST) -> dict[str, str]:
    """The digest of each module's source when it was built (none: nothing built)."""
    try:
        return json.loads(manifest.read_text())
    except (OSError, ValueError):
        return {}


def pure_python() -> bool:
    """Whether ``INTRIGUE_PURE_PYTHON`` asks for every module's source."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def use_matching_builds() -> None:
    """Install the finder for intrigue's modules (once), reading the digests of the builds."""
    if any(isinstance(finder, MatchingBuilds) for finder in sys.meta_path):
        return
    finder = MatchingBuilds(PACKAGE, PACKAGE_DIR, built_digests(), pure_python())
    sys.meta_path.insert(0, finder)


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was imported from a build rather than from its source."""
    return str(getattr(module, "__file__", "")).endswith(SUFFIX)


def summary(directory: Path = PACKAGE_DIR, manifest: Path = MANIFEST) -> str:
    """One line for a server's operator: whether the compiled modules are in use."""
    if pure_python():
        return f"running the Python sources ({PURE_VARIABLE} is set)"
    built = built_digests(manifest)
    found = sources(directory)
    matching = sum(built.get(module_name(source, directory)) == digest(source) for source in found)
    if matching == 0:
        return f"running the Python sources ({HINT} builds them, for speed)"
    if matching < len(found):
        changed = len(found) - matching
        return f"{matching} of {len(found)} modules compiled ({changed} changed since: {HINT})"
    return f"{matching} modules compiled"
