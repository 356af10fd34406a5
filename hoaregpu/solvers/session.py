"""Incremental solving (`--incremental`): one solver process per kernel reads the kernel's
shared SMT-LIB prefix once, and each VC is a `push`/body/`pop` in it (issue 14, item 1).

A kernel's VC scripts are `prefix[:end] + body` (`smt.script`): solved one-shot, the solvers
read the prefix up to each VC again, quadratic in the kernel over all its VCs. In a
session, VC i is sent as `prefix[end(i-1):end(i)]` (the definitions new since the last VC),
then `(push 1)`, the VC's body (its path asserted, the obligation negated, `check-sat`,
`get-value`), `get-model`, `(pop 1)` and an `echo` of `MARK` that ends its answer: what the
solver reads is the prefix once plus the bodies, linear in the kernel.

The same limits per VC: the solver's own per-query time limit (`-t:` for z3, `--tlimit-per`
for cvc5, z3's `:timeout` option natively), the worker's address-space cap, and a watchdog
(the timeout plus grace): a VC whose answer does not come in time is a TIMEOUT, its
session is killed, and the next VC starts a fresh session (reading the prefix up to it
again), so one VC's timeout loses no other VC's answer. An answer is believed no more than
one-shot: it is classified by `binary.classify_output`, and a refutation's model is checked
against the VC's standalone script. Anything else that goes wrong in a session (an error
printed before a verdict, the solver dying, output that cannot be read) ends the session,
and its remaining VCs are solved one-shot by the dispatcher, as without `--incremental`.

Sessions run where the backend offers one (`Backend.session`): z3 natively (the SMT-LIB
text evaluated in one z3 context, macro finder on: the strategies of `solvers.strategies`
do not run in a session), and the z3/cvc4/cvc5 binaries.
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import time
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass

MARK = "hg@done"
"""Echoed after each VC's commands: the end of its answer in the solver's output."""


class Session(ABC):
    """One solver reading SMT-LIB commands incrementally."""

    @abstractmethod
    def ask(self, text: str, seconds: float) -> str | None:
        """Send `text` (ending with the echo of `MARK`) and return the output before the mark,
        or None when it did not come within `seconds` or the solver died (then the session
        is unusable)."""

    @abstractmethod
    def close(self) -> None:
        """Stop the solver."""


@dataclass(frozen=True)
class SessionVc:
    """A VC of a session: its task's index, where its prefix ends, its body."""

    index: int
    end: int
    body: str


def vc_commands(prefix: str, start: int, vc: SessionVc, tail: str) -> str:
    """What a session reads for `vc` when the prefix has been read up to `start`."""
    return f'{prefix[start : vc.end]}(push 1)\n{vc.body}{tail}(pop 1)\n(echo "{MARK}")\n'


def strip_mark(output: str) -> str:
    """The answer without the echoed mark (z3 prints it bare, cvc5 in quotes)."""
    lines = output.splitlines()
    while lines and lines[-1].strip().strip('"') in ("", MARK):
        lines.pop()
    return "\n".join(lines) + "\n"


class ProcessSession(Session):
    """A solver binary reading standard input."""

    def __init__(self, argv: Sequence[str]) -> None:
        self._proc = subprocess.Popen(
            list(argv),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            bufsize=0,
        )
        self._buffer = b""

    def ask(self, text: str, seconds: float) -> str | None:
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write(text.encode())
            proc.stdin.flush()
        except OSError:
            return None
        deadline = time.monotonic() + seconds
        fd = proc.stdout.fileno()
        while True:
            at = _mark_at(self._buffer)
            if at is not None:
                answer, self._buffer = self._buffer[: at[0]], self._buffer[at[1] :]
                return answer.decode(errors="replace")
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                return None  # the solver exited
            self._buffer += chunk

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._proc.kill()
        self._proc.wait()


def _mark_at(buffer: bytes) -> tuple[int, int] | None:
    """Where the mark's line starts and ends in `buffer`, if it is there in full."""
    mark = MARK.encode()
    start = 0
    while True:
        at = buffer.find(mark, start)
        if at < 0:
            return None
        line_start = buffer.rfind(b"\n", 0, at) + 1
        line_end = buffer.find(b"\n", at)
        if line_end < 0:
            return None
        if buffer[line_start:line_end].strip().strip(b'"') == mark:
            return line_start, line_end + 1
        start = at + len(mark)


class Z3Session(Session):
    """z3 in this process, one context, fed SMT-LIB text (`Z3_eval_smtlib2_string`). Its time
    limit per query is the `:timeout` option the header sets; the dispatcher's watchdog kills
    the worker if z3 overstays it."""

    def __init__(self) -> None:
        import z3
        import z3.z3 as z3_module

        z3_module._main_ctx = None  # a fresh context, as for one-shot solving (`native`)
        self._z3 = z3
        self._ctx = z3.main_ctx()

    def ask(self, text: str, seconds: float) -> str | None:
        try:
            out = str(self._z3.Z3_eval_smtlib2_string(self._ctx.ref(), text))
        except self._z3.Z3Exception as exc:
            # raised when the output has an error line (here: `get-model` after unsat), with
            # the whole output as its value; the reader decides what the errors mean
            value = exc.value
            out = value.decode(errors="replace") if isinstance(value, bytes) else str(value)
        except Exception as exc:
            return f'(error "{type(exc).__name__}: {exc}")\n'
        return strip_mark(out) if MARK in out else None

    def close(self) -> None:
        pass
