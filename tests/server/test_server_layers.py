"""The server package reads top down: layers that import only the layers below them, no circles.

The import graph is built from the source with `ast` (every import counts, including those
under ``if TYPE_CHECKING:`` and inside functions: a part that imports its owner only "for
typing" still ties the two together).
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import intrigue.server

PACKAGE = "intrigue.server"
ROOT = Path(intrigue.server.__file__).parent
# Bottom to top; a module may import its own layer (without circles) and the layers below.
LAYERS = ["base", "storage", "tables", "scaleout", "transport"]
BASE = {"config", "timesource"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def server_modules() -> dict[str, Path]:
    paths = [p for p in ROOT.rglob("*.py") if "migrations" not in p.parts]
    return {module_name(p): p for p in paths}


def imports_of(name: str, source: str, is_package: bool, known: set[str]) -> set[str]:
    """The server modules ``name`` imports (``from .x import y`` may name module ``.x.y``)."""
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        found.update(t for t in targets if t in known and t != name)
    return found


def layer_of(name: str) -> int | None:
    """The layer index of a module (None for the package itself, which sits above all)."""
    rest = name.removeprefix(PACKAGE).lstrip(".").split(".")
    if rest == [""]:
        return None
    if rest[0] in BASE:
        return LAYERS.index("base")
    return LAYERS.index(rest[0])


def graph() -> dict[str, set[str]]:
    modules = server_modules()
    known = set(modules)
    return {
        name: imports_of(name, path.read_text("utf-8"), path.name == "__init__.py", known)
        for name, path in modules.items()
    }


def test_every_server_module_belongs_to_a_layer() -> None:
    for name in server_modules():
        if name != PACKAGE:
            assert layer_of(name) is not None, name


def test_no_server_module_imports_another_in_a_circle() -> None:
    # Package __init__ files import nothing but their own docstring; leaving them out keeps the
    # check about modules (importing `intrigue.server.x.y` runs `intrigue.server.__init__`).
    edges = {
        name: {t for t in targets if t != PACKAGE}
        for name, targets in graph().items()
        if name != PACKAGE
    }
    try:
        list(graphlib.TopologicalSorter(edges).static_order())
    except graphlib.CycleError as exc:
        raise AssertionError(f"import circle: {' -> '.join(exc.args[1])}") from None


def test_layers_import_only_downwards() -> None:
    upward = []
    for name, targets in graph().items():
        mine = layer_of(name)
        if mine is None:
            continue
        for target in targets:
            theirs = layer_of(target)
            if theirs is not None and theirs > mine:
                upward.append(f"{name} imports {target}")
    assert not upward, upward


def test_each_layer_says_what_it_is_for() -> None:
    for layer in LAYERS[1:]:
        init = ROOT / layer / "__init__.py"
        docstring = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert docstring and len(docstring.split()) > 20, layer


def test_the_checker_sees_a_circle_and_an_upward_import() -> None:
    """The checks above can fail: made-up modules with a circle and an upward import."""
    a, b, app = (f"{PACKAGE}.{m}" for m in ("tables.a", "tables.b", "transport.app"))
    known = {a, b, app}
    a_imports = imports_of(a, "from .b import x\nfrom ..transport.app import y\n", False, known)
    typing_only = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\n"
    b_imports = imports_of(b, typing_only, False, known)
    assert a_imports == {b, app} and b_imports == {a}  # TYPE_CHECKING imports count
    sorter = graphlib.TopologicalSorter({a: a_imports & {b}, b: b_imports})
    try:
        list(sorter.static_order())
        raise AssertionError("the circle a -> b -> a was not seen")
    except graphlib.CycleError:
        pass
    assert layer_of(app) > layer_of(a)  # type: ignore[operator]
