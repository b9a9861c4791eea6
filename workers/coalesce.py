"""Group commit for asyncio: calls that arrive while a batch is being stored go together as the next.

The dispatcher's documents come back from Triton a model batch at a time; storing each in a
transaction of its own spent most of the dispatcher's CPU on per-transaction overhead (locks,
audit appends, round trips; bench/pipeline.py). A :class:`Coalescer` runs the first call at once
(no added latency when the system is idle) and lets the calls that arrive meanwhile wait for the
next batch, so batches grow exactly as fast as the database falls behind.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

I = TypeVar("I")  # noqa: E741 — an item, as in the typing docs
R = TypeVar("R")


class Coalescer(Generic[I, R]):
    """``await coalescer(item)`` runs ``run_batch([...items])`` with the items waiting at the
    time, at most ``max_batch`` of them and ``concurrency`` batches at once. ``linger_s``: a batch
    that is not full waits that long for more before it starts (where one more round trip per
    call costs more than a few milliseconds of latency).

    ``run_batch`` returns one result per item, in order; an exception in that list is raised to
    that item's caller alone, one raised by ``run_batch`` itself to every caller in the batch."""

    def __init__(
        self,
        run_batch: Callable[[list[I]], Awaitable[list[R | BaseException]]],
        *,
        max_batch: int = 64,
        concurrency: int = 1,
        linger_s: float = 0.0,
    ) -> None:
        self._run_batch = run_batch
        self._max_batch = max_batch
        self._concurrency = concurrency
        self._linger_s = linger_s
        self._pending: list[tuple[I, asyncio.Future[R]]] = []
        self._waiting = 0  # batches started that have not taken their calls yet (lingering)
        self._running: set[asyncio.Task[None]] = set()
        self.batches = 0
        self.items = 0

    async def __call__(self, item: I) -> R:
        future: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        self._start()
        return await future

    def _start(self) -> None:
        while len(self._running) < self._concurrency and len(self._pending) > self._waiting * self._max_batch:
            # a context of its own: the batch is no one caller's (its log lines carry no document id)
            task = asyncio.create_task(self._run(), context=contextvars.Context())
            self._waiting += 1
            self._running.add(task)
            task.add_done_callback(self._finished)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._start()

    async def _run(self) -> None:
        try:
            if self._linger_s and len(self._pending) < self._max_batch:
                await asyncio.sleep(self._linger_s)  # the calls of the next few milliseconds come along
        finally:
            self._waiting -= 1
        batch, self._pending = self._pending[: self._max_batch], self._pending[self._max_batch :]
        if not batch:
            return
        self.batches += 1
        self.items += len(batch)
        try:
            results = await self._run_batch([item for item, _ in batch])
        except BaseException as exc:  # every caller hears of it, cancellation included
            for _, future in batch:
                if future.done():
                    continue
                if isinstance(exc, asyncio.CancelledError):
                    future.cancel()
                else:
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), result in zip(batch, results, strict=True):
            if future.done():  # its caller was cancelled meanwhile
                continue
            if isinstance(result, BaseException):
                future.set_exception(result)
            else:
                future.set_result(result)
