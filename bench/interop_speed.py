"""Steps per second of the research adapters, beside leduc poker's, in one run.

    .venv/bin/python bench/interop_speed.py                      # every game, both libraries
    .venv/bin/python bench/interop_speed.py --against 601c664    # also an older commit's code
    .venv/bin/python bench/interop_speed.py --ref HEAD --against 601c664  # two commits
    .venv/bin/python bench/interop_speed.py --game project-assassination --seconds 5 --json
    .venv/bin/python bench/interop_speed.py --without tensors   # what a step costs besides them

Two loops, each what a learner runs (see docs/performance.md):

* ``pettingzoo``: ``env(...)`` (the wrapped environment), ``agent_iter``, ``last()``, a
  uniformly random action among the mask's, ``step``; ``reset`` after each game. Beside it
  PettingZoo's ``leduc_holdem_v4.env()`` (``pip install 'pettingzoo[classic]'`` brings rlcard).
* ``openspiel``: ``rl_environment.Environment(game)`` (its default: every player's
  information-state tensor and legal actions at every step), a uniformly random legal action,
  ``step``; chance nodes are sampled by the environment. Beside it OpenSpiel's ``leduc_poker``.

A step is one decision by a player. Rates are per second of the process's own CPU time
(``time.process_time``), so other jobs on a shared machine slow the run but do not change the
figures much; wall-clock rates are in the JSON too. Every measurement runs in its own process
(``--against`` runs an older commit's ``src/``, exported with ``git archive``, through
``PYTHONPATH``), the configurations take turns within each of ``--repeat`` rounds, and the best
round is reported (other processes only ever slow a run down): so old and new code meet the
same machine load.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("masquerade-murder", "masquerade-ball", "project-assassination", "shadows-over-japan")
LEDUC = "leduc"


# -- the measured loops (run in a worker process) -------------------------------------------


class Clock:
    """CPU time (and wall time) since it was made; ``over`` once ``seconds`` of CPU passed."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.cpu = time.process_time()
        self.wall = time.perf_counter()

    def over(self) -> bool:
        return time.process_time() - self.cpu >= self.seconds

    def rates(self, steps: int, episodes: int) -> dict[str, float]:
        cpu = time.process_time() - self.cpu
        wall = time.perf_counter() - self.wall
        return {
            "steps_per_s": steps / cpu,
            "steps_per_wall_s": steps / wall,
            "steps": steps,
            "episodes": episodes,
        }


def pettingzoo_steps(game_id: str, seconds: float) -> dict[str, float]:
    import numpy as np

    if game_id == LEDUC:
        from pettingzoo.classic import leduc_holdem_v4

        env = leduc_holdem_v4.env()
    else:
        from intrigue.interop.pettingzoo import env as make_env

        env = make_env(game_id)
    rng = random.Random(0)  # the cheapest uniform draw: the loop measures the environment
    steps = episodes = 0
    env.reset(seed=0)
    clock = Clock(seconds)
    while True:
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            env.step(action)
            del agent
        episodes += 1
        if clock.over():
            break
        env.reset()
    return clock.rates(steps, episodes)


def openspiel_steps(game_id: str, seconds: float) -> dict[str, float]:
    import pyspiel
    from open_spiel.python import rl_environment

    if game_id == LEDUC:
        game = pyspiel.load_game("leduc_poker")
    else:
        import intrigue.interop.openspiel  # noqa: F401  (registers the games)

        game = pyspiel.load_game("intrigue_" + game_id.replace("-", "_"))
    env = rl_environment.Environment(game, seed=0)
    rng = random.Random(0)
    steps = episodes = 0
    clock = Clock(seconds)
    while True:
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            legal = time_step.observations["legal_actions"][player]
            time_step = env.step([legal[rng.randrange(len(legal))]])
            steps += 1
        episodes += 1
        if clock.over():
            break
    return clock.rates(steps, episodes)


LOOPS = {"pettingzoo": pettingzoo_steps, "openspiel": openspiel_steps}


