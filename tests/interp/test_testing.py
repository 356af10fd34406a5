"""Random testing with shrinking, the input format, and the text reports."""

from __future__ import annotations

import json

import pytest
from pipeline_kit import kernel as parsed

from hoaregpu.interp import InputError, initial_state, render_run, render_test, run_kernel, test_kernel
from hoaregpu.interp.report import run_to_json
from hoaregpu.interp.results import ASSERTION, FAILED, OK, POSTCONDITION
from hoaregpu.interp.run import execute
from hoaregpu.interp.values import array_to_json, inputs_of
from hoaregpu.launch import Launch

from .helpers import NTID, TID, assign, b, f, forall, if_, kernel, local, shared, v

J = v("j")


def vector_add(bug: bool):  # type: ignore[no-untyped-def]
    """c[tid] = a[tid] + b[tid] for tid < n; with bug: thread 3 writes a[tid] only."""
    value = b("+", v("a", TID), v("b", TID))
    if bug:
        value = b("-", value, b("==", TID, 3))
    guard = b("&&", b("<=", 0, J), b("<", J, v("n")))
    return kernel(
        [shared("a"), shared("b"), shared("c"), local("n", param=True)],
        if_(b("<", TID, v("n")), assign("c", (TID,), value, line=4)),
        requires=(f(b("&&", b(">=", v("n"), 0), b("<=", v("n"), NTID)), 1),),
        ensures=(f(forall("j", b("==>", guard, b("==", v("c", J), b("+", v("a", J), v("b", J))))), 2),),
    )


def test_correct_kernel_passes() -> None:
    r = test_kernel(vector_add(False), (1, 6), 40, seed=1)
    assert r.ok, render_test(r)
    assert r.trials == 40 and r.passed + r.skipped == 40 and r.passed > 20


def test_bug_is_found_and_shrunk() -> None:
    k = vector_add(True)
    r = test_kernel(k, (1, 8), 200, seed=2)
    assert not r.ok
    ce = r.counterexample
    assert ce is not None
    assert ce.threads == 4  # thread 3 must exist
    assert ce.inputs["n"] == 4  # and be below n
    assert [x.kind for x in ce.failures] == [POSTCONDITION]
    # shrunk values: the arrays are not needed at all (all cells 0)
    assert ce.inputs["a"] == {} and ce.inputs["b"] == {} and ce.inputs["c"] == {}
    assert r.original is not None and r.original.threads >= 4
    text = render_test(r, k)
    assert "FAILED" in text and "counterexample" in text and "k.cu:2:1" in text


def test_fixed_threads_and_skips() -> None:
    k = vector_add(False)
    k = type(k)(
        k.name, k.params, k.decls, (f(b("==", v("n"), 99), 1),), k.ensures, k.body, Launch.of_threads(2)
    )
    r = test_kernel(k, (1, 8), 5, seed=0)
    assert r.ok and r.skipped == 5 and r.passed == 0


def test_input_formats() -> None:
    k = kernel([shared("a"), shared("t", 2), local("n", param=True, nonneg=True)], assign("a", (0,), 0))
    st = initial_state(k, 2, {"a": {"1": 5, "*": 3}, "t": [[1, 2], [3]], "n": 4})
    assert st.shared["a"].get((1,)) == 5 and st.shared["a"].get((7,)) == 3
    assert st.shared["t"].cells == {(0, 0): 1, (0, 1): 2, (1, 0): 3}
    assert st.scalars["n"] == [4, 4]
    assert inputs_of(k, st) == {"a": {"1": 5, "*": 3}, "t": {"0,0": 1, "0,1": 2, "1,0": 3}, "n": 4}
    assert array_to_json(initial_state(k, 1, {"a": [4, 5]}).shared["a"]) == [4, 5]
    for bad in ({"zz": 1}, {"n": -1}, {"a": 3}, {"t": {"1": 2}}, {"n": "x"}):
        with pytest.raises(InputError):
            initial_state(k, 2, bad)


def test_run_json_and_text() -> None:
    k = kernel([shared("a")], assign("a", (TID,), b("*", v("a", TID), 2)))
    r = run_kernel(k, 3, {"a": [1, 2, 3]})
    doc = run_to_json(r)
    json.dumps(doc)
    assert doc["final_shared"] == {"a": [2, 4, 6]} and doc["status"] == "ok"
    text = render_run(r, k)
    assert "k: ok" in text and "a = [2, 4, 6]" in text


def test_races_can_be_notes_only() -> None:
    k = kernel([shared("w")], assign("w", (0,), TID, line=3))
    r = test_kernel(k, (2, 4), 5, seed=0)
    assert not r.ok and r.counterexample is not None and r.counterexample.threads == 2
    r = test_kernel(k, (2, 4), 5, seed=0, races_fail=False)
    assert r.ok and r.passed == 5 and any("write conflict" in n for n in r.notes)


def test_uniform_scalar_param_as_shared_constant() -> None:
    # lowering may encode a never-assigned scalar parameter as a shared variable of dim 0
    from hoaregpu.core import VarDecl, VarKind, VarRole

    n = VarDecl("n", VarKind.SHARED, 0, VarRole.SCALAR_PARAM)
    k = kernel([shared("a"), n], if_(b("<", TID, v("n")), assign("a", (TID,), v("n"))))
    r = run_kernel(k, 3, {"a": [], "n": 2})
    assert r.inputs == {"a": {}, "n": 2} or r.inputs == {"a": [], "n": 2}
    assert r.final is not None and r.final.shared["a"].cells == {(0,): 2, (1,): 2}
    assert "n = 2" in render_run(r, k)
    t = test_kernel(k, (1, 4), 20, seed=3)
    assert t.ok and all(isinstance(x, int) for x in [t.trials])


def test_a_run_stops_at_the_violation_it_is_asked_to_stop_on() -> None:
    # what `verify`'s execution evidence asks for: the rest of the run would only cost time
    src = """
        __global__ void k(int *a, int n) {
            //@ assert a[threadIdx.x] > 0;
            for (int i = 0; i < 200; i++) { a[threadIdx.x] += i; }
        }
        """
    kern = parsed(src)
    state = initial_state(kern, 4, {"a": [0, 0, 0, 0], "n": 1})
    full = execute(kern, state.copy(), 0)
    stopped = execute(kern, state.copy(), 0, stop_on=lambda x: x.kind == ASSERTION)
    assert full.status == stopped.status == FAILED
    assert [x.kind for x in stopped.failures] == [ASSERTION] == [x.kind for x in full.failures]
    assert stopped.steps < full.steps / 10  # it ended at the assertion, before the loop
    ignored = execute(kern, state.copy(), 0, stop_on=lambda x: False)
    assert ignored.steps == full.steps and ignored.status != OK
