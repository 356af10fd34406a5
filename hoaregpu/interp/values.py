"""Program states (paper Definition 2.1) and the JSON input format.

A state holds, for `N` threads:

- each shared variable of dimension n as an `Array`: a dict from n-tuples of ints to
  ints plus a default value for every cell that was never set (arrays are total maps);
- each local scalar as a list of N ints (one per thread);
- each local array as a list of N `Array`s.

Input format (JSON-able, used by `run_kernel` and reported back by `test_kernel`):

    {"n": 5,                          # scalar parameter: one int (uniform over threads)
     "a": [1, 2, 3],                  # 1-D array: cells 0..len-1, other cells 0
     "b": {"0": 1, "7": 2, "*": 9},   # sparse: "i" keys; "*" is the default of unset cells
     "t": {"0,1": 5},                 # n-D arrays: comma-separated index keys
     "u": [[1, 2], [3, 4]]}           # nested lists for n-D arrays (u[i][j])

A scalar parameter that lowering made a uniform constant (a shared variable of
dimension 0) is given as an int too. Names are the kernel's parameter names (a decl's
`display_name` is accepted too).
Missing parameters start as 0 / all-zero arrays. Unsigned parameters must be >= 0.
Non-parameter variables start at 0 (a documented choice: C leaves them indeterminate).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core import Kernel, VarDecl, VarKind, VarRole
from ..errors import HoareGpuError
from ..launch import Geometry

Key = tuple[int, ...]


class InputError(HoareGpuError):
    """Input values that do not fit the kernel's parameters."""


@dataclass
class Array:
    """A total map from index tuples to ints: explicit cells plus a default."""

    cells: dict[Key, int] = field(default_factory=dict)
    default: int = 0

    def get(self, key: Key) -> int:
        return self.cells.get(key, self.default)

    def copy(self) -> Array:
        return Array(dict(self.cells), self.default)

    def same(self, other: Array) -> bool:
        """Equal as total maps (the unset cells are infinitely many, so defaults must agree)."""
        if self.default != other.default:
            return False
        keys = set(self.cells) | set(other.cells)
        return all(self.get(k) == other.get(k) for k in keys)


@dataclass
class State:
    threads: int
    shared: dict[str, Array]
    scalars: dict[str, list[int]]  # local dim-0 variables: one value per thread
    local_arrays: dict[str, list[Array]]  # local arrays: one Array per thread
    geometry: Geometry | None = None  # None: one block of `threads` threads along x

    def __post_init__(self) -> None:
        if self.geometry is None:
            self.geometry = Geometry.one_block(self.threads)

    @property
    def geo(self) -> Geometry:
        assert self.geometry is not None
        return self.geometry

    def copy(self) -> State:
        return State(
            self.threads,
            {k: v.copy() for k, v in self.shared.items()},
            {k: list(v) for k, v in self.scalars.items()},
            {k: [a.copy() for a in v] for k, v in self.local_arrays.items()},
            self.geometry,
        )

    def same_shared(self, other: State) -> bool:
        return set(self.shared) == set(other.shared) and all(
            self.shared[k].same(other.shared[k]) for k in self.shared
        )

    def indices(self) -> Iterator[int]:
        """Every index component that some explicit cell of the state mentions."""
        for arr in self.shared.values():
            for key in arr.cells:
                yield from key
        for arrs in self.local_arrays.values():
            for a in arrs:
                for key in a.cells:
                    yield from key


def geometry_of(threads: int | Geometry) -> Geometry:
    return threads if isinstance(threads, Geometry) else Geometry.one_block(threads)


def empty_state(kernel: Kernel, threads: int | Geometry) -> State:
    geometry = geometry_of(threads)
    threads = geometry.threads
    shared: dict[str, Array] = {}
    scalars: dict[str, list[int]] = {}
    local_arrays: dict[str, list[Array]] = {}
    for d in kernel.decls:
        if d.kind is VarKind.SHARED:
            shared[d.name] = Array()
        elif d.dim == 0:
            scalars[d.name] = [0] * threads
        else:
            local_arrays[d.name] = [Array() for _ in range(threads)]
    return State(threads, shared, scalars, local_arrays, geometry)


def _param_decl(kernel: Kernel, name: str) -> VarDecl:
    for d in kernel.decls:
        if d.name == name or d.display_name == name:
            return d
    raise InputError(f"kernel {kernel.name} has no parameter named {name!r}")


def _parse_key(text: str, dim: int, name: str) -> Key:
    try:
        key = tuple(int(p) for p in text.split(","))
    except ValueError:
        raise InputError(f"bad index {text!r} for {name}: expected {dim} comma-separated ints") from None
    if len(key) != dim:
        raise InputError(f"index {text!r} for {name} has {len(key)} components, expected {dim}")
    return key


