"""The core never needs the research extras: engine/ and games/ never import interop/, and
playing every game loads neither OpenSpiel, PettingZoo, Gymnasium nor numpy."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "intrigue"
EXTRAS = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "numpy")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            names.add(base)
    return names


def test_engine_and_games_never_import_interop_or_the_extras():
    for package in ("engine", "games"):
        for path in (SRC / package).rglob("*.py"):
            for name in _imports(path):
                assert "interop" not in name, f"{path} imports {name}"
                assert name.split(".")[0] not in EXTRAS, f"{path} imports {name}"


def test_playing_loads_no_extra():
    script = (
        "import sys, random, intrigue\n"
        "from intrigue.engine import game_ids\n"
        "for gid in game_ids():\n"
        "    game = intrigue.load(gid)\n"
        "    s = game.new(None, 1, max_turns=2)\n"
        "    r = random.Random(1)\n"
        "    while not s.is_over:\n"
        "        seat = s.to_move[0]\n"
        "        s.apply(seat, r.choice(s.legal_actions(seat)))\n"
        f"print(sorted(m for m in {EXTRAS!r} if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