def stub_tensors(keep_views: bool) -> None:
    """Make the adapters' observation tensors all zeros, free (``keep_views``: the seat's view
    is still built): what a step costs without them (``--without``; current code only)."""
    import numpy as np

    from intrigue.interop import observations, openspiel

    def tensor(self: Any, state: Any, seat: int) -> Any:
        if keep_views:
            state.shared_view(seat)
        return np.zeros(self.size, np.float32)

    def values(self: Any, state: Any, player: int) -> list[float]:
        if keep_views and state.intrigue_state is not None:
            state.intrigue_state.shared_view(player)
        return [0.0] * self.tensor.size

    observations.SeatTensors.tensor = tensor
    openspiel.Observer.values = values


def worker(spec: str, seconds: float, without: str | None) -> None:
    library, game_id = spec.split(":", 1)
    if without and game_id != LEDUC:
        stub_tensors(keep_views=without == "encoding")
    print(json.dumps(LOOPS[library](game_id, seconds)))


# -- the driver ------------------------------------------------------------------------------


def export_source(ref: str, into: Path) -> Path:
    """``src/`` of commit ``ref``, written under ``into`` (nothing in the work tree changes)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", ref, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def measure(
    spec: str, seconds: float, pythonpath: Path | None, without: str | None = None
) -> dict[str, float]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    extra = ["--without", without] if without else []
    out = subprocess.run(
        [sys.executable, __file__, "--worker", spec, "--seconds", str(seconds), *extra],
        check=True,
        capture_output=True,
        text=True,
        env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def run(args: argparse.Namespace) -> dict[str, Any]:
    codes: dict[str, Path | None] = {"current": None}
    with tempfile.TemporaryDirectory() as tmp:
        if args.ref:  # measure a commit rather than the work tree
            (Path(tmp) / "current").mkdir()
            codes["current"] = export_source(args.ref, Path(tmp) / "current")
        if args.against:
            (Path(tmp) / "against").mkdir()
            codes[args.against] = export_source(args.against, Path(tmp) / "against")
        configs = [(lib, LEDUC, "current") for lib in args.library]
        configs += [
            (lib, game, code) for game in args.game for lib in args.library for code in codes
        ]
        runs: dict[str, list[dict[str, float]]] = {}
        for _ in range(args.repeat):
            for lib, game, code in configs:
                key = f"{lib}:{game}:{code}"
                without = args.without if code == "current" else None
                result = measure(f"{lib}:{game}", args.seconds, codes[code], without)
                runs.setdefault(key, []).append(result)
                if not args.json:
                    rate = result["steps_per_s"]
                    print(f"  {key}: {rate:,.0f} steps per CPU second", file=sys.stderr)
    best = {key: max(r["steps_per_s"] for r in results) for key, results in runs.items()}
    return {"machine": machine(), "args": vars(args), "best": best, "runs": runs}


def machine() -> dict[str, Any]:
    return {
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }


def table(report: dict[str, Any]) -> str:
    best = report["best"]
    against = report["args"]["against"]
    rows = []
    head = "| library | game | steps/CPU s | vs leduc |"
    rule = "|---|---|---:|---:|"
    if against:
        head += f" at {against} | speed-up |"
        rule += "---:|---:|"
    rows += [head, rule]
    for lib in report["args"]["library"]:
        leduc = best[f"{lib}:{LEDUC}:current"]
        rows.append(f"| {lib} | leduc | {leduc:,.0f} | 1.00 |" + (" | |" if against else ""))
        for game in report["args"]["game"]:
            now = best[f"{lib}:{game}:current"]
            row = f"| {lib} | {game} | {now:,.0f} | {now / leduc:.2f} |"
            if against:
                old = best[f"{lib}:{game}:{against}"]
                row += f" {old:,.0f} | **{now / old:.1f}x** |"
            rows.append(row)
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="default: every game")
    parser.add_argument("--library", action="append", choices=tuple(LOOPS))
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best is reported")
    parser.add_argument("--against", help="also measure this commit's code (a git ref)")
    parser.add_argument("--ref", help="measure this commit's code instead of the work tree")
    parser.add_argument("--json", action="store_true", help="print every run as JSON")
    parser.add_argument(
        "--without",
        choices=("tensors", "encoding"),
        help="current code with free all-zero tensors (encoding: the views still built)",
    )
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker, args.seconds, args.without)
        return
    args.game = args.game or list(GAMES)
    args.library = args.library or list(LOOPS)
    report = run(args)
    print(json.dumps(report, indent=1) if args.json else table(report))


if __name__ == "__main__":
    main()
