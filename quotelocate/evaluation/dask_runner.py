"""Running evaluation tasks on a Dask distributed cluster (the ``[dask]`` extra).

Only :func:`run_on_dask` touches Dask, and it imports ``dask.distributed`` when called,
so nothing else in quotelocate needs Dask installed. The address is
``dask://HOST:PORT`` (or any address Dask's ``Client`` takes, such as
``tcp://HOST:PORT``). Each task is submitted as its own future; results come back as
tasks finish and ``progress(done, total)`` is called for each, so a progress bar moves
paper by paper. A task's error is raised here, as the worker raised it.

>>> dask_address("dask://10.0.0.5:8786")
'tcp://10.0.0.5:8786'
>>> dask_address("tcp://[::1]:8786")
'tcp://[::1]:8786'
"""

from __future__ import annotations

import uuid
from typing import Any, Callable, Sequence

from ..errors import ConfigError

CONNECT_TIMEOUT = 30.0
"""Seconds to wait for the scheduler before giving up."""


def dask_address(address: str) -> str:
    """The scheduler address Dask's ``Client`` takes, from ``dask://HOST:PORT``."""
    if not isinstance(address, str) or not address.strip():
        raise ConfigError(f"cluster: expected dask://HOST:PORT, got {address!r}")
    address = address.strip()
    if address.startswith("dask://"):
        address = "tcp://" + address[len("dask://") :]
    if "://" not in address:
        address = "tcp://" + address
    host_port = address.split("://", 1)[1]
    if not host_port or ":" not in host_port:
        raise ConfigError(f"cluster: {address!r} has no HOST:PORT (expected dask://HOST:PORT)")
    return address


def run_on_dask(
    address: str,
    fn: Callable[[Any], Any],
    tasks: Sequence[Any],
    *,
    progress: Callable[[int, int], None] | None = None,
    timeout: float | None = None,
) -> list[Any]:
    """``[fn(task) for task in tasks]``, computed on the Dask cluster at ``address``;
    ``timeout``: seconds to wait for the scheduler (default :data:`CONNECT_TIMEOUT`)."""
    target = dask_address(address)
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        from dask.distributed import Client, as_completed
    except ImportError:
        raise ConfigError(
            f"cluster {address}: Dask is not installed; install quotelocate[dask] (dask[distributed])"
        ) from None
    try:
        client = Client(target, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise ConfigError(f"cluster {address}: cannot reach the Dask scheduler ({type(exc).__name__}: {exc})") from None
    run = uuid.uuid4().hex[:8]
    try:
        futures = [
            client.submit(fn, task, key=f"quotelocate-{run}-{i}", pure=False, retries=0) for i, task in enumerate(tasks)
        ]
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        for done, fut in enumerate(as_completed(futures, loop=client.loop), start=1):
            results[index[fut.key]] = fut.result()
            if progress is not None:
                progress(done, len(futures))
        return results
    finally:
        client.close()
