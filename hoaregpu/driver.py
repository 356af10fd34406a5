"""The pipeline, end to end: files → parse → lower → transform → VCs → SMT-LIB → solvers → results.

Formulas live only while one kernel is encoded (in a pySMT environment of its own);
what leaves this stage for the solvers is SMT-LIB text, and what comes back is a
`SolverResult` per VC.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from pysmt.environment import Environment, get_env, pop_env, push_env
from pysmt.fnode import FNode

from . import access_facts, core
from .deep import deep
from .errors import ConfigError, HoareGpuError, Span, SpecError
from .frontend import ClangOptions, parse_file
from .grid import with_contract
from .inputs import spec_files
from .launch import Launch
from .limits import DEFAULT_UNROLL
from .loop_inference import inferred, with_candidates, without_implied
from .lower import lower_file
from .prepared import KernelResult, PreparedKernel, PreparedVc, RunResult, VcResult, VerifyOptions
from .race_instrument import Site, value_of
from .race_invariants import survivors
from .races import SAME_VALUE, race_kernel, race_vcs, with_blocks
from .smt.affine_quant import AffineHypotheses
from .smt.script import KernelScript
from .smt.smtlib import script_text
from .smt.speed import install as install_direct_walks
from .smt.thread_encoding import ThreadEncoder, choose
from .solvers import Outcome, SolverResult, SolveTask
from .solvers.cache import ResultCache
from .solvers.executor import LocalExecutor
from .unroll import unroll
from .vc.generate import Vc, generate, precondition
from .vc.kinds import Origin, VcKind
from .vc.slicing import Slicer
from .vc.strengthen import named, reading, strengthened


@contextmanager
def fresh_env() -> Iterator[Environment]:
    """A pySMT environment of its own, so that kernels never share symbols."""
    push_env()
    try:
        yield install_direct_walks(get_env())
    finally:
        pop_env()


def load_kernels(path: str, clang: ClangOptions | None = None) -> tuple[core.Kernel, ...]:
    """Parse and lower a file; the transform is applied by `prepare_kernel`."""
    return lower_file(parse_file(path, clang))


def kernel_launch(kernel: core.Kernel, given: int | Launch | None) -> Launch:
    """The kernel's fixed sizes and the command line's together; a contradiction is an input
    error (every VC would hold vacuously)."""
    launch = given if isinstance(given, Launch) else Launch.of_threads(given)
    try:
        return with_contract(kernel, launch)
    except ConfigError as e:
        raise ConfigError(f"{e}: every VC would hold vacuously") from None


def prepare_kernel(
    path: str,
    kernel: core.Kernel,
    threads: int | Launch | None,
    unroll_limit: int = DEFAULT_UNROLL,
    check_races: bool = True,
    benign_writes: str = SAME_VALUE,
) -> PreparedKernel:
    start = time.perf_counter()
    n = kernel_launch(kernel, threads)
    # the command line's sizes join the contract's: a size of 1 makes its coordinate the
    # constant 0 (`grid.live_coords`) wherever the kernel is looked at from here on
    kernel = replace(kernel, launch=n)
    unrolled = unroll(kernel, n, unroll_limit)  # before §4.1: a loop unrolled needs no transform
    # the loops left without invariant get inferred ones (candidates read off the loop before
    # the §4.1 transform hides its condition, pruned on the transformed kernel)
    guessed, candidates = with_candidates(unrolled.kernel, unrolled.missing)
    kernel = inferred(guessed, n, candidates)
    # The race checks are ghost code in a kernel of their own, for the race VCs only: the
    # other VCs are the kernel's as without them (hoaregpu.races.race_kernel), and the
    # prepared kernel (which replays counterexamples) stays the program itself.
    sites: Mapping[int, Site] = {}
    log_invariants: tuple[tuple[Span, str], ...] = ()
    race_program: tuple[core.Kernel, Launch] | None = None
    # (access facts, `\\written(a, i)`, are about the race logs: proved in the race kernel only)
    # (the per-block uniformity implied by the grid's is left to the race checks: `without_implied`)
    plain = access_facts.without(without_implied(kernel))
    sources: list[tuple[core.Kernel, Launch, Callable[[Origin], bool] | None]] = [(plain, n, None)]
    keep_race = race_vcs(kernel, check_races)
    if keep_race is not None:
        checked, race_launch, sites = race_kernel(kernel, n, check_races, benign_writes)
        if race_launch != n:
            race_program = with_blocks(plain, n)
        log_invariants = survivors(checked)
        sources.append((checked, race_launch, keep_race))
    vcs: list[PreparedVc] = []
    prefixes: list[str] = []
    for source, launch, keep in sources:
        with fresh_env() as env:
            encoder, encodings = ThreadEncoder(env), choose(launch.threads)

            def encoded(f: FNode) -> FNode:
                return encoder.encode(f, encodings[0])  # noqa: B023 (used in this iteration)

            # one shared text per kernel (`smt.script`); where a fixed thread count makes
            # another encoding worth racing, that VC's alternative is a standalone script
            script = KernelScript(encoded)
            texts = []
            generated = [vc for vc in generate(source, env, launch) if keep is None or keep(vc.origin)]
            slicer = Slicer(env, (vc.hyps for vc in generated))
            arrays = frozenset(d.name for d in source.decls if d.dim)
            affine = AffineHypotheses(env, slicer.hypotheses(), encoded, slicer.on_path)
            for vc in generated:
                queries = [q.smt for q in vc.queries]
                text = script.vc(vc.hyps, affine.goal(vc.hyps, encoded(vc.obligation)), queries)
                alts: tuple[str, ...] = ()
                names: tuple[str, ...] = ()
                if len(encodings) > 1:
                    alts, names = encoder.race_alternatives(vc.formula, queries, encodings)
                texts.append((vc, text, alts, names, _slices(slicer, vc, encoded, arrays)))
            prefix = script.text()
            prefixes.append(prefix)
            vcs += [
                PreparedVc(
                    vc.origin, text.body, vc.queries, vc.approximations, prefix, text.end, alts, names, slices
                )
                for vc, text, alts, names, slices in texts
            ]
    with fresh_env() as env:
        pre = precondition(kernel, env, n)
        pre_script = script_text(pre) if pre is not None else None
    seconds = time.perf_counter() - start
    return PreparedKernel(
        path,
        plain,
        n,
        tuple(vcs),
        seconds,
        pre_script,
        unrolled.missing,
        prefixes[0],
        check_races,
        sites,
        log_invariants,
        access_facts.spans(kernel),
        race_program,
    )


SLICE_MIN_PATH = 16
"""Conjuncts: on shorter paths a slice saves the solver little. (It was 64: a barrier
invariant's VC in the second round of the Blelloch scan at 1,024 threads has a path of 41,
17 of them the first round's, cut off by the barrier; with them z3 timed out at 60 s, its
slice it proves in 0.2 s.)"""


def _slices(
    slicer: Slicer, vc: Vc, encoded: Callable[[FNode], FNode], arrays: frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The VC's slices as standalone scripts, tried before it (`SolveTask.weaker`): its
    slice, where it keeps at most three quarters of a path (the VCs of N sequential loops are
    each as long as the program, which a solver must read whole, and most of it is about
    other loops). A race check's first is the slice of its goal without the tolerance of
    same-value writes (`vc.strengthen`), leaving out the values written and what the earlier
    checks said of them: it needs the logs' flags and cells, not the arrays' contents,
    which a solver would unfold through every earlier round (README, "Slices")."""
    size = slicer.path_size(vc.hyps)
    if size < SLICE_MIN_PATH:
        return ()
    m = slicer.env.formula_manager
    out = []
    if vc.origin.kind is VcKind.DATA_RACE:
        strict = strengthened(m, vc.obligation, reading(_VALUE_LOG))
        sliced = slicer.formula(vc.hyps, strict or vc.obligation, size - 1, _VALUE_LOG)
        if sliced is not None:
            out.append(script_text(m.Not(encoded(sliced))))
            if strict is None:  # the plain slice could only add facts about the values
                return tuple(out)

    def script(premises: list[FNode]) -> str:
        return script_text(m.Not(encoded(m.Implies(m.And(premises), vc.obligation))))

    plain = slicer.premises(vc.hyps, vc.obligation, size * 3 // 4)
    if plain is not None:
        out.append(script(plain))
    if vc.origin.kind is not VcKind.DATA_RACE and arrays:
        # a lean slice: without the stores of arrays the goal does not read (what assumed
        # assertions and invariants say of their cells is kept) nor the aggregates'
        # quantified axioms (their instances are kept). Raced beside the plain slice, not
        # instead of it: the symbolic tiled matmul's tile assertions and inner sum invariant
        # prove on the lean one and time out at 60 s on the plain one, while the Blelloch
        # scan's barrier invariants at 1,024 threads prove on the plain one in 0.2 s and
        # time out (120 s) on the lean one, which left out what they need
        def memory(s: FNode) -> bool:
            return s.symbol_name().split("!", 1)[0] in arrays

        lean = slicer.premises(vc.hyps, vc.obligation, size - 1, opaque=memory, axioms=False)
        if lean is not None and (plain is None or len(lean) < len(plain)):
            out.append(script(lean))
    return tuple(out)


_VALUE_LOG = named(value_of(""))


def prepare(
    paths: Sequence[str],
    threads: int | Launch | None,
    unroll_limit: int = DEFAULT_UNROLL,
    clang: ClangOptions | None = None,
    check_races: bool = True,
    benign_writes: str = SAME_VALUE,
) -> tuple[list[PreparedKernel], list[SpecError]]:
    prepared: list[PreparedKernel] = []
    errors: list[SpecError] = []
    for path in spec_files(paths):
        try:
            for kernel in deep(lambda: load_kernels(path, clang)):  # noqa: B023 (called at once)
                args = (path, kernel, threads, unroll_limit, check_races, benign_writes)
                prepared.append(deep(lambda: prepare_kernel(*args)))  # noqa: B023
        except SpecError as e:
            errors.append(e)
    return prepared, errors


def solve(
    prepared: Sequence[PreparedKernel],
    options: VerifyOptions,
    on_vc: Callable[[PreparedKernel, PreparedVc, SolverResult], None] | None = None,
    stop: threading.Event | None = None,
) -> list[KernelResult]:
    """Every VC of the kernels solved. `on_vc` sees each VC's answer as it arrives (in
    completion order; the language server publishes them); setting `stop` kills the
    solver workers and raises `solvers.dispatch.Stopped` (for the language server)."""
    vcs = [(k, vc) for k in prepared for vc in k.vcs]
    tasks = [
        SolveTask(vc.script, options.solver, vc.alternatives, vc.encodings, weaker=vc.slices)
        if not options.solver_options.incremental
        else SolveTask(
            vc.script,
            options.solver,
            vc.alternatives,
            vc.encodings,
            vc.prefix,
            vc.prefix_end,
            vc.body,
            weaker=vc.slices,
        )
        for _, vc in vcs
    ]
    tasks += [SolveTask(k.precondition_script, options.solver) for k in prepared if k.precondition_script]
    cache = ResultCache() if options.cache else None
    opts = options.solver_options

    def on_result(index: int, result: SolverResult) -> None:
        if on_vc is not None and index < len(vcs):
            on_vc(*vcs[index], result)

    executor = options.executor if options.executor is not None else LocalExecutor(options.jobs)
    solved_all = executor.solve_many(
        tasks, opts, cache=cache, confirm=options.confirm, on_result=on_result, stop=stop
    )
    results = iter(solved_all)
    solved = [
        (k, tuple(settle_any_cell(k, settle_approximate(k, VcResult(vc, next(results)))) for vc in k.vcs))
        for k in prepared
    ]
    out = [KernelResult(k, vcs, next(results) if k.precondition_script else None) for k, vcs in solved]
    return with_callees(out)


def with_callees(kernels: list[KernelResult]) -> list[KernelResult]:
    """A kernel that calls a device function through its contract is verified only if that
    function is (its contract is an assumption until then): until nothing changes."""
    changed = True
    while changed:
        changed = False
        verdicts = {(k.prepared.path, k.prepared.kernel.name): k.verdict for k in kernels}
        for n, k in enumerate(kernels):
            calls = sorted(contract_calls(k.prepared.kernel.body))
            bad = tuple(f for f in calls if verdicts.get((k.prepared.path, f)) != "verified")
            if bad != k.unverified_callees:
                kernels[n] = replace(k, unverified_callees=bad)
                changed = True
    return kernels


def contract_calls(s: core.Stmt) -> set[str]:
    """The device functions `s` calls through their contracts."""
    return {
        x.function
        for x in core.statements(s)
        if isinstance(x, core.Opaque) and not x.declared_only and x.atomic is None
    }


def settle_approximate(k: PreparedKernel, r: VcResult) -> VcResult:
    """A refutation of a VC that depends on uninterpreted approximations (`smt.approx`) counts
    only when running its counterexample confirms it (the solver may have picked a meaning of
    `&` or of float addition that C does not have); otherwise the VC is undecided, with why.
    Never the other way: a proof holds for every meaning, C's included."""
    if not r.vc.approximations or r.result.outcome is not Outcome.REFUTED:
        return r
    from .interp.replay_cex import replay_counterexample

    verdict = replay_counterexample(
        k.kernel, r.vc.origin, r.vc.queries, r.result.values, threads=k.launch, script=r.vc.script
    )
    if verdict.confirmed:
        return replace(r, replay=verdict)
    message = (
        f"{r.result.solver} found a counterexample that depends on "
        f"{' and '.join(r.vc.approximations)} (uninterpreted), and execution does not confirm it: "
        f"{verdict.note}"
    )
    return replace(r, result=replace(r.result, outcome=Outcome.UNKNOWN, values=(), message=message))


def settle_any_cell(k: PreparedKernel, r: VcResult) -> VcResult:
    """A refuted race VC that rests on a call not looked into (a function declared without a
    body: its access is of *any* cell of the array, docs/races.md) is undecided, not a race
    found: the function may well touch only cells no other thread uses. Never verified."""
    if r.vc.origin.kind is not VcKind.DATA_RACE or r.result.outcome is not Outcome.REFUTED:
        return r
    if r.replay is not None and r.replay.confirmed:  # execution showed the race itself
        return r
    from .race_report import any_cell_calls

    calls = any_cell_calls(r.vc.queries, r.result.values, k.race_sites)
    if not calls:
        return r
    message = (
        f"a race with the accesses of {', '.join(calls)} cannot be ruled out: a function without "
        "a body may access any cell of the arrays it gets (give it a body, or a contract)"
    )
    return replace(r, result=replace(r.result, outcome=Outcome.UNKNOWN, values=(), message=message))


def dump_smt(prepared: Sequence[PreparedKernel], directory: str | Path) -> list[Path]:
    """Write each VC's script as DIR/<file-stem>/<kernel>/<NN>-<kind>-L<line>.smt2 (runnable as
    is), and its slices (`_slices`), if it has any, beside it as
    <NN>-<kind>-L<line>.slice.smt2, .slice2.smt2, ..."""
    written: list[Path] = []
    for k in prepared:
        folder = Path(directory) / Path(k.path).stem / k.kernel.name
        folder.mkdir(parents=True, exist_ok=True)
        for n, vc in enumerate(k.vcs, start=1):
            path = folder / f"{n:02d}-{vc.origin.kind.value}-L{vc.origin.span.line}.smt2"
            path.write_text(vc.script, encoding="utf-8")
            written.append(path)
            for i, text in enumerate(vc.slices, start=1):
                written.append(path.with_suffix(".slice.smt2" if i == 1 else f".slice{i}.smt2"))
                written[-1].write_text(text, encoding="utf-8")
    return written


def verify(paths: Sequence[str], options: VerifyOptions) -> RunResult:
    prepared, errors = prepare(
        paths, options.threads, options.unroll, options.clang, options.check_races, options.benign_writes
    )
    return RunResult(tuple(solve(prepared, options)), tuple(errors))


__all__ = [
    "HoareGpuError",
    "KernelResult",
    "PreparedKernel",
    "PreparedVc",
    "RunResult",
    "VcResult",
    "VerifyOptions",
    "dump_smt",
    "prepare",
    "solve",
    "verify",
]
