"""Checking a refutation before it is shown: does the solver's model satisfy the negated VC?

A solver that answers sat claims that its model makes the script's assertion (the negated
VC) true. We do not take its word for it. The script is rebuilt with every symbol the
model defines *defined* (`define-fun` instead of `declare-fun`) and z3, in a context of
its own, decides the assertion. Plain evaluation is not enough: our VCs quantify over
integers and apply uninterpreted functions, so even a closed VC may need quantifier
reasoning to decide. A symbol the model leaves out stays declared: solvers omit the ones
whose value does not matter, and a default value could make a right model look wrong.

- sat: the model satisfies the negated VC; the refutation is confirmed.
- unsat: it does not; the solver's counterexample is wrong and the answer is an ERROR.
- unknown, a time-out, or a model z3 cannot read: the model is *not checked*; the
  refutation is still reported (a refutation is never a proof), with that note.

For z3's own models this is the same engine in a fresh context: it checks how the model
was obtained and printed rather than z3's reasoning. For cvc5, the binaries and user
commands it is a second engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hoaregpu.solvers.binary import SExpr, model_definitions, read_sexprs, show_sexpr
from hoaregpu.solvers.options import SolverOptions

CHECKER = "z3"
"""The engine that checks models (in process, a fresh context per check)."""


class ModelVerdict(Enum):
    CONFIRMED = "confirmed"
    WRONG = "wrong"
    UNCHECKED = "unchecked"


@dataclass(frozen=True)
class ModelCheck:
    verdict: ModelVerdict
    detail: str = ""  # why it is unchecked

    def note(self) -> str:
        """What `SolverResult.model_check` records."""
        if self.verdict is ModelVerdict.CONFIRMED:
            return f"confirmed by {CHECKER}"
        if self.verdict is ModelVerdict.WRONG:
            return self.detail or f"refuted by {CHECKER}"
        return f"not checked: {self.detail}"


def check_seconds(options: SolverOptions) -> float:
    """The time a model check may take (on top of the solver's own limit): checking a closed
    VC is usually a matter of milliseconds."""
    return max(1.0, min(float(options.timeout), 10.0))


# z3's models define its value of `x div 0`, `x mod 0` and `x / 0` (SMT-LIB leaves them
# open) as functions of these names, which z3 then refuses to read back ("builtin symbol
# 'mod0' has the same argument sorts"): every model of a VC with a division by a variable
# went unchecked. They are left out of the check, which then confirms the model if some
# values of the divisions by zero make it satisfy the VC; the solver's are such values.
DIVISION_BY_ZERO = frozenset({"div0", "mod0", "/0"})


class WrongModel(ValueError):
    """The model cannot be a model of the script at all (it gives a symbol another sort)."""


def _key(name: SExpr) -> str:
    """A symbol's identity: `|a|` and `a` are the same symbol in SMT-LIB."""
    if not isinstance(name, str):
        raise ValueError(f"not a symbol: {show_sexpr(name)}")
    return name[1:-1] if len(name) >= 2 and name[0] == name[-1] == "|" else name


def _atoms(x: SExpr) -> set[str]:
    if isinstance(x, str):
        return {_key(x)}
    return set().union(*(_atoms(y) for y in x)) if x else set()


def _model_forms(model: str) -> dict[str, SExpr]:
    parsed = read_sexprs(model)
    forms = model_definitions(parsed[0]) if len(parsed) == 1 else None
    if forms is None:
        forms = parsed  # bare definitions, as z3's Python API prints a model
    defined: dict[str, SExpr] = {}
    for f in forms:
        if not (isinstance(f, list) and len(f) == 5 and f[0] == "define-fun" and isinstance(f[2], list)):
            raise ValueError(f"a model form that is not a plain define-fun: {show_sexpr(f)[:80]}")
        name = _key(f[1])
        if name in defined:
            raise ValueError(f"{name} is defined twice")
        defined[name] = f
    return defined


def _in_order(defined: dict[str, SExpr]) -> list[SExpr]:
    """Definitions before their uses (z3 names helper functions such as `k!12` in models)."""
    done: list[SExpr] = []
    state: dict[str, int] = {}  # 1 = being visited, 2 = emitted

    def visit(name: str) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            raise ValueError(f"the model's definition of {name} is circular")
        state[name] = 1
        form = defined[name]
        assert isinstance(form, list)
        params = {_key(p[0]) for p in form[2] if isinstance(p, list) and p}
        for used in sorted((_atoms(form[4]) - params) & defined.keys() - {name}):
            visit(used)
        state[name] = 2
        done.append(form)

    for name in defined:
        visit(name)
    return done


def _signature(form: SExpr) -> tuple[str, ...]:
    """Argument and result sorts of a declare-fun, declare-const or define-fun."""
    assert isinstance(form, list)
    if form[0] == "declare-const":
        return (show_sexpr(form[2]),)
    params = form[2] if isinstance(form[2], list) else []
    if form[0] == "define-fun":
        params = [p[1] if isinstance(p, list) and len(p) == 2 else p for p in params]
    return (*(show_sexpr(p) for p in params), show_sexpr(form[3]) if len(form) > 3 else "")


def check_script(script: str, model: str) -> str:
    """The script's declarations and assertions with the model's definitions in place of the
    declarations they define (without check-sat). ValueError when either cannot be read."""
    defined = _model_forms(model)
    declared: list[SExpr] = []
    asserted: list[SExpr] = []
    macros: list[SExpr] = []  # the script's own definitions (`smt.script`: the VC's paths)
    names: set[str] = set()  # the symbols it declares
    for item in read_sexprs(script):
        if not isinstance(item, list) or not item:
            continue
        if item[0] in ("declare-fun", "declare-const") and len(item) >= 3:
            name = _key(item[1])
            names.add(name)
            if name not in defined:
                declared.append(item)
            elif _signature(defined[name]) != _signature(item):
                raise WrongModel(f"it defines {name} with another sort than the script declares")
        elif item[0] == "assert":
            asserted.append(item)
        elif item[0] == "define-fun" and len(item) == 5:
            macros.append(item)
        elif item[0] in ("define-fun", "declare-sort", "define-sort", "push", "pop"):
            raise ValueError(f"the script has a {item[0]} command")
    if not asserted:
        raise ValueError("the script asserts nothing")
    own = {_key(m[1]) for m in macros if isinstance(m, list)}
    left_out = own | (DIVISION_BY_ZERO - names)
    model_forms = [f for f in _in_order(defined) if isinstance(f, list) and _key(f[1]) not in left_out]
    forms = declared + model_forms + macros + asserted
    return "\n".join(show_sexpr(f) for f in forms) + "\n"


def check_model(script: str, model: str | None, seconds: float) -> ModelCheck:
    """Whether `model` satisfies the assertion of `script` (see the module docstring)."""
    if model is None:
        return ModelCheck(ModelVerdict.UNCHECKED, "the solver gave no model")
    try:
        text = check_script(script, model)
    except WrongModel as exc:
        return ModelCheck(ModelVerdict.WRONG, str(exc))
    except ValueError as exc:
        return ModelCheck(ModelVerdict.UNCHECKED, f"cannot read the model: {exc}")
    try:
        import z3
    except ImportError:
        return ModelCheck(ModelVerdict.UNCHECKED, "z3 is not installed to check it")
    ctx = z3.Context()  # fresh: nothing the solver did in this process is reused
    solver = z3.Solver(ctx=ctx)
    solver.set("timeout", max(1, int(seconds * 1000)))
    try:
        solver.from_string(text)
        answer = solver.check()
    except z3.Z3Exception as exc:
        return ModelCheck(ModelVerdict.UNCHECKED, f"{CHECKER} cannot read the model: {exc}"[:300])
    if answer == z3.sat:
        return ModelCheck(ModelVerdict.CONFIRMED)
    if answer == z3.unsat:
        return ModelCheck(ModelVerdict.WRONG)
    return ModelCheck(ModelVerdict.UNCHECKED, f"{CHECKER} answered unknown ({solver.reason_unknown()})")
