"""The in-process pySMT backends, z3 and cvc5. `solve` runs only inside a worker process:
it parses the script into a fresh pySMT environment, so no formula object is shared
with the parent (pickled/shared formulas gave cvc5 wrong answers)."""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any, NamedTuple

from hoaregpu.solvers.backend import Answer, Backend, memory_message, unknown_answer
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, Value
from hoaregpu.solvers.strategies import Strategies, solve_strategies

if TYPE_CHECKING:
    from hoaregpu.solvers.session import Session


def cvc5_options(options: SolverOptions) -> dict[str, str]:
    """cvc5's options for our quantified VCs.

    `enum-inst` (enumerative instantiation): with default options cvc5 answered unknown
    on the vector-addition VCs; with it, it proves them. `mbqi` (model-based quantifier
    instantiation) is what lets cvc5 find counterexamples: on the loop-invariant VC of a
    vector addition with a planted bug, cvc5 answered sat in 0.3-1.1 s with `mbqi` and
    ran to the 5 s limit without it, while valid VCs stayed unsat in ~20 ms with both.
    """
    return {"tlimit-per": str(options.timeout_ms), "enum-inst": "true", "mbqi": "true"}


def _memory_error(exc: BaseException) -> bool:
    text = f"{type(exc).__name__} {exc}".lower()
    return isinstance(exc, MemoryError) or "memory" in text or "bad_alloc" in text


def _distribution(name: str) -> str | None:
    """An installed distribution's version, from its metadata (the solver is not loaded)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None


class Z3Backend(Backend):
    name = "z3"

    def fingerprint(self) -> str | None:
        # without loading z3 (a warm run loads no solver): its wheel's version and pySMT's
        z3, pysmt = _distribution("z3-solver"), _distribution("pysmt")
        return f"z3@{z3}+pysmt@{pysmt}" if z3 and pysmt else super().fingerprint()

    def family(self) -> str:
        return "z3"

    def version(self) -> str | None:
        import z3

        return str(z3.get_version_string())

    def unavailable(self) -> str | None:
        try:
            import pysmt.solvers.z3  # noqa: F401
        except Exception as exc:
            return f"z3 bindings not importable: {exc}"
        return None

    def session(self, options: SolverOptions) -> Session | None:
        import z3

        from hoaregpu.solvers.session import Z3Session

        z3.set_param("smt.random_seed", options.seed)
        if options.memory_mb is not None:
            z3.set_param("memory_max_size", max(1, options.memory_mb * 3 // 4))
        z3.set_param("smt.macro_finder", True)  # one configuration: the one that refutes fast
        return Z3Session()

    def session_header(self, options: SolverOptions) -> str:
        return f"(set-option :timeout {options.timeout_ms})\n"

    def solve(self, script: str, options: SolverOptions) -> Answer:
        import z3.z3 as z3_module

        # A fresh z3 context: a worker is forked from a process that may have used z3 (model
        # checks, input generation), and z3's heuristics depend on the ids of the terms
        # already in a context; inherited ones turned a 50 ms proof into "incomplete
        # quantifiers" late in the test suite. So every solve starts as in a new process.
        # Configurations run in sequence share that context (a fresh context per
        # configuration left a side condition of `prove` that plain z3 proved in 0.2 s
        # after the macro finder's try undecided for 10 s).
        z3_module._main_ctx = None
        parsed = _z3_read(script)
        quick_tried = False

        def run(configuration: str, budget: SolverOptions, quick: bool = False) -> Answer:
            nonlocal quick_tried
            macro_finder = configuration == "macro-finder"
            if quick:
                quick_tried = True
                return _z3_check(parsed, macro_finder, budget, QUICK_RLIMIT)
            if macro_finder and quick_tried:
                # After the quick try, the macro finder starts from a fresh context (in its
                # forked child): with the try's terms it timed out at 15 s on a barrier
                # invariant of the Blelloch scan at 1,024 threads that it proves fresh in
                # 0.07 s. Plain z3 keeps them: fresh, it timed out on a race VC it refutes
                # in 1 s after the try.
                z3_module._main_ctx = None
                return _z3_check(_z3_read(script, split=True), macro_finder, budget)
            return _z3_check(parsed, macro_finder, budget)

        return solve_strategies(Z3_STRATEGIES, run, options)


Z3_STRATEGIES = Strategies(
    parallel=("macro-finder", "plain"),
    # In sequence (`--strategies 1`), they share the budget. Our VCs define every x'
    # (H-ASSIGN) and z (H-IF/H-WHILE) by a universal equation; z3's macro finder eliminates
    # those and then refutes simple barrier and assertion VCs in ~10 ms that plain z3 times
    # out on, but it slowed one valid VC from 20 ms to a timeout. So the macro finder gets a
    # first tenth of the budget, plain z3 the next six tenths, the macro finder the rest (the
    # shares are cumulative ends of the budget).
    sequence=(("macro-finder", 0.1), ("plain", 0.7), ("macro-finder", 1.0)),
)


QUICK_RLIMIT = 100_000
"""z3's resource limit for the quick try (`strategies.QUICK_SECONDS`; about 0.1 s here). Work,
not time: plain z3 after it shares its context, and z3's choices depend on the terms a try
left there. Stopped by the clock, the try left a number of them that depended on the
machine's load: a race VC that the macro finder refutes in 0.3 s timed out in 3 runs of 10;
stopped by work, the same VC gets the same answer every time."""


class _Parsed(NamedTuple):
    assertions: list[Any]  # the script's, as one conjunction or split into conjuncts (`_conjuncts`)
    queries: list[Any]  # its `get-value` terms
    macros: frozenset[str]  # the names it defines (`define-fun`): its own, not the model's


_DEFINED = re.compile(r"\(define-fun\s+(\|[^|]*\||[^\s()]+)")


def _z3_read(script: str, split: bool = False) -> _Parsed:
    """The script's assertions (one conjunction, or with `split` its conjuncts: `_conjuncts`)
    and its `get-value` terms, read by z3's own parser into the main context (20 times
    faster than pySMT's parser and converter on our VCs, which a worker paid for every VC:
    1 s of 6 for a tree reduction's 21 VCs)."""
    import z3

    from hoaregpu.solvers.binary import read_sexprs, show_sexpr

    head, _, tail = script.partition("(check-sat)")
    queries: list[str] = []
    for form in read_sexprs(tail):
        if isinstance(form, list) and form and form[0] == "get-value" and len(form) == 2:
            queries += [show_sexpr(q) for q in form[1]] if isinstance(form[1], list) else []
    # each query as an assertion `(= q q)` after the script's own, to be parsed in its scope
    asked = "".join(f"(assert (= {q} {q}))\n" for q in queries)
    try:
        terms = z3.parse_smt2_string(head + asked)
    except z3.Z3Exception as exc:
        from hoaregpu.errors import SolverError

        raise SolverError(f"cannot read SMT-LIB script: {exc}") from exc
    n = len(terms) - len(queries)
    macros = frozenset(m.strip("|") for m in _DEFINED.findall(head))
    asserted: list[Any] = []
    if split:
        for i in range(n):
            _conjuncts(terms[i], asserted)
    else:
        asserted.append(z3.And([terms[i] for i in range(n)]))
    return _Parsed(asserted, [terms[n + i].arg(0) for i in range(len(queries))], macros)


