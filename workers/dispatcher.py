"""The inference dispatcher: one process keeps many documents in flight to Triton (ARCHITECTURE §1).

A GPU model is only as fast as its batches are full. A prefork Celery worker makes one blocking
call at a time, so Triton's dynamic batcher sees batches of one: a model that takes 150 ms for a
batch of 32 then serves 6 documents a second instead of 150. The dispatcher consumes the
inference queue (the same Celery messages, ``workers.tasks.infer`` with a document id) and runs
each document as an asyncio task:

    begin (DB thread)   count the attempt, read and decrypt the page images
    call  (event loop)  doc_pipeline over gRPC, at most ``max_in_flight`` at once
    finish (DB thread)  store the result and decide (PROCESSING → EXTRACTED → decided), or the
                        engine's error
    ack                 only now: a dispatcher killed half-way leaves the message to be redelivered

so up to ``max_in_flight`` calls wait in Triton's queue while a batch runs, and every batch
leaves full. ``max_in_flight`` defaults to the model's batch capacity (max batch size x instances,
read from Triton) times four: one batch running and three waiting, because a batch leaves full
only if a whole batch of requests is already queued when the previous one ends, while the
dispatcher is busy storing that one's results (with two, bench/pipeline.py measured 0.8 of the
simulated GPU's rate; with four, 0.89 to 0.97 over five full runs).

begin and finish are group-committed (workers.coalesce): the documents that reach a step while
its previous batch is in the database go together, in one transaction, as the next batch.

The steps are the pipeline's own
(``apps.documents.pipeline``), idempotent on the document's state, so a redelivered message or a
document the reconciler re-sent is harmless.

Outages are waited out, never a document's failure (apps.documents.unavailability). Triton or
the model engine behind it unavailable: the call is retried with a capped, jittered backoff while
the message stays unacknowledged; after the last retry the document's attempt is given back, its
wait noted, and it is sent again (to the back of the queue), until the outage ends or the
unavailability window does. The database away: the step waits for it and runs again (a begin
gives back the attempt it had counted). A master key not loaded here yet: the document waits and
is sent again. Only the model failing on the document itself (an error that is no verdict) counts:
after the last retry it is left to the reconciler, which re-sends it within its attempts.

Kombu is not thread-safe: one thread owns the broker connection, receives messages and performs
the acknowledgements the event loop hands back to it. Django's ORM is synchronous: the database
steps run in a small thread pool (each thread keeps its connection).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import itertools
import logging
import queue
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from apps.documents.steps import PipelineStep
from apps.observability import metrics
from apps.observability.context import (
    REQUEST_ID_HEADER,
    SENT_AT_HEADER,
    document_id_var,
    request_id_var,
)
from engines.types import EngineError, EngineResult
from media.triton_client import AsyncTritonEngineClient, TritonUnavailableError
from workers.coalesce import Coalescer
from workers.retry import RetryPolicy
from workers.steps import INFER_BATCH_TASK, INFER_TASK, step_send

logger = logging.getLogger(__name__)

T = TypeVar("T")


class SharedMessage:
    """A message that carries several documents (``infer_batch``): acknowledged once every one of
    them is finished with, and returned to the queue instead if any of them was not (redelivered,
    the finished ones are no-ops). Used from the event loop's thread only."""

    def __init__(self, message: Any, documents: int) -> None:
        self.message = message
        self.outstanding = documents
        self.all_done = True

    def settle(self, ack: bool) -> bool | None:
        """One document finished; the message's fate (ack or not) once it was the last, else None."""
        self.outstanding -= 1
        self.all_done &= ack
        return self.all_done if self.outstanding == 0 else None


@dataclass(frozen=True)
class Delivery:
    """One document of an inference message: its id and what the message's headers said."""

    document_id: str
    sent_at: float | None
    request_id: str
    message: Any  # kombu's Message, acknowledged by the consumer thread only
    shared: SharedMessage | None = None  # the message carries other documents too


