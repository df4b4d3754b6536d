"""Which code and which bots played a run, so a run is never mixed with another.

``run.json`` holds the run's settings, the code version (the package version, and the git
commit when the package runs from a git checkout) and a fingerprint of the rules, of the lab's
code that plays and records a game (`RECORDER_MODULES`) and of every bot: a digest of the
source of the modules that decide its moves, its parameters and the game's fitted evaluation
weights. ``--resume`` carries on only when all of them are unchanged;
a run is never written into a folder that holds another run unless asked to overwrite it.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import subprocess
from collections.abc import Iterable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any

from intrigue.bots import make_bot
from intrigue.bots.heuristics import HEURISTICS
from intrigue.engine import load

from .design import BalanceConfig

RUN_FORMAT = "intrigue.balance-run/2"
# Files a run writes into its folder; --overwrite removes exactly these.
RUN_FILES = ("games.jsonl", "run.json", "report.json", "report.html")


class ResumeMismatch(ValueError):
    """``--resume`` in a directory whose games were played with other settings or code."""


class OutputExists(ValueError):
    """The output folder already holds a run, and neither resuming nor overwriting was asked."""


# -- code version ------------------------------------------------------------------------------
def code_version() -> dict[str, Any]:
    """The package version and, from a git checkout, the commit and whether files differ."""
    try:
        version = metadata.version("intrigue")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare tree
        version = "unknown"
    return {"package": version, **_git_state()}


@cache
def _git_state() -> dict[str, Any]:
    root = Path(__file__).resolve().parents[3]
    try:
        commit = _git(root, "rev-parse", "HEAD")
        dirty = bool(_git(root, "status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": dirty}


def _git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=True
    )
    return done.stdout.strip()


# -- fingerprints ------------------------------------------------------------------------------
def _digest(parts: Iterable[str]) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode())
        hasher.update(b"\0")
    return hasher.hexdigest()[:16]


@cache
def _module_source(name: str) -> str:
    try:
        return inspect.getsource(importlib.import_module(name))
    except (ImportError, OSError, TypeError):
        return f"<no source for {name}>"


def _package_source(package: str) -> list[str]:
    """The source of every module of a package and its data files, in a fixed order."""
    module = importlib.import_module(package)
    root = Path(module.__file__ or "").parent
    files = sorted(
        p for p in root.rglob("*") if p.is_file() and p.suffix in (".py", ".json", ".txt", ".csv")
    )
    return [f"{p.relative_to(root)}\n{p.read_text(errors='replace')}" for p in files]


def rules_fingerprint(game_id: str) -> str:
    """A digest of the game's package (rules, data) and of the engine."""
    package = type(load(game_id)).__module__.rpartition(".")[0]
    return _digest([*_package_source(package), *_package_source("intrigue.engine")])


def bot_fingerprint(name: str, game_id: str) -> dict[str, Any]:
    """What decides a bot's moves in this game: its parameters, the source of its class's
    module and of the game's heuristic (policy, evaluation weights and search settings)."""
    bot = make_bot(name)
    parameters = _parameters(bot)
    modules = [type(bot).__module__]
    base = getattr(bot, "base", None)
    if base is not None:  # a wrapper (restricted play): what it wraps decides too
        modules.append(type(base).__module__)
    modules += ["intrigue.bots.heuristic", "intrigue.bots.heuristics.valuation"]
    heuristic = HEURISTICS.get(game_id)
    weights: dict[str, Any] = {}
    if heuristic is not None:
        module_name = heuristic.partition(":")[0]
        modules.append(module_name)
        module = importlib.import_module(module_name)
        weights = {k: getattr(module, k) for k in ("WEIGHTS", "SEARCH") if hasattr(module, k)}
    sources = [_module_source(m) for m in sorted(set(modules))]
    return {
        "class": f"{type(bot).__module__}.{type(bot).__qualname__}",
        "parameters": parameters,
        "weights": _json_safe(weights),
        "sha256": _digest(
            [json.dumps(parameters, sort_keys=True), json.dumps(_json_safe(weights)), *sources]
        ),
    }


