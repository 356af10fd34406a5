"""Room for deep terms: the front end, lowering and VC generation walk terms recursively.

A sum written out over 1,024 threads (`a[0] + a[1] + ... + a[1023]`) parses to a chain of
`+` 1,023 deep, beyond Python's default limit of 1,000 frames. The encoder's own walks
over such chains are iterative (`smt.encode`), but the recursive walkers before it are
many (lowering, the monotonic-loop transform, unrolling, WP); until they are iterative too,
`deep` runs a preparation step in a thread with a large stack and a raised recursion limit,
so that such terms are slow at worst, never an internal error.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

STACK_BYTES = 512 * 1024 * 1024
"""The thread's stack: virtual memory, committed only as deep as the walk goes."""
RECURSION_LIMIT = 200_000
"""Python frames; at 3.11 a Python-to-Python call costs no C stack, so a deep walk stays
well within STACK_BYTES."""

_lock = threading.Lock()  # the stack size and recursion limit are process-wide settings


def deep(fn: Callable[[], T]) -> T:
    """`fn()`, run in a thread with room for deep recursion; its exception is re-raised here."""
    if threading.current_thread().name == _THREAD_NAME:
        return fn()  # already deep
    box: list[T] = []
    error: list[BaseException] = []

    def run() -> None:
        try:
            box.append(fn())
        except BaseException as exc:  # handed to the caller's thread
            error.append(exc)

    with _lock:
        old_limit, old_size = sys.getrecursionlimit(), threading.stack_size()
        threading.stack_size(STACK_BYTES)
        # before the thread starts: a thread takes the limit in force when it is created
        sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))
        try:
            thread = threading.Thread(target=run, name=_THREAD_NAME)
            thread.start()
            thread.join()
        finally:
            threading.stack_size(old_size)
            sys.setrecursionlimit(old_limit)
    if error:
        raise error[0]
    return box[0]


_THREAD_NAME = "hoaregpu-deep"
