"""How far OpenSpiel's Monte Carlo CFR gets on an intrigue game (docs/interop.md).

    .venv/bin/python bench/interop_mccfr.py                       # Project Assassination
    .venv/bin/python bench/interop_mccfr.py --game masquerade-murder --seconds 30

Outcome sampling: iterations completed in ``--seconds``. External sampling: whether a single
iteration finishes within ``--limit`` seconds (it walks every action of the traverser at every
decision of a sampled game, and these games have hundreds of decisions with dozens of
actions each). Each runs in its own process so the limit can stop it.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import time


def outcome_sampling(game_id: str, max_turns: int, seconds: float) -> dict[str, float]:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    from intrigue.interop import openspiel

    game = openspiel.load_game(game_id, max_turns=max_turns)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        solver.iteration()
        done += 1
    elapsed = time.perf_counter() - start
    return {"iterations": done, "seconds": elapsed, "per_second": done / elapsed}


def _external(game_id: str, max_turns: int) -> None:
    from open_spiel.python.algorithms import external_sampling_mccfr

    from intrigue.interop import openspiel

    game = openspiel.load_game(game_id, max_turns=max_turns)
    external_sampling_mccfr.ExternalSamplingSolver(game).iteration()


def external_sampling(game_id: str, max_turns: int, limit: float) -> dict[str, float | bool]:
    process = multiprocessing.Process(target=_external, args=(game_id, max_turns))
    start = time.perf_counter()
    process.start()
    process.join(limit)
    finished = not process.is_alive()
    if not finished:
        process.terminate()
        process.join()
    return {"finished": finished, "seconds": time.perf_counter() - start, "limit": limit}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="project-assassination")
    parser.add_argument("--max-turns", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--limit", type=float, default=100.0)
    args = parser.parse_args(argv)
    report = {
        "game": args.game,
        "max_turns": args.max_turns,
        "outcome_sampling": outcome_sampling(args.game, args.max_turns, args.seconds),
        "external_sampling_one_iteration": external_sampling(args.game, args.max_turns, args.limit),
    }
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