def _conjuncts(term: Any, out: list[Any]) -> None:
    """`term`'s top-level conjuncts, each its own assertion: a VC is `path ∧ ¬(hyps → goal)`,
    one nested conjunction, and z3's macro finder looks only at asserted formulas. Asserted
    whole, a barrier invariant's slice of the Blelloch scan at 1,024 threads timed out at
    15 s with and without it; split, the macro finder proves it in 0.2 s (`¬(a → b)` is
    `a ∧ ¬b`, `¬(a ∨ b)` is `¬a ∧ ¬b`). Only the macro finder's parallel configuration gets
    them split (`Z3Backend.solve`); the others the conjunction, as before: split, plain z3
    timed out on a race VC it refutes whole in 1 s."""
    import z3

    todo = [(term, False)]
    while todo:
        t, negated = todo.pop()
        if not negated and z3.is_and(t):
            todo += [(c, False) for c in reversed(t.children())]
        elif not negated and z3.is_not(t):
            todo.append((t.arg(0), True))
        elif negated and z3.is_implies(t):
            todo += [(t.arg(1), True), (t.arg(0), False)]
        elif negated and z3.is_or(t):
            todo += [(c, True) for c in reversed(t.children())]
        else:  # `¬¬a` stays as it is: split into `a`, a race VC refuted in 0.2 s timed out at 15 s
            out.append(z3.Not(t) if negated else t)


