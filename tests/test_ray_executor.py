"""Tournaments on Ray (the optional `cluster` extra) give exactly the --jobs results."""

from __future__ import annotations

import socket
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from plyground.ai.players.match import play_tasks
from plyground.ai.players.tournament import TournamentSetup

FIRST_LEGAL = "def choose(state):\n    return state.legal_moves()[0]\n"


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
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


@pytest.mark.slow
def test_a_ray_worker_that_dies_costs_only_its_game(local_ray: Any) -> None:
    import dying_tasks  # tests/ is on the path here; Ray's workers get the module by value

    from plyground.ai.players.ray_executor import ray_tasks

    local_ray.cloudpickle.register_pickle_by_value(dying_tasks)
    tasks = [(index, 2) for index in range(5)]
    results = list(ray_tasks(tasks, dying_tasks.square_or_die_in_place, lost=lambda t, why: why))
    assert results[:2] == [0, 1] and results[3:] == [9, 16]
    assert results[2].startswith("void: Ray lost it")


class FakeRayError(Exception):
    """Ray's base error."""


class FakeTaskError(FakeRayError):
    """A game's own exception, carried back by Ray."""


class FakeRay:
    """Just enough of Ray for `ray_tasks`: tasks run when their result is asked for."""

    def __init__(self, crash_at: int = -1, init_error: Exception | None = None) -> None:
        self.exceptions = SimpleNamespace(RayError=FakeRayError, RayTaskError=FakeTaskError)
        self.crash_at = crash_at
        self.init_error = init_error
        self.cancelled: list[int] = []
        self.finished: set[int] = set()

    def is_initialized(self) -> bool:
        return self.init_error is None

    def init(self, **_: object) -> None:
        assert self.init_error is not None
        raise self.init_error

    def remote(self, **_: object) -> Callable[[Callable[..., Any]], Any]:
        def wrap(function: Callable[..., Any]) -> Any:
            def submit(task: tuple[Any, int], factories: object, play: object) -> tuple[int, int]:
                return task

            return SimpleNamespace(remote=submit)

        return wrap

    def get(self, reference: tuple[int, int]) -> int:
        index, _ = reference
        self.finished.add(index)
        if index == self.crash_at:
            raise FakeRayError("WorkerCrashedError")
        return index * index

    def wait(
        self, references: list[tuple[int, int]], num_returns: int, timeout: float
    ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        done = [r for r in references if r[0] in self.finished]
        return done, [r for r in references if r[0] not in self.finished]

    def cancel(self, reference: tuple[int, int], force: bool) -> None:
        self.cancelled.append(reference[0])


def with_fake_ray(monkeypatch: pytest.MonkeyPatch, fake: FakeRay) -> FakeRay:
    """`import ray` gives `fake` for one test."""
    monkeypatch.setitem(sys.modules, "ray", fake)
    return fake


def test_a_game_ray_loses_is_void_and_finished_games_are_never_cancelled(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from plyground.ai.players.ray_executor import ray_tasks

    fake = with_fake_ray(monkeypatch, FakeRay(crash_at=2))
    tasks = [(index, 0) for index in range(5)]
    results = list(ray_tasks(tasks, play=None, lost=lambda task, why: why))
    assert results[:2] == [0, 1] and results[3:] == [9, 16]
    assert results[2] == "void: Ray lost it (FakeRayError)"
    assert fake.cancelled == []
    fake = with_fake_ray(monkeypatch, FakeRay())
    stopped = ray_tasks(tasks, play=None, lost=lambda task, why: why)
    assert next(stopped) == 0
    stopped.close()  # Ctrl+C after the first game: only the games not finished are cancelled
    assert fake.cancelled == [1, 2, 3, 4]


def test_a_cluster_with_token_authentication_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    from plyground.ai.players import ray_executor
    from plyground.ai.players.ray_executor import ExecutorError, ray_tasks

    class AuthenticationError(Exception):
        """Ray's own, raised when the client has no token."""

    monkeypatch.setattr(ray_executor, "check_address", lambda address: None)
    for refusal in (
        ConnectionError("Failed to connect: UNAUTHENTICATED: Invalid or missing token"),
        AuthenticationError("no token found"),
    ):
        with_fake_ray(monkeypatch, FakeRay(init_error=refusal))
        with pytest.raises(ExecutorError, match=r"token authentication.*RAY_AUTH_TOKEN"):
            next(ray_tasks([], play=None, address="head:6379"))


def test_an_address_without_a_cluster_fails_within_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from plyground.ai.players import ray_executor
    from plyground.ai.players.ray_executor import ExecutorError, check_address

    monkeypatch.setattr(ray_executor, "_current_cluster", lambda: None)
    with pytest.raises(ExecutorError, match=r"no Ray cluster runs on this machine.*ray start"):
        check_address("auto")
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(
        ExecutorError, match=f"cannot reach the Ray cluster at ray://127.0.0.1:{port}"
    ):
        check_address(f"ray://127.0.0.1:{port}", seconds=2.0)
    monkeypatch.setattr(ray_executor, "_current_cluster", lambda: f"127.0.0.1:{port}")
    with pytest.raises(ExecutorError, match="has stopped"):
        check_address("auto", seconds=2.0)
    assert time.monotonic() - started < 10
    with pytest.raises(ExecutorError, match="expected host:port"):
        check_address("nowhere")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["killpg", "kill_parent"])
def test_a_ray_tournament_survives_a_hostile_agent(
    local_ray: Any, kind: str, tmp_path: Path
) -> None:
    """A student's agent that kills its process group or its parent, in a tournament on Ray:
    every game is recorded, the other players never forfeit, and this process lives on."""
    from test_hostile_students import hostile_file

    path = str(hostile_file(tmp_path, kind, "agent"))
    setup = TournamentSetup("tictactoe", (), (path, "random", "easy"), 1, seed=3)
    tasks = [(match, index) for _, match, index in setup.tasks()]
    records = list(play_tasks(tasks, executor="ray"))
    assert len(records) == setup.total_games
    for (match, _), record in zip(tasks, records, strict=True):
        hostile_side = match.specs.index(path) if path in match.specs else None
        if record.forfeit and not record.void:
            assert record.forfeiter == hostile_side, record.forfeit
            assert record.forfeit.startswith("hostile.py: "), record.forfeit