def parse_deliveries(body: Any, headers: dict[str, Any], message: Any) -> list[Delivery]:
    """The Celery message (protocol 2: body ``[args, kwargs, embed]``) as one Delivery per
    document (``infer``: one id; ``infer_batch``: a list), or none when it is neither."""
    task = headers.get("task")
    try:
        argument = body[0][0]
        if task == INFER_TASK:
            document_ids = [str(argument)]
        elif task == INFER_BATCH_TASK and isinstance(argument, list) and argument:
            document_ids = [str(document_id) for document_id in argument]
        else:
            return []
    except (IndexError, KeyError, TypeError):
        return []
    sent_at = headers.get(SENT_AT_HEADER)
    shared = SharedMessage(message, len(document_ids)) if len(document_ids) > 1 else None
    return [
        Delivery(
            document_id=document_id,
            sent_at=float(sent_at) if isinstance(sent_at, int | float) else None,
            request_id=str(headers.get(REQUEST_ID_HEADER) or ""),
            message=message,
            shared=shared,
        )
        for document_id in document_ids
    ]


class QueueConsumer:
    """Receives the inference queue's messages in its own thread and acknowledges them there.

    At most ``prefetch`` messages are unacknowledged at a time (the broker's QoS), which bounds
    how many documents one dispatcher holds. :meth:`stop_receiving` cancels the subscription and
    keeps acknowledging; :meth:`close` returns whatever is still unacknowledged to the queue.
    """

    def __init__(self, *, app: Any, queue_name: str, prefetch: int, deliver: Callable[[Delivery], None]):
        self.app = app
        self.queue_name = queue_name
        self.prefetch = prefetch
        self._deliver = deliver
        self._acks: queue.SimpleQueue[tuple[Any, bool]] = queue.SimpleQueue()
        self._receiving = threading.Event()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._run, name="inference-queue", daemon=True)
        self.connected = threading.Event()

    def start(self) -> None:
        self._receiving.set()
        self._thread.start()

    def ack(self, delivery: Delivery) -> None:
        self._settle(delivery, True)

    def requeue(self, delivery: Delivery) -> None:
        self._settle(delivery, False)

    def _settle(self, delivery: Delivery, ack: bool) -> None:
        if delivery.shared is not None:
            fate = delivery.shared.settle(ack)
            if fate is None:
                return  # other documents of its message are still being handled
            ack = fate
        self._acks.put((delivery.message, ack))

    def stop_receiving(self) -> None:
        self._receiving.clear()

    def close(self, timeout_s: float = 10.0) -> None:
        self._closing.set()
        self._thread.join(timeout=timeout_s)

    def _flush(self) -> None:
        while True:
            try:
                message, ack = self._acks.get_nowait()
            except queue.Empty:
                return
            try:
                if ack:
                    message.ack()
                else:
                    message.reject(requeue=True)
            except Exception:
                # the channel it came on is gone: the broker redelivers it (visibility timeout)
                logger.warning("could not acknowledge an inference message; it will be redelivered")

    def _on_message(self, body: Any, message: Any) -> None:
        deliveries = parse_deliveries(body, dict(message.headers or {}), message)
        if not deliveries:
            logger.error(
                "not an inference task on %s; dropped (the reconciler covers documents)", self.queue_name
            )
            message.ack()
            return
        for delivery in deliveries:
            self._deliver(delivery)

    def _run(self) -> None:
        from kombu import Consumer

        backoff = 1.0
        while not self._closing.is_set():
            try:
                with self.app.connection_for_read() as connection:
                    connection.ensure_connection(max_retries=3)
                    channel = connection.channel()
                    consumer = Consumer(
                        channel,
                        queues=[self.app.amqp.queues[self.queue_name]],
                        callbacks=[self._on_message],
                        accept=["json"],
                    )
                    consumer.qos(prefetch_count=self.prefetch)
                    consumer.consume()
                    self.connected.set()
                    backoff = 1.0
                    subscribed = True
                    while not self._closing.is_set():
                        self._flush()
                        if subscribed and not self._receiving.is_set():
                            consumer.cancel()
                            subscribed = False
                        with contextlib.suppress(TimeoutError):  # nothing arrived in 20 ms
                            connection.drain_events(timeout=0.02)
                    self._flush()
                    channel.close()  # Redis: unacknowledged messages go back to the queue
            except Exception as exc:
                self.connected.clear()
                if self._closing.is_set():
                    return
                logger.warning(
                    "broker connection lost (%s); reconnecting in %.0f s", type(exc).__name__, backoff
                )
                time.sleep(backoff)
                backoff = min(backoff * 2, 30.0)


