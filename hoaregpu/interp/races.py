"""Data-race detection by barrier intervals (bulk-synchronous notes; paper Definition 5.4).

Each thread's reads and writes of shared locations are recorded between barriers and
forgotten at each barrier that all threads pass. Within one interval, a location

- written by one thread with a value that changes it, and read by another thread, or
- written by two threads with different values

is a race; it is reported with both accesses' spans and threads. A write of the value
the location already holds does not race with reads (Definition 5.4(a)); two writes of
the same value are a benign race (Definition 5.4(b)), reported with `benign=True`.

This is independent of the order in which the interleaving semantics would run the
accesses, so it flags every race that some schedule of the interval could exhibit,
for the accesses this execution made. Reads inside formulas are not accesses.
"""

from __future__ import annotations

from collections.abc import Collection

from ..errors import Span
from .results import RACE, Violation

Key = tuple[int, ...]
Loc = tuple[str, Key]


def _loc_text(loc: Loc, display: dict[str, str]) -> str:
    name, key = loc
    return display.get(name, name) + "".join(f"[{i}]" for i in key)


class RaceDetector:
    def __init__(self, display: dict[str, str] | None = None, limit: int = 20) -> None:
        self.display = display or {}
        self.limit = limit
        # per variable, per index: the first two distinct reader threads and their spans
        # (two are enough to find a reader other than any given writer)
        self._reads: dict[str, dict[Key, tuple[int, Span | None, int, Span | None]]] = {}
        # per variable, per index: thread -> (span, value, changed) of its writes in this interval
        self._writes: dict[str, dict[Key, dict[int, tuple[Span | None, int, bool]]]] = {}
        self.violations: list[Violation] = []
        self._seen: set[tuple[str, Span | None, Span | None, bool]] = set()

    def barrier(self, threads: Collection[int] | None = None) -> None:
        """A barrier passed by all threads (None), or by the threads of some blocks: their
        accesses are ordered before what follows (accesses of other blocks never are, but
        the detector keeps only two readers a cell, so it is a run-time aid, not a proof)."""
        if threads is None:
            self._reads.clear()
            self._writes.clear()
            return
        gone = set(threads)
        for rd in self._reads.values():
            for key, (t1, s1, t2, s2) in list(rd.items()):
                keep = [(t, s) for t, s in ((t1, s1), (t2, s2)) if t >= 0 and t not in gone]
                if not keep:
                    del rd[key]
                else:
                    second = keep[1] if len(keep) > 1 else (-1, None)
                    rd[key] = (keep[0][0], keep[0][1], second[0], second[1])
        for wr in self._writes.values():
            for key, w in list(wr.items()):
                for t in [t for t in w if t in gone]:
                    del w[t]
                if not w:
                    del wr[key]

    def reads(self, name: str, keys: list[Key], threads: list[int], span: Span | None) -> None:
        rd = self._reads.get(name)
        if rd is None:
            rd = self._reads[name] = {}
        wr = self._writes.get(name)
        for key, t in zip(keys, threads, strict=False):
            r = rd.get(key)
            if r is None:
                rd[key] = (t, span, -1, None)
            elif r[2] < 0 and r[0] != t:
                rd[key] = (r[0], r[1], t, span)
            if wr is not None:
                w = wr.get(key)
                if w is not None:
                    for u, (wspan, value, changed) in w.items():
                        if u != t and changed:
                            what = f"written ({value}) by thread {u} and read by thread {t}"
                            self._report((name, key), u, wspan, t, span, what)
                            break

    def write(self, name: str, key: Key, thread: int, value: int, old: int, span: Span | None) -> None:
        loc = (name, key)
        changed = value != old
        rd = self._reads.get(name)
        r = rd.get(key) if rd is not None else None
        if r is not None and changed:
            u, rspan = (r[0], r[1]) if r[0] != thread else (r[2], r[3])
            if u >= 0:
                what = f"written ({value}) by thread {thread} and read by thread {u}"
                self._report(loc, thread, span, u, rspan, what)
        wr = self._writes.get(name)
        if wr is None:
            wr = self._writes[name] = {}
        w = wr.get(key)
        if w is None:
            wr[key] = {thread: (span, value, changed)}
            return
        for u, (wspan, v, _) in w.items():
            if u != thread:
                if v != value:
                    what = f"written by thread {u} ({v}) and by thread {thread} ({value})"
                    self._report(loc, u, wspan, thread, span, what)
                else:
                    what = f"written with the same value {v} by threads {u} and {thread}"
                    self._report(loc, u, wspan, thread, span, what, benign=True)
                break
        prev = w.get(thread)
        w[thread] = (span, value, changed or (prev is not None and prev[2]))

    def _report(
        self, loc: Loc, t1: int, s1: Span | None, t2: int, s2: Span | None, what: str, benign: bool = False
    ) -> None:
        dedup = (loc[0], s1, s2, benign)
        if dedup in self._seen or len(self.violations) >= self.limit:
            return
        self._seen.add(dedup)
        where = _loc_text(loc, self.display)
        kind = "benign race" if benign else "data race"
        self.violations.append(
            Violation(
                RACE,
                f"{kind} on {where}: {what} between two barriers",
                s1,
                (t1, t2),
                (),
                other_span=s2,
                benign=benign,
            )
        )
