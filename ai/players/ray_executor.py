"""Games of a match or tournament played on a Ray cluster (the optional `cluster` extra).

`ray_tasks(tasks, address)` sends every (setup, index) game to Ray and yields the records
in task order, so a Ray run gives exactly what `--jobs` gives: every game draws everything
from seeds derived from (seed, index), wherever it runs.  `address` None starts (or joins)
a local Ray instance; "auto" or "ray://host:10001" joins an existing cluster, whose nodes
need Plyground installed (and any file a player spec names, at the same path).
Ray is imported only here and only when asked for: `pip install "plyground[cluster]"`.

A game Ray loses (its worker killed, its node gone) is played once more, then costs that
game only: `lost(task, reason)` makes its record and the run goes on.  An address is checked
within seconds (`check_address`) before Ray is asked to join it, which would otherwise retry
for minutes.  At the end only the games still running are cancelled.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

EXECUTORS = ("process", "ray")
"""Where games run: local worker processes (--jobs), or a Ray cluster."""

RETRIES = 1
"""A game whose Ray worker dies is played once more (the same seeds: the same game); a game's
own exception is never retried."""

CONNECT_SECONDS = 5.0
"""How long an address may take to answer before it is refused."""

START_A_CLUSTER = "start one with `ray start --head`, or give its address (--address host:6379)"

TOKEN_HELP = (
    "the cluster uses Ray's token authentication: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN "
    "(or RAY_AUTH_TOKEN_PATH) to its token (`ray get-auth-token` on its head node prints it)"
)


class ExecutorError(RuntimeError):
    """Ray is not installed, or the cluster cannot be reached (one line)."""


def _play_on_ray(task: Any, factories: tuple[tuple[str, str], ...], play: Any) -> Any:
    """In a Ray worker: the parent's registered games, then one game (`play(*task)`)."""
    from plyground.games.spawned import register_games

    register_games(factories)
    return play(*task)


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of "host:port" or "ray://host:port"; None if it names no port."""
    text = address.removeprefix("ray://").strip().rstrip("/")
    host, colon, port = text.rpartition(":")
    if not colon or not port.isdigit() or not host:
        return None
    return host.strip("[]"), int(port)


def _current_cluster() -> str | None:
    """The address of the cluster `ray start` left on this machine (RAY_ADDRESS first)."""
    if os.environ.get("RAY_ADDRESS"):
        return os.environ["RAY_ADDRESS"]
    record = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
    for candidate in (Path("/tmp/ray/ray_current_cluster"), record):
        with contextlib.suppress(OSError, UnicodeDecodeError):
            text = candidate.read_text(encoding="utf-8").strip()
            if text:
                return text
    return None


def check_address(address: str | None, seconds: float = CONNECT_SECONDS) -> None:
    """ExecutorError within `seconds` unless something answers at `address` ("auto": the
    cluster started on this machine); None (a local Ray started here) needs no check."""
    if address is None:
        return
    target = address
    if address.strip().lower() == "auto":
        found = _current_cluster()
        if found is None:
            raise ExecutorError(
                f"--address auto: no Ray cluster runs on this machine; {START_A_CLUSTER}"
            )
        target = found
    endpoint = _host_port(target)
    if endpoint is None:
        raise ExecutorError(f"--address {address}: expected host:port, ray://host:port or auto")
    try:
        with socket.create_connection(endpoint, timeout=seconds):
            pass
    except OSError as error:
        why = "no answer" if isinstance(error, TimeoutError) else (error.strerror or str(error))
        gone = f" (the cluster recorded here, {target}, has stopped?)" if target != address else ""
        raise ExecutorError(
            f"cannot reach the Ray cluster at {target}: {why}{gone}; {START_A_CLUSTER}"
        ) from None


def _join(ray: Any, address: str | None, num_cpus: int | None) -> None:
    """`ray.init` at `address`, its failure in one line (token authentication named)."""
    check_address(address)
    try:
        ray.init(
            address=address,
            num_cpus=num_cpus if address is None else None,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.ERROR,
        )
    except Exception as error:
        text = " ".join(str(error).split())[:300]
        lowered = f"{type(error).__name__} {text}".lower()  # Ray's AuthenticationError too
        if any(word in lowered for word in ("unauthenticated", "authentication", "auth token")):
            raise ExecutorError(f"cannot join the Ray cluster {address}: {TOKEN_HELP}") from None
        raise ExecutorError(
            f"cannot reach the Ray cluster {address or '(local)'}: {type(error).__name__}: {text}"
        ) from None


def ray_tasks(
    tasks: Iterable[tuple[Any, int]],
    play: Any,
    address: str | None = None,
    num_cpus: int | None = None,
    lost: Callable[[tuple[Any, int], str], Any] | None = None,
) -> Iterator[Any]:
    """Play every task on Ray with `play(*task)` (`ai.players.match.play_game`); records in
    order.  A game Ray loses becomes `lost(task, reason)` (None: ExecutorError)."""
    from plyground.games.spawned import registered_games

    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ExecutorError(
            'the ray executor needs Ray: pip install "plyground[cluster]" '
            '(in a checkout: pip install -e ".[cluster]")'
        ) from None
    if not ray.is_initialized():
        _join(ray, address, num_cpus)
    remote = ray.remote(num_cpus=1, max_retries=RETRIES)(_play_on_ray)
    factories = registered_games()
    listed = list(tasks)
    pending = [remote.remote(task, factories, play) for task in listed]
    finished = 0
    try:
        for task, reference in zip(listed, pending, strict=True):
            try:
                record = ray.get(reference)
            except ray.exceptions.RayTaskError:
                raise  # the game's own error, as with local processes
            except ray.exceptions.RayError as error:
                if lost is None:
                    raise ExecutorError(f"Ray lost a game: {type(error).__name__}") from None
                record = lost(task, f"void: Ray lost it ({type(error).__name__})")
            finished += 1
            yield record
    finally:
        _cancel_unfinished(ray, pending[finished:])


def _cancel_unfinished(ray: Any, references: list[Any]) -> None:
    """Cancel the games still running or waiting (never a finished one: Ray may abort on it)."""
    if not references:
        return
    with contextlib.suppress(Exception):
        _, running = ray.wait(references, num_returns=len(references), timeout=0)
        for reference in running:
            with contextlib.suppress(Exception):
                ray.cancel(reference, force=True)
