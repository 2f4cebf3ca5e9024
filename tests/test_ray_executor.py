"""Tournaments on Ray (the optional `cluster` extra) give exactly the --jobs results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from plyground.ai.players.match import play_tasks
from plyground.ai.players.tournament import TournamentSetup

FIRST_LEGAL = "def choose(state):\n    return state.legal_moves()[0]\n"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[object]:
    """A small local Ray instance (one CPU), shut down after the module's tests."""
    ray = pytest.importorskip(
        "ray", reason='Ray is the optional extra: pip install -e ".[cluster]"'
    )
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_a_ray_run_equals_the_jobs_run(local_ray: object, tmp_path: Path) -> None:
    agent = tmp_path / "first.py"
    agent.write_text(FIRST_LEGAL, encoding="utf-8")
    setup = TournamentSetup("tictactoe", (), ("easy", "medium", str(agent)), 2, seed=5)
    tasks = [(match, index) for _, match, index in setup.tasks()]
    by_jobs = list(play_tasks(tasks, jobs=2))
    on_ray = list(play_tasks(tasks, executor="ray"))
    strip = [(r.index, r.first, r.moves, r.winner, r.decisions, r.forfeit) for r in by_jobs]
    assert strip == [(r.index, r.first, r.moves, r.winner, r.decisions, r.forfeit) for r in on_ray]
    assert len(on_ray) == setup.total_games == 6


def test_the_ray_executor_without_ray_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins

    from plyground.ai.players.ray_executor import ExecutorError, ray_tasks

    real_import = builtins.__import__

    def no_ray(name: str, *args: object, **kwargs: object) -> object:
        if name == "ray":
            raise ImportError("no ray here")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(ExecutorError, match=r'pip install -e "\.\[cluster\]"') as raised:
        next(ray_tasks([], play=None))
    assert 'pip install "plyground[cluster]"' in str(raised.value)  # an installed user's line
