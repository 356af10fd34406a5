"""One exception root for everything hoaregpu reports to a user, and source positions.

`SpecError` is a problem in the user's input; it always carries a `Span` and renders
as `file:line:col: error: ...` followed by the offending line and a caret.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_SOURCES: dict[str, list[str]] = {}


def register_source(path: str, text: str) -> None:
    """Remember a file's text so that errors about it can quote the offending line."""
    _SOURCES[path] = text.splitlines()


def source_line(path: str, line: int) -> str | None:
    lines = _SOURCES.get(path)
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


SYNTHETIC_COL = 100_000
"""Columns from here on name clauses hoaregpu made (inferred invariants), not source text."""


@dataclass(frozen=True)
class Span:
    """A position in a source file: 1-based line and column of the construct's start."""

    path: str
    line: int
    col: int
    # where a copy made by loop unrolling stands, e.g. "iteration 2 of 4 of the loop at line 9
    # (k = 1)", outermost first (`hoaregpu.unroll`); not part of the position
    context: tuple[str, ...] = field(default=(), compare=False)

    def __str__(self) -> str:
        if self.col >= SYNTHETIC_COL:  # an inferred clause: its loop's line; the context names it
            return f"{self.path}:{self.line}"
        return f"{self.path}:{self.line}:{self.col}"


# `Span.context` of a `requires` that states a `__constant__` variable's initialiser
# (frontend/filescope.py): the report names it as an assumption of the verdict
CONSTANT_INITIALISER = "the initialiser of __constant__ "


class HoareGpuError(Exception):
    """Root of every error hoaregpu raises on purpose."""


class SpecError(HoareGpuError):
    """Bad input: a syntax error, an unsupported construct, an ill-typed or unknown name."""

    def __init__(self, message: str, span: Span, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint

    def render(self) -> str:
        out = [f"{self.span}: error: {self.message}"]
        text = source_line(self.span.path, self.span.line)
        if text is not None:
            expanded = text.expandtabs(1)
            out.append("    " + expanded)
            out.append("    " + " " * max(self.span.col - 1, 0) + "^")
        if self.hint:
            out.append(f"note: {self.hint}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.render()


class UnsupportedError(SpecError):
    """Valid CUDA that hoaregpu does not handle (yet): named as unsupported, not as a syntax error."""

    def __init__(self, construct: str, span: Span, supported: str | None = None) -> None:
        super().__init__(f"unsupported: {construct}", span, hint=supported)
        self.construct = construct


@dataclass(frozen=True)
class SpecWarning:
    """Something the front end did to the input that the user must know of, which still lets
    the kernel be verified (e.g. a GPUVerify hypothesis hoaregpu cannot read, dropped)."""

    message: str
    span: Span
    tag: str

    def render(self) -> str:
        return f"{self.span}: warning: {self.message} [{self.tag}]"


class ConfigError(HoareGpuError):
    """Bad command-line options or configuration (unknown solver, bad timeout, ...)."""


class SolverError(HoareGpuError):
    """A solver backend could not be set up or used at all."""