def _z3_check(
    parsed: _Parsed,
    macro_finder: bool,
    options: SolverOptions,
    rlimit: int | None = None,
) -> Answer:
    """One z3 configuration on a parsed script, within `options.timeout` (and `rlimit`)."""
    import z3

    assertions, queries, macros = parsed
    z3.set_param("smt.random_seed", options.seed)
    if options.memory_mb is not None:
        # z3 stops cleanly ("max. memory exceeded") before RLIMIT_AS kills it.
        z3.set_param("memory_max_size", max(1, options.memory_mb * 3 // 4))
    z3.set_param("smt.macro_finder", macro_finder)
    start = time.monotonic()
    # the default combined solver with MBQI, which handles quantifiers best (as pySMT's
    # Z3Solver for UFLIRA, which is not in z3's SolverFor list)
    solver = z3.Solver()
    solver.set("random_seed", options.seed)
    solver.set("timeout", options.timeout_ms)
    if rlimit is not None:
        solver.set("rlimit", rlimit)
    try:
        solver.add(assertions)
        sat = solver.check()
    except z3.Z3Exception as exc:
        if _memory_error(exc):
            return Answer(Outcome.ERROR, message=memory_message(options))
        raise
    if sat == z3.unknown:
        return unknown_answer(str(solver.reason_unknown()), time.monotonic() - start, options)
    if sat == z3.unsat:
        return Answer(Outcome.PROVED)
    model = solver.model()
    values: list[Value] = []
    for q in queries:
        try:
            values.append(_z3_value(model.eval(q, model_completion=True)))
        except Exception:
            values.append(None)
    return Answer(Outcome.REFUTED, tuple(values), model=_z3_model_text(model, macros))


def _z3_model_text(model: Any, macros: frozenset[str]) -> str | None:
    """The model as `define-fun` forms (checked against the VC by `modelcheck`), without the
    script's own definitions: z3 lists those too, each written out in full, and the paths'
    definitions (`smt.script`) made one race VC's model 8.6 MB, 10 s to print and 7 s for
    `modelcheck` to read, against 0.4 s to find it."""
    import z3

    try:
        own = z3.Model(model.ctx)
        for decl in model.decls():
            if decl.name() not in macros:
                own.update_value(decl, model[decl])
        return str(own.sexpr())
    except z3.Z3Exception:
        pass
    try:
        return str(model.sexpr())  # all of it, as z3 prints it
    except Exception:
        return None


def _z3_value(v: Any) -> Value:
    import z3

    if z3.is_int_value(v):
        return int(v.as_long())
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    return None


class Cvc5Backend(Backend):
    name = "cvc5"

    def fingerprint(self) -> str | None:
        cvc5, pysmt = _distribution("cvc5"), _distribution("pysmt")
        return f"cvc5@{cvc5}+pysmt@{pysmt}" if cvc5 and pysmt else super().fingerprint()

    def family(self) -> str:
        return "cvc"

    def version(self) -> str | None:
        # From the package metadata: creating a cvc5.Solver here would touch the solver
        # in the parent process, which must stay clean for forking.
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("cvc5")
        except PackageNotFoundError:
            return None

    def unavailable(self) -> str | None:
        try:
            import pysmt.solvers.cvcfive  # noqa: F401
        except Exception as exc:
            return f"cvc5 bindings not importable: {exc}"
        return None

    def solve(self, script: str, options: SolverOptions) -> Answer:
        from pysmt import logics
        from pysmt.environment import reset_env
        from pysmt.solvers.cvcfive import CVC5Solver

        env = reset_env()
        from hoaregpu.smt import read_script

        parsed = read_script(script)
        # Built directly: pySMT's factory has no quantified logic it maps to cvc5.
        solver = CVC5Solver(
            env,
            logics.AUFNIRA,
            random_seed=options.seed,
            solver_options=cvc5_options(options),
        )
        start = time.monotonic()
        try:
            solver.add_assertion(parsed.formula)
            # Called directly rather than through solver.solve(), to keep the unknown reason.
            result = solver.cvc5.checkSat()
        except Exception as exc:
            if _memory_error(exc):
                return Answer(Outcome.ERROR, message=memory_message(options))
            raise
        if result.isUnknown():
            return unknown_answer(str(result.getUnknownExplanation()), time.monotonic() - start, options)
        if result.isUnsat():
            return Answer(Outcome.PROVED)
        values: list[Value] = []
        for q in parsed.queries:
            try:
                values.append(_cvc5_value(solver.cvc5.getValue(solver.converter.convert(q))))
            except Exception:
                values.append(None)
        return Answer(Outcome.REFUTED, tuple(values), model=_cvc5_model_text(solver, parsed.formula))


def _cvc5_model_text(solver: Any, formula: Any) -> str | None:
    """Every free symbol's value as `define-fun` forms (checked against the VC by `modelcheck`)."""
    try:
        symbols = sorted(formula.get_free_variables(), key=lambda s: s.symbol_name())
        text = solver.cvc5.getModel([], [solver.converter.convert(s) for s in symbols])
        return text.decode() if isinstance(text, bytes) else str(text)  # bytes from some cvc5 versions
    except Exception:
        return None


def _cvc5_value(v: Any) -> Value:
    if v.isIntegerValue():
        return int(v.getIntegerValue())
    if v.isBooleanValue():
        return bool(v.getBooleanValue())
    return None
