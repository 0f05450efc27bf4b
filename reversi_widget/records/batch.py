"""``analyse_games``: one function run over many games, on any ``concurrent.futures`` executor."""

from __future__ import annotations

import concurrent.futures
import math
import os
import pickle
import sys
from collections.abc import Callable, Iterable
from typing import TypeVar

from ..errors import ReversiError, cut, quote
from ..game import Game

__all__ = ["analyse_games"]

T = TypeVar("T")


def _analyse_chunk(fn: Callable[[Game], T], games: list[Game], first: int) -> list[T]:
    """Run ``fn`` over a chunk in a worker; an error says which game it came from."""
    out = []
    for offset, game in enumerate(games):
        try:
            out.append(fn(game))
        except Exception as error:
            note = getattr(error, "add_note", None)  # Python 3.11+
            if note is not None:
                note(f"while analysing game {first + offset} ({game.black_player} vs {game.white_player})")
            raise
    return out


def analyse_games(
    games: Iterable[Game],
    fn: Callable[[Game], T],
    executor: concurrent.futures.Executor | None = None,
    progress: Callable[[int, int], object] | bool | None = None,
    *,
    chunksize: int | None = None,
) -> list[T]:
    """``[fn(game) for game in games]``, computed by ``executor`` and returned in order.

    Any ``concurrent.futures.Executor`` works (threads, processes, dask.distributed's
    ``client.get_executor()``); the default is a local ``ProcessPoolExecutor``, so ``fn``
    must be picklable: a module-level function, not a lambda. In a browser (JupyterLite),
    with no processes to start, the default computes here, one game after another.
    ``progress(done, total)`` is called as chunks finish; by default a progress bar is shown
    when running in a notebook (``progress=False`` turns it off).
    """
    items = list(games)
    total = len(items)
    own = executor is None
    if not callable(fn):
        raise TypeError(f"fn must be a function of one game, got {quote(fn)}")
    inline = executor is None and sys.platform == "emscripten"  # a browser starts no processes
    if not inline and not isinstance(executor, concurrent.futures.ThreadPoolExecutor):
        try:
            pickle.dumps(fn)
        except Exception as error:
            raise TypeError(
                f"fn {quote(fn)} cannot be sent to worker processes ({cut(str(error))}): use a module-level "
                "function, not a lambda or a nested function, or pass a ThreadPoolExecutor"
            ) from None
    report: Callable[[int, int], object] | None
    if progress is None or progress is True:
        from ..progress import notebook_progress

        bar = notebook_progress("games") if total else None
        report = (lambda done, all_: bar(done / all_, f"{done}/{all_} games")) if bar is not None else None
    elif progress is False:
        report = None
    elif callable(progress):
        report = progress
    else:
        raise TypeError(f"progress must be a callback(done, total), True, False or None, got {quote(progress)}")
    if not total:
        return []
    if inline:
        computed = []
        for done, game in enumerate(items, 1):
            computed.append(fn(game))
            if report is not None:
                report(done, total)
        return computed
    pool = executor if executor is not None else concurrent.futures.ProcessPoolExecutor()
    workers = getattr(pool, "_max_workers", None) or os.cpu_count() or 1
    size = chunksize or max(1, min(64, math.ceil(total / (4 * workers))))
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ReversiError(f"chunksize must be a positive int, got {quote(chunksize)}")
    results: list[list[T] | None] = []
    try:
        futures = {}
        for start in range(0, total, size):
            future = pool.submit(_analyse_chunk, fn, items[start : start + size], start)
            futures[future] = len(results)
            results.append(None)
        done = 0
        try:
            for future in concurrent.futures.as_completed(futures):
                chunk = future.result()
                results[futures[future]] = chunk
                done += len(chunk)
                if report is not None:
                    report(done, total)
        except BaseException:
            for future in futures:
                future.cancel()
            raise
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)
    return [value for chunk in results if chunk is not None for value in chunk]
