"""Where games are played: in this process, in local worker processes, or as Ray tasks.

Every backend runs the same pure task function (seeds and agent specs in, a small record
out) and hands the records back in task order, so a table built from them is the same for
one process, K processes and a Ray cluster. Nothing but the task tuples travels to the
workers: they build their agents from the specs themselves.

Ray is an optional extra (``pip install 'boardgame-envs[ray]'``); :func:`connect_ray` starts
a local instance sized to ``workers`` or joins a running cluster, and checks an address can
be reached before Ray is asked to join it, so a wrong address fails within seconds.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from typing import Any

from boardgame_envs.core.rules import InvalidConfigError

BACKENDS = ("local", "ray")
RAY_INSTALL = "pip install 'boardgame-envs[ray]'"
CONNECT_TIMEOUT_S = 10.0


class WorkerError(RuntimeError):
    """A task failed on a worker; the message names what failed there."""


def check_backend(backend: str, workers: int) -> None:
    if backend not in BACKENDS:
        raise InvalidConfigError(
            f"backend={backend!r} is not allowed; allowed: {', '.join(BACKENDS)}"
        )
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InvalidConfigError(f"workers={workers!r} is not allowed; allowed: an integer >= 1")


def import_ray():
    """The ``ray`` module, or a clear error saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InvalidConfigError(
            f"--backend ray needs Ray, which is not installed; install it with: {RAY_INSTALL}"
        ) from None
    return ray


def connect_ray(address: str = "", workers: int = 1, timeout: float = CONNECT_TIMEOUT_S):
    """Ray, initialised: a local instance with ``workers`` CPUs when ``address`` is empty,
    else the running cluster at ``address`` (``host:port``, ``ray://host:port`` or
    ``auto``). An already initialised Ray is used as it is."""
    if address and address != "auto":
        _check_reachable(address, timeout)
    ray = import_ray()
    if ray.is_initialized():
        return ray
    if address:
        try:  # a port that answers but is no Ray head: Ray retries for about 20 s, then fails
            ray.init(address=address, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise InvalidConfigError(
                f"--ray-address {address!r}: could not join a Ray cluster there ({error})"
            ) from None
    else:
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    return ray


def _check_reachable(address: str, timeout: float) -> None:
    """Refuse an address that does not answer a TCP connection within ``timeout`` s."""
    host_port = address.split("://", 1)[-1]
    host, _, port = host_port.rpartition(":")
    if not host or not port.isdigit():
        raise InvalidConfigError(
            f"--ray-address {address!r} is not allowed; allowed: host:port, ray://host:port or auto"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise InvalidConfigError(
            f"--ray-address {address!r} cannot be reached within {timeout:g} s ({error}); "
            "is the cluster's head node running (ray start --head) and the port open?"
        ) from None


def run_tasks(
    function: Callable[[Any], Any],
    tasks: list,
    workers: int = 1,
    backend: str = "local",
    ray_address: str = "",
) -> Iterator:
    """``function(task)`` for every task, yielded in task order.

    ``local`` with one worker runs them here; with more, in ``workers`` spawned processes;
    ``ray`` as Ray tasks (up to ``workers`` at a time on a local instance, as many as the
    cluster runs at once on one given by ``ray_address``). ``function`` must be a module-level
    function and the tasks plain data. A failure on a worker raises :class:`WorkerError`.
    """
    check_backend(backend, workers)
    if backend == "ray":
        return _ray_map(function, tasks, connect_ray(ray_address, workers))
    if workers == 1:
        return (function(task) for task in tasks)
    return _process_map(function, tasks, workers)


def _process_map(function, tasks: list, workers: int) -> Iterator:
    import multiprocessing

    context = multiprocessing.get_context("spawn")  # no inherited torch or thread state
    with context.Pool(workers) as pool:
        try:
            yield from pool.imap(function, tasks, chunksize=1)
        except WorkerError:
            raise
        except Exception as error:  # re-raised here with the worker's message
            raise WorkerError(f"{type(error).__name__}: {error}") from None


def _ray_map(function, tasks: list, ray) -> Iterator:
    remote = ray.remote(num_cpus=1, max_retries=0)(function)
    # A window of tasks in flight keeps the driver's memory flat on long leagues.
    window = max(4, 2 * int(ray.available_resources().get("CPU", 1)))
    pending: list = []
    for task in tasks:
        pending.append(remote.remote(task))
        if len(pending) >= window:
            yield _ray_get(ray, pending.pop(0))
    for ref in pending:
        yield _ray_get(ray, ref)


def _ray_get(ray, ref):
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = error.cause if getattr(error, "cause", None) is not None else error
        raise WorkerError(f"{type(cause).__name__}: {cause}") from None