def _parameters(bot: Any) -> dict[str, Any]:
    """The bot's plain settings (numbers, text, flags), as given or derived."""
    if hasattr(bot, "parameters") and callable(bot.parameters):
        return dict(bot.parameters())
    fields = getattr(bot, "__dict__", {})
    return {
        k: v
        for k, v in sorted(fields.items())
        if isinstance(v, (int, float, str, bool)) or v is None
    }


def _json_safe(value: Any) -> Any:
    return json.loads(json.dumps(value, default=repr))


# The modules that turn a played game into its row (what is counted, evaluated and how a game
# is played and seeded): rows written by other versions of them do not mix with new ones.
RECORDER_MODULES = (
    "intrigue.bots.match",
    "intrigue.lab.arena",
    "intrigue.lab.evaluation",
    "intrigue.lab.facts",
    "intrigue.lab.runner",
    "intrigue.lab.trace",
)


def recorder_fingerprint() -> str:
    """A digest of the source of the modules that play a game and write its row."""
    return _digest(_module_source(m) for m in RECORDER_MODULES)


def provenance(config: BalanceConfig) -> dict[str, Any]:
    """The code version, the fingerprints of the rules, of the lab's recording of games and
    of every bot."""
    return {
        "code": code_version(),
        "rules": rules_fingerprint(config.game),
        "recorder": recorder_fingerprint(),
        "bots": {name: bot_fingerprint(name, config.game) for name in config.bot_names()},
    }


# -- run.json ------------------------------------------------------------------------------------
def run_record(config: BalanceConfig) -> dict[str, Any]:
    return {"format": RUN_FORMAT, "config": config.to_json(), **provenance(config)}


def check_resume(record: dict[str, Any], saved: dict[str, Any]) -> None:
    """Refuse to resume over games played with other settings, rules, bots or package version;
    the message names what changed."""
    if saved.get("format") != RUN_FORMAT:
        raise ResumeMismatch("it was written by an older version of the lab")
    changes = []
    config = BalanceConfig.from_json(record["config"])
    if not config.same_games(saved.get("config", {})):
        changes.append("the settings")
    if saved.get("code", {}).get("package") != record["code"]["package"]:
        changes.append(
            f"the package version ({saved.get('code', {}).get('package')} -> "
            f"{record['code']['package']})"
        )
    if saved.get("rules") != record["rules"]:
        changes.append("the rules' code")
    if saved.get("recorder") != record["recorder"]:
        changes.append("the lab's code that plays and records games")
    old_bots = saved.get("bots", {})
    for name, print_ in record["bots"].items():
        if old_bots.get(name, {}).get("sha256") != print_["sha256"]:
            changes.append(f"bot {name}")
    if changes:
        raise ResumeMismatch("changed since: " + ", ".join(changes))


def prepare_out_dir(
    out_dir: Path, record: dict[str, Any], *, resume: bool, overwrite: bool
) -> None:
    """Make ``out_dir`` ready: refuse to mix runs, clear the old one when overwriting."""
    if resume and overwrite:
        raise OutputExists("--resume and --overwrite contradict each other: choose one")
    existing = [name for name in RUN_FILES if (out_dir / name).exists()]
    if existing and not resume and not overwrite:
        raise OutputExists(
            f"{out_dir} already holds a run ({', '.join(existing)}); add --resume to carry it "
            "on, --overwrite to replace it, or choose another --out"
        )
    if resume and (out_dir / "run.json").exists():
        try:
            saved = json.loads((out_dir / "run.json").read_text())
        except json.JSONDecodeError:
            saved = {}
        try:
            check_resume(record, saved)
        except ResumeMismatch as exc:
            raise ResumeMismatch(
                f"{out_dir} holds games played with other settings or code ({exc}); "
                "use another --out, or --overwrite to replace them"
            ) from None
    if overwrite:
        for name in RUN_FILES:
            (out_dir / name).unlink(missing_ok=True)
        for crash in out_dir.glob("crash-*.json"):
            crash.unlink()
    out_dir.mkdir(parents=True, exist_ok=True)