class InferenceDispatcher:
    """Runs each delivered document through begin → call → finish, many at once."""

    def __init__(
        self,
        *,
        client: AsyncTritonEngineClient,
        db_threads: int = 4,
        retry: RetryPolicy | None = None,
        hold: int = 256,
    ) -> None:
        self.client = client
        # documents past begin hold their page images: at most this many at once (a message of
        # an upload batch brings many; the rest wait as ids)
        self._hold = asyncio.Semaphore(hold)
        self.retry = retry or RetryPolicy()
        self._db_threads = db_threads
        self._db = ThreadPoolExecutor(max_workers=db_threads, thread_name_prefix="dispatcher-db")
        # the database steps of many documents at once (workers.coalesce): a model batch comes
        # back together, and is read and stored together, two batches of each at most at a time
        # (messages arrive one by one: begin lingers 20 ms for the next ones, a model batch's
        # results a millisecond; both are small beside a GPU batch's hundreds of milliseconds)
        self._begin: Coalescer[str, Any] = Coalescer(
            self._begin_batch, max_batch=64, concurrency=2, linger_s=0.02
        )
        self._finish: Coalescer[tuple[Any, EngineResult | EngineError], Any] = Coalescer(
            self._finish_batch, max_batch=64, concurrency=2, linger_s=0.001
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self.heartbeat = time.monotonic()
        self.completed = 0

    def batching(self) -> str:
        """How many documents the database steps took together, on average (for the logs)."""
        return ", ".join(
            f"{name} {c.items / max(c.batches, 1):.1f} a batch"
            for name, c in (("begin", self._begin), ("finish", self._finish))
        )

    @property
    def active(self) -> int:
        return len(self._tasks)

    async def _in_db(self, function: Callable[..., T], /, **kwargs: Any) -> T:
        """``function(**kwargs)`` in a database thread, with this task's log context."""
        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._db, functools.partial(context.run, _db_call, function, kwargs)
        )

    def submit(self, delivery: Delivery, done: Callable[[Delivery, bool], None]) -> None:
        """Start one document; ``done(delivery, ack)`` is called when it is finished with."""
        task = asyncio.create_task(self._handle(delivery, done))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self, timeout_s: float) -> None:
        """Let the documents in flight finish for up to ``timeout_s``; cancel the rest (their
        messages go back to the queue)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout_s)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def close(self) -> None:
        """Close every database thread's connection (in that thread: Django connections belong to
        theirs), then the pool. The barrier makes each thread take exactly one close."""
        barrier = threading.Barrier(self._db_threads)

        def close_connection() -> None:
            from django.db import connections

            connections.close_all()
            barrier.wait(timeout=10)

        for future in [self._db.submit(close_connection) for _ in range(self._db_threads)]:
            with contextlib.suppress(Exception):
                future.result(timeout=15)
        self._db.shutdown(wait=True)

    async def _handle(self, delivery: Delivery, done: Callable[[Delivery, bool], None]) -> None:
        request_id_var.set(delivery.request_id)
        document_id_var.set(delivery.document_id)
        metrics.queue_wait_observe("infer", delivery.sent_at)
        from apps.documents.unavailability import DATABASE_ERRORS, StepUnavailable

        outage: tuple[type[Exception], ...] = (StepUnavailable, *DATABASE_ERRORS)
        ack = True
        try:
            async with self._hold:
                await self._infer(delivery.document_id)
        except asyncio.CancelledError:
            ack = False  # shutting down before it finished: back to the queue
            raise
        except outage as exc:
            # an outage, never the document's failure: back to the queue, to be tried again
            logger.warning("inference stopped: %s; the message goes back to the queue", type(exc).__name__)
            ack = False
        except Exception as exc:
            logger.exception("inference failed unexpectedly (%s)", type(exc).__name__)
            try:
                await self._in_db(
                    _fail_internal, document_id=delivery.document_id, exc_name=type(exc).__name__
                )
            except outage:
                ack = False  # the database too: tried again, and failed then if it must be
        finally:
            self.completed += 1
            done(delivery, ack)

    async def _begin_batch(self, document_ids: list[str]) -> list[Any]:
        from apps.documents.pipeline import document_infer_begin, documents_infer_begin

        return await self._in_db(
            _batch_or_each,
            batch=lambda ids: documents_infer_begin(document_ids=ids),
            each=lambda document_id: document_infer_begin(document_id=document_id),
            items=document_ids,
        )

    async def _finish_batch(self, finished: list[tuple[Any, EngineResult | EngineError]]) -> list[Any]:
        from apps.documents.pipeline import document_infer_finish, documents_infer_finish

        return await self._in_db(
            _batch_or_each,
            batch=lambda items: documents_infer_finish(finished=items),
            each=lambda item: document_infer_finish(begun=item[0], result=item[1]),
            items=finished,
        )

    async def _infer(self, document_id: str) -> None:
        from apps.documents.pipeline import StepOutcome

        started = time.perf_counter()
        begun = await self._database_awaited(self._begin, document_id, document_id=document_id, counts=True)
        if isinstance(begun, StepOutcome):
            if begun.waiting is not None:  # its master key is not loaded here: noted, sent again later
                await asyncio.sleep(self.retry.delay_after(begun.waited_s))
                await self._in_db(step_send, step=PipelineStep.INFER, document_id=document_id)
            return
        result = await self._call(begun)
        if isinstance(result, TritonUnavailableError):
            await self._unavailable(begun, result)
            return
        outcome = await self._database_awaited(self._finish, (begun, result), document_id=document_id)
        elapsed = time.perf_counter() - started
        if outcome.ran:
            metrics.stage_observe("infer", elapsed)
        logger.info(
            "inferred in %.0f ms (%s)",
            elapsed * 1000,
            result.code if isinstance(result, EngineError) else "extracted" if outcome.ran else "skipped",
        )
        if outcome.next_step:
            await self._in_db(step_send, step=outcome.next_step, document_id=document_id)

    async def _database_awaited(
        self, step: Callable[[Any], Awaitable[T]], item: Any, *, document_id: str, counts: bool = False
    ) -> T:
        """``await step(item)``, again after a backoff for as long as the database is away. A step
        that ``counts`` an attempt (begin) and had counted it before the database went gives it
        back first; a finish runs again on the result in hand (the attempt stands)."""
        from apps.documents.unavailability import StepUnavailable

        owed = False
        for retry in itertools.count():
            try:
                if owed:
                    await self._in_db(_give_back, document_id=document_id)
                    owed = False
                return await step(item)
            except StepUnavailable as stopped:
                owed = owed or (counts and document_id in stopped.counted)
                delay = self.retry.delay(retry)
                logger.warning("database unavailable; trying again in %.1f s", delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")  # itertools.count() never ends

    async def _unavailable(self, begun: Any, error: TritonUnavailableError) -> None:
        """After the last retry of a call: an outage is waited out (the attempt given back, the
        wait noted, the document sent again); a failure of the model on this document is left to
        the reconciler, within the document's attempts."""
        document_id = str(begun.document.pk)
        if not error.outage:
            logger.error(
                "Triton unavailable after %d retries (%s); left to the reconciler",
                self.retry.max_retries,
                error.kind,
            )
            return
        waited = await self._database_awaited(
            lambda document: self._in_db(_wait, document=document, error=error),
            begun.document,
            document_id=document_id,
        )
        if waited is None:
            return  # it waited past the unavailability window (failed), or moved on meanwhile
        logger.warning(
            "Triton unavailable after %d retries (%s); the document waits (%.0f s so far), sent again",
            self.retry.max_retries,
            error.kind,
            waited,
        )
        await self._in_db(step_send, step=PipelineStep.INFER, document_id=document_id)

    async def _call(self, begun: Any) -> EngineResult | EngineError | TritonUnavailableError:
        """The engine's answer, or the last unavailability after ``max_retries`` retries. The waits
        of an outage go on from how long the document had waited already."""
        from apps.documents.unavailability import waited_s

        waited = waited_s(begun.document)
        started_waiting = time.monotonic()
        failure: TritonUnavailableError | None = None
        for attempt in range(self.retry.max_retries + 1):
            try:
                started = time.perf_counter()
                with metrics.triton_call():
                    result = await self.client.read_document(
                        begun.pages,
                        document_type_hint=begun.document_type_hint,
                        text_layer=begun.text_layer,
                        **({"schema_json": begun.schema_json} if begun.schema_json else {}),
                        **({"document_types_json": begun.document_types_json} if begun.candidates else {}),
                        request_id=str(begun.document.pk),
                    )
                # the round trip (Triton's queue and the model), kept beside the engine's own timings
                round_trip_ms = int((time.perf_counter() - started) * 1000)
                return dataclasses.replace(
                    result, timings_ms={**result.timings_ms, "triton_ms": round_trip_ms}
                )
            except EngineError as error:
                metrics.TRITON_ERRORS.labels("engine").inc()
                return error
            except TritonUnavailableError as error:
                metrics.TRITON_ERRORS.labels("unavailable").inc()
                failure = error
                if attempt == self.retry.max_retries:
                    break
                if error.outage:
                    delay = self.retry.delay_after(waited + time.monotonic() - started_waiting)
                else:
                    delay = self.retry.delay(attempt)
                logger.warning("Triton unavailable (%s); retry %d in %.1f s", error.kind, attempt + 1, delay)
                await asyncio.sleep(delay)
        assert failure is not None
        return failure


