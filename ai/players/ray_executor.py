"""Games of a match or tournament played on a Ray cluster (the optional `cluster` extra).

`ray_tasks(tasks, address)` sends every (setup, index) game to Ray and yields the records
in task order, so a Ray run gives exactly what `--jobs` gives: every game draws everything
from seeds derived from (seed, index), wherever it runs.  `address` None starts (or joins)
a local Ray instance; "auto" or "ray://host:10001" joins an existing cluster, whose nodes
need Plyground installed (and any file a player spec names, at the same path).
Ray is imported only here and only when asked for: `pip install "plyground[cluster]"`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

EXECUTORS = ("process", "ray")
"""Where games run: local worker processes (--jobs), or a Ray cluster."""


class ExecutorError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached (one line)."""


def _play_on_ray(task: Any, factories: tuple[tuple[str, str], ...], play: Any) -> Any:
    """In a Ray worker: the parent's registered games, then one game (`play(*task)`)."""
    from plyground.ai.players.spawned_games import register_games

    register_games(factories)
    return play(*task)


def ray_tasks(
    tasks: Iterable[tuple[Any, int]],
    play: Any,
    address: str | None = None,
    num_cpus: int | None = None,
) -> Iterator[Any]:
    """Play every task on Ray with `play(*task)` (`ai.players.match.play_game`); records in
    order."""
    from plyground.ai.players.spawned_games import registered_games

    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ExecutorError(
            'the ray executor needs Ray: pip install "plyground[cluster]" '
            '(in a checkout: pip install -e ".[cluster]")'
        ) from None
    if not ray.is_initialized():
        try:
            ray.init(
                address=address,
                num_cpus=num_cpus if address is None else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ExecutorError(
                f"cannot reach the Ray cluster {address or '(local)'}: {error}"
            ) from None
    remote = ray.remote(num_cpus=1, max_retries=0)(_play_on_ray)
    factories = registered_games()
    pending = [remote.remote(task, factories, play) for task in tasks]
    try:
        for reference in pending:
            yield ray.get(reference)
    finally:
        for reference in pending:
            ray.cancel(reference, force=True)
