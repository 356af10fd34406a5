"""SMT-LIB binaries as backends: the script goes to the binary's standard input.

The script is piped as written by `hoaregpu.smt.script_text` rather than re-printed by
pySMT's generic solver, whose printer writes integer division as `/`. Each known
binary gets a solver-side time limit; the worker's parent still kills the whole
process group if it overstays.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import time
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from hoaregpu.errors import ConfigError
from hoaregpu.solvers.backend import (
    Answer,
    Backend,
    memory_message,
    program_family,
    timeout_message,
    unknown_answer,
)
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, Value

if TYPE_CHECKING:
    from hoaregpu.solvers.session import Session

Argv = Callable[[SolverOptions], list[str]]


def _z3_argv(o: SolverOptions) -> list[str]:
    argv = ["z3", "-in", "-smt2", f"-t:{o.timeout_ms}", f"smt.random_seed={o.seed}", "smt.macro_finder=true"]
    if o.memory_mb is not None:
        argv.append(f"-memory:{max(1, o.memory_mb * 3 // 4)}")
    return argv


def _cvc4_argv(o: SolverOptions) -> list[str]:
    return [
        "cvc4",
        "--lang=smt2",
        f"--tlimit-per={o.timeout_ms}",
        f"--seed={o.seed}",
        "--full-saturate-quant",
    ]


def _cvc5_argv(o: SolverOptions) -> list[str]:
    return ["cvc5", "--lang=smt2", f"--tlimit-per={o.timeout_ms}", f"--seed={o.seed}", "--enum-inst"]


_KNOWN: dict[str, Argv] = {"z3-bin": _z3_argv, "cvc4-bin": _cvc4_argv, "cvc5-bin": _cvc5_argv}


def known_binary(name: str) -> Backend:
    return CommandBackend(name, _KNOWN[name])


@cache
def _binary_version(path: str) -> str | None:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"\d+\.\d+(\.\d+)?", out.stdout + out.stderr)
    return m.group(0) if m else None


# After the script's check-sat and get-value: the model, so that a refutation can be checked
# against the VC (`modelcheck`); after unsat it is an error line that the reader ignores.
_TAIL = "(get-model)\n"
# Known binaries also say why when they answer unknown.
_WHY = "(get-info :reason-unknown)\n"


class CommandBackend(Backend):
    """A command that reads an SMT-LIB script on standard input. `argv` is fixed (a user
    command) or built from the options (a known binary with its own limits)."""

    def __init__(self, name: str, argv: list[str] | Argv) -> None:
        self.name = name
        self._argv = argv

    def argv(self, options: SolverOptions) -> list[str]:
        return list(self._argv) if isinstance(self._argv, list) else self._argv(options)

    def identity(self) -> str:
        return f"{self.name}={shlex.join(self._argv)}" if isinstance(self._argv, list) else self.name

    def family(self) -> str:
        """A known binary's, or a user command's by its program name (`z3 -in` is z3); a
        command we cannot tell (a script) is a solver of its own."""
        return program_family(self._program()) or self.name

    def _program(self) -> str:
        return self.argv(SolverOptions())[0]

    def unavailable(self) -> str | None:
        program = self._program()
        if shutil.which(program) is None:
            return f"program {program!r} not found on PATH"
        return None

    def version(self) -> str | None:
        if isinstance(self._argv, list):
            return None  # a user command: we do not know how to ask it
        path = shutil.which(self._program())
        return _binary_version(path) if path else None

    def session(self, options: SolverOptions) -> Session | None:
        if isinstance(self._argv, list):
            return None  # a user command: we do not know that it reads incrementally
        from hoaregpu.solvers.session import ProcessSession

        argv = self.argv(options)
        if program_family(argv[0]) == "cvc":
            argv.append("--incremental")
        return ProcessSession(argv)

    def solve(self, script: str, options: SolverOptions) -> Answer:
        start = time.monotonic()
        try:
            proc = subprocess.run(
                self.argv(options),
                input=script + _TAIL if isinstance(self._argv, list) else script + _TAIL + _WHY,
                capture_output=True,
                text=True,
                timeout=options.timeout + 5.0,  # the parent kills the whole group well before this
            )
        except subprocess.TimeoutExpired:
            return Answer(Outcome.TIMEOUT, message=timeout_message(options))
        except OSError as exc:
            raise ConfigError(f"cannot run solver {self.name!r}: {exc}") from exc
        elapsed = time.monotonic() - start
        return classify_output(proc.stdout, proc.stderr, proc.returncode, elapsed, options)


_VERDICTS = frozenset({"sat", "unsat", "unknown", "timeout"})
# Atoms a solver may print for commands before check-sat without touching the assertions.
_HARMLESS = frozenset({"success", "unsupported"})


def classify_output(
    stdout: str, stderr: str, returncode: int, seconds: float, options: SolverOptions
) -> Answer:
    """Read a binary's answer: the check-sat verdict, then (after sat) the get-value list and model.

    Checked, not believed: an `(error ...)` before the verdict means some command (perhaps
    an assertion) was not taken, so an `unsat` after it proves nothing and the answer is
    an ERROR; so is a second verdict. Errors after the verdict come from `get-value` /
    `get-model` after unsat and are expected."""
    try:
        items = read_sexprs(stdout)
    except ValueError as exc:
        items = []
        stderr = f"{stderr}\nunreadable output: {exc}"
    at = next((n for n, i in enumerate(items) if isinstance(i, str) and i not in _HARMLESS), len(items))
    verdict = items[at] if at < len(items) else None
    before, after = items[:at], items[at + 1 :]
    both = f"{stdout}\n{stderr}".lower()
    memory = "out of memory" in both or "bad_alloc" in both or "max. memory" in both
    if memory and verdict not in ("sat", "unsat"):
        return Answer(Outcome.ERROR, message=memory_message(options))
    errors = [i for i in before if _is_error(i)]
    if errors and verdict in ("sat", "unsat"):
        return Answer(
            Outcome.ERROR,
            message=f"solver reported an error before answering {verdict}: " + show_sexpr(errors[0])[:300],
        )
    again = [i for i in after if isinstance(i, str) and i in _VERDICTS]
    if again and verdict in _VERDICTS:
        return Answer(
            Outcome.ERROR, message=f"solver answered {verdict} and then {again[0]} to one check-sat"
        )
    if verdict == "unsat":
        return Answer(Outcome.PROVED)
    if verdict == "sat":
        lists = [i for i in after if isinstance(i, list) and not _is_error(i)]
        pairs = next((i for i in lists if i and all(_is_pair(p) for p in i)), [])
        values = tuple(_value(p[1]) for p in pairs if isinstance(p, list))
        model = next((m for i in lists if (m := model_definitions(i)) is not None), None)
        return Answer(
            Outcome.REFUTED, values, model=None if model is None else "\n".join(map(show_sexpr, model))
        )
    if verdict in ("unknown", "timeout"):
        info = next((i for i in items if isinstance(i, list) and i and i[0] == ":reason-unknown"), [])
        reason = " ".join(str(x) for x in info[1:]) if verdict == "unknown" else "timeout"
        return unknown_answer(reason, seconds, options)
    detail = (stderr.strip() or stdout.strip() or f"exit status {returncode}").splitlines()
    return Answer(Outcome.ERROR, message="solver failed: " + " | ".join(detail[:3])[:300])


SExpr = str | list["SExpr"]
_TOKEN = re.compile(r'\s+|;[^\n]*|\|[^|]*\||"(?:[^"]|"")*"|[()]|[^\s()|";]+')


def read_sexprs(text: str) -> list[SExpr]:
    stack: list[list[SExpr]] = [[]]
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise ValueError(f"bad character at {pos}")
        pos = m.end()
        tok = m.group(0)
        if tok[0].isspace() or tok[0] == ";":
            continue
        if tok == "(":
            stack.append([])
        elif tok == ")":
            if len(stack) == 1:
                raise ValueError("unbalanced ')'")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok)
    if len(stack) != 1:
        raise ValueError("unbalanced '('")
    return stack[0]


def _is_pair(x: SExpr) -> bool:
    return isinstance(x, list) and len(x) == 2


def _value(x: SExpr) -> Value:
    if isinstance(x, str):
        if x == "true":
            return True
        if x == "false":
            return False
        if x.isdigit():
            return int(x)
        return None
    if len(x) == 2 and x[0] == "-" and isinstance(x[1], str) and x[1].isdigit():
        return -int(x[1])
    return None


def _is_error(x: SExpr) -> bool:
    return isinstance(x, list) and bool(x) and x[0] == "error"


def show_sexpr(x: SExpr) -> str:
    """SMT-LIB text of an s-expression (tokens are kept as read, quotes and bars included)."""
    return x if isinstance(x, str) else "(" + " ".join(show_sexpr(y) for y in x) + ")"


_MODEL_FORMS = frozenset(
    {"define-fun", "define-fun-rec", "define-funs-rec", "declare-fun", "declare-sort", "forall"}
)


def model_definitions(x: SExpr) -> list[SExpr] | None:
    """The forms of a `get-model` answer, or None when `x` is not one: `(model d ...)` (cvc4)
    or `(d ...)` (z3, cvc5) where every d is a definition such as `(define-fun ...)`."""
    if not isinstance(x, list):
        return None
    forms = x[1:] if x and x[0] == "model" else x
    if not forms and not x:
        return None  # `()`: no model (or an empty get-value); nothing to check against
    if all(isinstance(f, list) and f and f[0] in _MODEL_FORMS for f in forms):
        return forms
    return None