def _db_call(function: Callable[..., T], kwargs: dict[str, Any]) -> T:
    from django.db import close_old_connections

    close_old_connections()  # a connection the database dropped is replaced, not reused
    return function(**kwargs)


def _batch_or_each(
    *, batch: Callable[[list[T]], list[Any]], each: Callable[[T], Any], items: list[T]
) -> list[Any]:
    """``batch(items)``; should it raise, ``each(item)`` one at a time, so that an exception
    reaches only the document that caused it (as an exception in the result list). A database
    gone away is every item's, raised as it is (the callers wait for it)."""
    from apps.documents.unavailability import StepUnavailable

    try:
        return batch(items)
    except StepUnavailable:
        raise
    except Exception:
        if len(items) == 1:
            raise
        logger.warning("a batch of %d documents failed; handling them one by one", len(items))
    results: list[Any] = []
    for item in items:
        try:
            results.append(each(item))
        except Exception as exc:
            results.append(exc)
    return results


def _give_back(*, document_id: str) -> None:
    """The attempt a begin counted before the database went away, given back."""
    from apps.documents.models import DocumentStatus
    from apps.documents.unavailability import attempts_give_back, database_needed

    with database_needed():
        attempts_give_back(document_ids=[document_id], expected=DocumentStatus.PROCESSING)