def _as_int(value: Any, what: str, floating: bool = False) -> int:
    if floating and isinstance(value, float):  # a float/double parameter (`hoaregpu.floats`)
        return value  # type: ignore[return-value]
    if isinstance(value, bool) or not isinstance(value, int):
        shown = repr(value)
        shown = shown if len(shown) <= 60 else shown[:57] + "..."  # a huge value is not a message
        raise InputError(f"{what} must be an integer, got {shown}")
    return value


def _flatten(value: Any, dim: int, prefix: Key, name: str, out: dict[Key, int], floating: bool) -> None:
    if dim == 0:
        out[prefix] = _as_int(value, f"{name}{list(prefix)}", floating)
        return
    if not isinstance(value, list):
        raise InputError(f"{name}: expected nested lists of depth {len(prefix) + dim}")
    for i, v in enumerate(value):
        _flatten(v, dim - 1, (*prefix, i), name, out, floating)


def parse_array(value: Any, dim: int, name: str, floating: bool = False) -> Array:
    arr = Array()
    if isinstance(value, list):
        _flatten(value, dim, (), name, arr.cells, floating)
    elif isinstance(value, Mapping):
        for k, v in value.items():
            if k == "*":
                arr.default = _as_int(v, f"{name} default", floating)
            else:
                arr.cells[_parse_key(str(k), dim, name)] = _as_int(v, f"{name}[{k}]", floating)
    else:
        raise InputError(f"{name} is an array of dimension {dim}: give a list or an index->value object")
    return arr


def initial_state(kernel: Kernel, threads: int | Geometry, inputs: Mapping[str, Any] | None) -> State:
    """The state the kernel starts in: parameters from `inputs`, everything else 0."""
    if geometry_of(threads).threads < 1:
        raise InputError("the thread count must be at least 1")
    state = empty_state(kernel, threads)
    threads = state.threads
    for name, value in (inputs or {}).items():
        d = _param_decl(kernel, name)
        fl = d.floating
        if d.kind is VarKind.SHARED and d.dim == 0:  # a uniform scalar parameter
            v = _in_range(d, _as_int(value, name, fl), name)
            state.shared[d.name] = Array({(): v})
        elif d.kind is VarKind.SHARED:
            state.shared[d.name] = _cells_in_range(d, parse_array(value, d.dim, name, fl), name)
        elif d.dim == 0:
            v = _in_range(d, _as_int(value, name, fl), name)
            state.scalars[d.name] = [v] * threads
        else:
            arr = _cells_in_range(d, parse_array(value, d.dim, name, fl), name)
            state.local_arrays[d.name] = [arr.copy() for _ in range(threads)]
    return state


def _in_range(d: VarDecl, v: int, what: str) -> int:
    """A parameter value of its C type: `unsigned` >= 0, `bool` 0 or 1.
    The VC generator assumes these ranges on entry, so a run outside them proves nothing."""
    if d.nonnegative and v < 0:
        raise InputError(f"{what} is unsigned but was given {v}")
    if d.boolean and v not in (0, 1):
        raise InputError(f"{what} is a bool: give 0 or 1, not {v}")
    return v


def _cells_in_range(d: VarDecl, arr: Array, name: str) -> Array:
    for key, v in arr.cells.items():
        _in_range(d, v, name + "".join(f"[{i}]" for i in key))
    _in_range(d, arr.default, f"{name}[*]")
    return arr


def array_to_json(arr: Array) -> Any:
    """An int for a scalar; a list when the cells are exactly 0..n-1 of a 1-D array with
    default 0; else a dict."""
    keys = sorted(arr.cells)
    if keys == [()]:
        return arr.cells[()]
    if not keys and arr.default != 0:
        return {"*": arr.default}
    if (
        arr.default == 0
        and keys
        and all(len(k) == 1 for k in keys)
        and keys == [(i,) for i in range(len(keys))]
    ):
        return [arr.cells[k] for k in keys]
    out: dict[str, int] = {",".join(str(i) for i in k): arr.cells[k] for k in keys}
    if arr.default != 0:
        out["*"] = arr.default
    return out


def inputs_of(kernel: Kernel, state: State) -> dict[str, Any]:
    """The parameters of `state` in the JSON input format (scalars read at thread 0)."""
    out: dict[str, Any] = {}
    for p in kernel.params:
        d = kernel.decl(p)
        if d.kind is VarKind.SHARED and d.dim == 0:
            out[d.display_name] = state.shared[p].get(())
        elif d.kind is VarKind.SHARED:
            out[d.display_name] = array_to_json(state.shared[p])
        elif d.dim == 0:
            out[d.display_name] = state.scalars[p][0]
        else:
            out[d.display_name] = array_to_json(state.local_arrays[p][0])
    return out


def shared_to_json(kernel: Kernel, state: State) -> dict[str, Any]:
    return {
        kernel.decl(k).display_name: v.get(()) if kernel.decl(k).dim == 0 else array_to_json(v)
        for k, v in state.shared.items()
    }


def is_param(decl: VarDecl) -> bool:
    return decl.role in (VarRole.ARRAY_PARAM, VarRole.SCALAR_PARAM)
