"""A refuted race VC's counterexample in words: both threads, the cell, the access kinds and
both source lines (the checking access is the VC's; the other is the one its log recorded,
named by the site number the flag holds: hoaregpu.races)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .errors import Span
from .race_instrument import PREFIX, Site
from .solvers.outcome import Value
from .vc.queries import Query

VERBS = {"read": "reads", "write": "writes", "atomic": "updates atomically"}
PAST = {"read": "read", "write": "wrote", "atomic": "updated atomically"}


def _site_text(span: Span | None) -> str:
    return f"{span.path}:{span.line}" if span is not None else "an unknown line"


def race_note(queries: Sequence[Query], values: Sequence[Value], sites: Mapping[int, Site]) -> list[str]:
    """One line, or none when the model does not say enough (no values, an unknown site)."""
    if len(values) != len(queries) or not sites:
        return []
    witness = f"{PREFIX}.u."
    mine: Site | None = None
    other: object = None
    block: object = None
    me: list[str] = []
    sizes: dict[str, Value] = {}
    tid: Value = None
    for q, v in zip(queries, values, strict=True):
        if q.state is not None or q.replay:
            continue
        if q.label.startswith(witness):
            mine = sites.get(int(q.label[len(witness) :]))
            other = v
        elif q.label == f"{PREFIX}.b":
            block = v
        elif q.label.startswith(("blockDim.", "gridDim.")):
            sizes[q.label] = v
        elif q.label and not q.label.startswith(PREFIX):
            me.append(f"{q.label} = {v}")
            tid = v if q.label == "tid" else tid
    if mine is None:
        return []
    # the other thread's logs: a flag naming a site of this array, and its recorded cell
    recorded: Site | None = None
    cells: dict[tuple[str, int], object] = {}
    for q, v in zip(queries, values, strict=True):
        if q.state is None or not q.thread_arg or not q.var.startswith(PREFIX) or not isinstance(v, int):
            continue
        parts = q.var[len(PREFIX) + 1 :].split(".")
        if parts[0] not in VERBS:
            continue
        if len(parts) == 2 and v != 0 and abs(v) in sites and sites[abs(v)].array == mine.array:
            recorded = recorded or sites[abs(v)]
        elif len(parts) == 3 and parts[2].isdigit():
            cells.setdefault((parts[0], int(parts[2])), v)
    if recorded is None:
        return []
    where = "".join(f"[{v}]" for (kind, _), v in sorted(cells.items()) if kind == recorded.kind)
    who = f"thread {other}" + (f" of block {block}" if block is not None else "")
    this = f"the thread with {', '.join(me) or 'these coordinates'}"
    width, blocks = sizes.get("blockDim.x"), sizes.get("gridDim.x")
    several = block is not None or (isinstance(blocks, int) and blocks > 1)
    if (
        several
        and len(me) == 1
        and isinstance(width, int)
        and width > 0
        and isinstance(tid, int)
        and tid >= 0
    ):
        # a 1-D block's linear thread number, in the words used for the other thread
        this = f"thread {tid % width} of block {tid // width}"
        if block is None:  # a race in `__shared__` memory: the other thread is of this block
            who = f"thread {other} of the same block"
    return [
        f"race: {this} {VERBS[mine.kind]} "
        f"{mine.array}{where} at {_site_text(mine.span)}; {who} {PAST[recorded.kind]} it at "
        f"{_site_text(recorded.span)}, with no barrier between"
    ]


def any_cell_calls(queries: Sequence[Query], values: Sequence[Value], sites: Mapping[int, Site]) -> list[str]:
    """The calls not looked into (their accesses are of *any* cell) that a refuted race VC's
    counterexample may rest on: the checking access's or the recorded one's when the model
    names them, else (conservatively) every such call on the checked array, or in the kernel."""
    calls = sorted({s.call for s in sites.values() if s.call is not None})
    if not calls:
        return []
    witness = f"{PREFIX}.u."
    mine = next(
        (sites.get(int(q.label[len(witness) :])) for q in queries if q.label.startswith(witness)), None
    )
    if mine is None:
        return calls
    if mine.call is not None:
        return [mine.call]
    same = sorted({s.call for s in sites.values() if s.call is not None and s.array == mine.array})
    if len(values) != len(queries):
        return same
    recorded: list[Site] = []
    for q, v in zip(queries, values, strict=True):
        if q.state is None or not q.thread_arg or not isinstance(v, int) or v == 0:
            continue
        parts = q.var[len(PREFIX) + 1 :].split(".") if q.var.startswith(PREFIX) else []
        site = sites.get(abs(v)) if len(parts) == 2 and parts[0] in VERBS else None
        if site is not None and site.array == mine.array:
            recorded.append(site)
    if not recorded:
        return same
    return sorted({s.call for s in recorded if s.call is not None})