def _wait(*, document: Any, error: TritonUnavailableError) -> float | None:
    """The document waits on what the outage is of (its attempt given back); None when it has
    waited past the window (now failed) or moved on."""
    from apps.documents.models import DocumentStatus
    from apps.documents.unavailability import database_needed, dependency_of, document_wait

    with database_needed():
        return document_wait(
            document=document, dependency=dependency_of(error), expected=DocumentStatus.PROCESSING
        )


def _fail_internal(*, document_id: str, exc_name: str) -> None:
    from apps.documents import error_codes
    from apps.documents.models import Document
    from apps.documents.services import document_fail

    document = Document.objects.filter(pk=document_id).first()
    if document is not None:
        document_fail(
            document=document,
            code=error_codes.INTERNAL_ERROR,
            message=f"infer failed unexpectedly ({exc_name})",
        )


@dataclass(frozen=True)
class DispatcherSettings:
    url: str
    model: str
    queue_name: str
    timeout_s: float
    max_in_flight: int | None = None  # None: the model's batch capacity x in_flight_factor
    in_flight_factor: int = 4
    db_threads: int = 4
    metrics_port: int = 0
    shutdown_grace_s: float = 30.0
    retry: RetryPolicy = dataclasses.field(default_factory=RetryPolicy)


async def _capacity(settings: DispatcherSettings, stop: asyncio.Event) -> int:
    """The model's batch capacity, waiting for Triton to come up (a dispatcher may start first)."""
    delay = 1.0
    async with AsyncTritonEngineClient(settings.url, timeout_s=10, model=settings.model) as probe:
        while not stop.is_set():
            try:
                return await probe.batch_capacity()
            except (TritonUnavailableError, EngineError):
                logger.warning(
                    "model %s not ready on %s; asking again in %.0f s", settings.model, settings.url, delay
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, 30.0)
    return 1


