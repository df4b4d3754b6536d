"""Compiled modules (`intrigue.compiled`): a build is imported only while it matches its source.

The finder is checked on a package of its own in a temporary folder (a "build" there is a file
that would fail to load, so importing the source proves the build was passed over); the real
package is checked as `make test` leaves it: built, every compiled module imported from its
build, unless ``INTRIGUE_PURE_PYTHON`` asks for the sources.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import intrigue
from intrigue import compiled
from intrigue.compiled import SUFFIX, MatchingBuilds, digest, is_compiled, module_name, sources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    """``fakepkg`` with one module, ``fakepkg.mod``, and a "build" of it that cannot load."""
    folder = tmp_path / "fakepkg"
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "mod.py").write_text("WHERE = 'source'\n")
    (folder / ("mod" + SUFFIX)).write_bytes(b"not a shared object")
    sys.path.insert(0, str(tmp_path))
    yield folder
    sys.path.remove(str(tmp_path))
    for name in [n for n in sys.modules if n == "fakepkg" or n.startswith("fakepkg.")]:
        del sys.modules[name]


def _import_with(finder: MatchingBuilds) -> object:
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module("fakepkg.mod")
    finally:
        sys.meta_path.remove(finder)


def test_a_build_whose_source_changed_is_passed_over_for_the_source(package: Path) -> None:
    digests = {"fakepkg.mod": "the digest of another source"}
    finder = MatchingBuilds("fakepkg", package, digests, False)
    module = _import_with(finder)
    assert module.WHERE == "source"  # type: ignore[attr-defined]
    assert module.__file__ == str(package / "mod.py")


def test_a_build_matching_its_source_is_the_one_imported(package: Path) -> None:
    digests = {"fakepkg.mod": digest(package / "mod.py")}
    spec = MatchingBuilds("fakepkg", package, digests, False).find_spec("fakepkg.mod")
    assert spec is not None and spec.origin == str(package / ("mod" + SUFFIX))
    with pytest.raises(ImportError):  # this "build" is not a real one: loading it fails
        _import_with(MatchingBuilds("fakepkg", package, digests, False))


def test_pure_python_imports_the_source_even_of_a_matching_build(package: Path) -> None:
    digests = {"fakepkg.mod": digest(package / "mod.py")}
    module = _import_with(MatchingBuilds("fakepkg", package, digests, True))
    assert module.WHERE == "source"  # type: ignore[attr-defined]


def test_a_build_left_by_a_removed_module_is_never_imported(package: Path) -> None:
    digests = {"fakepkg.mod": digest(package / "mod.py")}
    (package / "mod.py").unlink()
    with pytest.raises(ModuleNotFoundError):
        _import_with(MatchingBuilds("fakepkg", package, digests, False))


def test_modules_without_a_build_and_other_packages_are_left_to_the_usual_import(
    package: Path,
) -> None:
    (package / "other.py").write_text("")
    finder = MatchingBuilds("fakepkg", package, {}, False)
    assert finder.find_spec("fakepkg.other") is None
    assert finder.find_spec("fakepkg") is None
    assert finder.find_spec("json") is None


def test_what_is_compiled_is_what_the_makefile_rebuilds_on() -> None:
    """The Makefile's list of folders (its rebuild rule) is `compiled.COMPILED`, and neither
    packages' own files nor migrations are compiled."""
    makefile = (ROOT / "Makefile").read_text()
    rule = makefile[makefile.index("COMPILED_SOURCES :=") :].split("\n\n")[0]
    folders = re.findall(r"src/intrigue/([\w/]+)", rule.split("-name")[0])
    assert tuple(folders) == compiled.COMPILED
    names = {module_name(source) for source in sources()}
    assert "intrigue.engine.game" in names and "intrigue.server.tables.table" in names
    assert not any(name.endswith("__init__") or ".migrations." in name for name in names)
    # The server's worker processes run `python -m intrigue.server.transport.worker`: a source.
    assert "intrigue.server.transport.worker" not in names


BUILT = bool(compiled.built_digests()) and not compiled.pure_python()


@pytest.mark.skipif(not BUILT, reason="no build (make compiled), or pure Python asked for")
def test_after_a_build_the_modules_of_a_move_and_a_search_run_compiled() -> None:
    """As `make test` leaves the checkout: every compiled module that is loaded came from its
    build if its source is the one built (in a fresh checkout, all: the engine, a game, the
    search and the server's table among them), from its source if that was edited since."""
    built = compiled.built_digests()
    for name in (
        "intrigue.engine.game",
        "intrigue.games.masquerade_ball.rules",
        "intrigue.bots.ismcts",
        "intrigue.server.tables.table",
    ):
        importlib.import_module(name)
    by_name = {module_name(source): source for source in sources()}
    loaded = {name: module for name, module in sys.modules.items() if name in by_name}
    assert len(loaded) >= 4
    for name, module in loaded.items():
        assert is_compiled(module) == (built.get(name) == digest(by_name[name])), name
    assert any(is_compiled(module) for module in loaded.values())


def test_pure_python_is_one_variable_away() -> None:
    """``INTRIGUE_PURE_PYTHON=1``: every module from its source, whatever was built."""
    script = "import intrigue.engine.game as g; print(g.__file__)"
    env = {**os.environ, compiled.PURE_VARIABLE: "1"}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().endswith(os.path.join("engine", "game.py"))
    assert intrigue.load("masquerade-murder").new(5, seed=1).to_move


def test_a_server_operator_reads_whether_the_modules_run_compiled(
    package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`compiled.summary`, printed by `intrigue serve` under its address: how many modules
    run compiled, how many changed since the build, or that the sources run and why."""
    for folder in compiled.COMPILED:
        (package / folder).mkdir(parents=True, exist_ok=True)
    first, second = package / "engine" / "a.py", package / "games" / "b.py"
    first.write_text("A = 1\n")
    second.write_text("B = 2\n")
    manifest = package / "_compiled.json"
    monkeypatch.delenv(compiled.PURE_VARIABLE, raising=False)

    def built(*sources: Path) -> str:
        digests = {module_name(s, package): digest(s) for s in sources}
        manifest.write_text(json.dumps(digests))
        return compiled.summary(package, manifest)

    assert built() == "running the Python sources (make compiled builds them, for speed)"
    assert built(first, second) == "2 modules compiled"
    assert built(first) == "1 of 2 modules compiled (1 changed since: make compiled)"
    monkeypatch.setenv(compiled.PURE_VARIABLE, "1")
    assert built(first, second) == "running the Python sources (INTRIGUE_PURE_PYTHON is set)"
