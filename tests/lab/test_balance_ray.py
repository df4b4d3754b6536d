"""The Ray backend plays the very same games as the process backend (local Ray, started once)."""

import os

import pytest

from intrigue.lab.balance import BalanceConfig, run_balance

ray = pytest.importorskip("ray")


def without_run(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "run"}


@pytest.fixture(scope="session")
def local_ray():
    """One local Ray for the whole session: it takes seconds to start."""
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_and_processes_give_the_same_report(tmp_path, local_ray):
    config = BalanceConfig(
        "project-assassination",
        6,
        ["heuristic", "random"],
        2,
        {"max_turns": "30"},
        seed=21,
        vs_options={"cage": "permanent"},
    )
    on_ray = run_balance(config, tmp_path / "ray", backend="ray", workers=2)
    in_processes = run_balance(config, tmp_path / "processes", backend="process", workers=2)
    assert on_ray.report["run"]["backend"] == "ray"
    assert on_ray.played == 12
    assert without_run(on_ray.report) == without_run(in_processes.report)
    # The run left the session's Ray running for others (it did not start it).
    assert local_ray.is_initialized()