def _post(loop: asyncio.AbstractEventLoop, inbox: asyncio.Queue[Delivery], delivery: Delivery) -> None:
    """From the consumer thread into the event loop's inbox."""
    loop.call_soon_threadsafe(inbox.put_nowait, delivery)


async def run(settings: DispatcherSettings, *, stop: asyncio.Event | None = None) -> int:
    """Dispatch until ``stop`` is set (SIGTERM/SIGINT in :func:`main`); returns documents handled."""
    from config.celery import app

    stop = stop or asyncio.Event()
    max_in_flight = settings.max_in_flight or (await _capacity(settings, stop)) * settings.in_flight_factor
    loop = asyncio.get_running_loop()
    inbox: asyncio.Queue[Delivery] = asyncio.Queue()
    consumer = QueueConsumer(
        app=app,
        queue_name=settings.queue_name,
        # documents being read or stored hold their message too: room for them beside the calls
        # (messages of upload batches carry many documents each; the dispatcher holds at most
        # max_in_flight x 2 of those past begin, the others wait as ids)
        prefetch=max_in_flight * 2,
        deliver=lambda delivery: _post(loop, inbox, delivery),
    )
    async with AsyncTritonEngineClient(
        settings.url, timeout_s=settings.timeout_s, max_in_flight=max_in_flight, model=settings.model
    ) as client:
        dispatcher = InferenceDispatcher(
            client=client, db_threads=settings.db_threads, retry=settings.retry, hold=max_in_flight * 2
        )
        if settings.metrics_port:
            from apps.observability.exporter import start_exporter
            from apps.observability.health import readiness_problems

            start_exporter(
                settings.metrics_port,
                live=lambda: time.monotonic() - dispatcher.heartbeat < 30,
                ready=lambda: readiness_problems() + ([] if consumer.connected.is_set() else ["queue"]),
            )

        def done(delivery: Delivery, ack: bool) -> None:
            (consumer.ack if ack else consumer.requeue)(delivery)

        consumer.start()
        logger.info(
            "dispatching %s to %s model %s, %d in flight",
            settings.queue_name,
            settings.url,
            settings.model,
            max_in_flight,
        )
        try:
            while not stop.is_set():
                dispatcher.heartbeat = time.monotonic()
                try:
                    delivery = await asyncio.wait_for(inbox.get(), timeout=1.0)
                except TimeoutError:
                    continue
                dispatcher.submit(delivery, done)
        finally:
            consumer.stop_receiving()
            while not inbox.empty():  # received but never started: straight back to the queue
                consumer.requeue(inbox.get_nowait())
            await dispatcher.drain(settings.shutdown_grace_s)
            consumer.close()
            dispatcher.close()
    logger.info(
        "dispatcher stopped after %d documents; %s",
        dispatcher.completed,
        dispatcher.batching(),
    )
    return dispatcher.completed


def main(settings: DispatcherSettings) -> int:
    """Run until SIGTERM or SIGINT, finishing the documents in flight (up to the grace period)."""

    async def _main() -> int:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, stop.set)
        return await run(settings, stop=stop)

    return asyncio.run(_main())
