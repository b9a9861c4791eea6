"""workers.coalesce: calls arriving while a batch runs go together as the next batch."""

from __future__ import annotations

import asyncio

import pytest

from workers.coalesce import Coalescer


def test_the_first_call_runs_at_once_and_the_calls_meanwhile_go_together() -> None:
    batches: list[list[int]] = []

    async def double(items: list[int]) -> list[int | BaseException]:
        batches.append(items)
        await asyncio.sleep(0.05)
        return [2 * i for i in items]

    async def main() -> list[int]:
        coalescer: Coalescer[int, int] = Coalescer(double, max_batch=4)
        first = asyncio.create_task(coalescer(0))
        await asyncio.sleep(0.01)  # the first batch is running
        rest = [asyncio.create_task(coalescer(i)) for i in range(1, 7)]
        return await asyncio.gather(first, *rest)

    assert asyncio.run(main()) == [0, 2, 4, 6, 8, 10, 12]
    assert batches == [[0], [1, 2, 3, 4], [5, 6]]


def test_an_exception_for_one_item_reaches_only_its_caller_and_one_for_the_batch_reaches_all() -> None:
    async def judge(items: list[int]) -> list[int | BaseException]:
        if 99 in items:
            raise RuntimeError("the database went away")
        return [ValueError(f"bad {i}") if i < 0 else i for i in items]

    async def main() -> list[object]:
        coalescer: Coalescer[int, int] = Coalescer(judge, concurrency=1)
        return await asyncio.gather(coalescer(1), coalescer(-1), coalescer(2), return_exceptions=True)

    first, second, third = asyncio.run(main())
    assert first == 1 and third == 2 and isinstance(second, ValueError)

    async def together() -> list[object]:
        coalescer: Coalescer[int, int] = Coalescer(judge, concurrency=1)
        blocker = asyncio.create_task(coalescer(5))
        await asyncio.sleep(0)
        return await asyncio.gather(blocker, coalescer(99), coalescer(3), return_exceptions=True)

    blocked, *failed = asyncio.run(together())
    assert blocked == 5
    assert all(isinstance(f, RuntimeError) for f in failed)


@pytest.mark.parametrize("concurrency", [1, 3])
def test_at_most_concurrency_batches_run_at_once(concurrency: int) -> None:
    running, peak = 0, 0

    async def slow(items: list[int]) -> list[int | BaseException]:
        nonlocal running, peak
        running += 1
        peak = max(peak, running)
        await asyncio.sleep(0.02)
        running -= 1
        return list(items)

    async def main() -> None:
        coalescer: Coalescer[int, int] = Coalescer(slow, max_batch=2, concurrency=concurrency)
        assert await asyncio.gather(*(coalescer(i) for i in range(20))) == list(range(20))

    asyncio.run(main())
    assert peak == concurrency
