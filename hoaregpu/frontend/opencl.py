"""OpenCL C kernels (`.cl` files) mapped onto the CUDA model: one front end, a few questions
it asks in two dialects (issue 10).

Clang parses OpenCL C itself (`clang.py`: `-x cl`, the prelude `include/hoaregpu_opencl.h`);
what differs from CUDA is answered here:

| OpenCL | CUDA model |
| --- | --- |
| `__kernel` function | `__global__` kernel |
| `__global` pointer parameter | array parameter (global memory) |
| `__local` variable, `__local` pointer parameter | `__shared__` array (one per work-group = block) |
| `__constant` file-scope variable | `__constant__` variable |
| work-item `get_local_id(d)` | `threadIdx` component d |
| `get_group_id(d)`, `get_local_size(d)`, `get_num_groups(d)` | `blockIdx`, `blockDim`, `gridDim` |
| `get_global_id(d)` | `blockIdx * blockDim + threadIdx` (no global offset) |
| `get_global_size(d)` | `gridDim * blockDim` |
| `barrier(flags)` | `__syncthreads()`, the fence flags recorded |
| helper function (no qualifier) | `__device__` function (inlined) |

A `__local` pointer parameter names memory the host sizes but cannot fill: a shared array
with unknown contents, declared at the start of the kernel (not a parameter).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

from ..errors import UnsupportedError
from ..syntax import Decl, Declarator, SyncStmt
from ..terms import Binary, BinOp, BlockCount, BlockId, IntLit, Term, ThreadCount, ThreadId, Var
from . import clang
from .ckinds import is_prelude
from .gpuverify import Dialect

# Clang's language address spaces (clang::LangAS), as libclang's clang_getAddressSpace gives them
GLOBAL, LOCAL, CONSTANT, PRIVATE = 1, 2, 3, 4

# the work-item functions read as the built-in coordinates (component d)
_COORDINATES: dict[str, type[ThreadId | BlockId | ThreadCount | BlockCount]] = {
    "get_local_id": ThreadId,
    "get_group_id": BlockId,
    "get_local_size": ThreadCount,
    "get_num_groups": BlockCount,
}
_DERIVED = ("get_global_id", "get_global_size")
_FENCE_FLAGS = {1: "local", 2: "global"}  # CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE
OPENCL_HINT = (
    "OpenCL calls supported: 'barrier(flags);', the work-item functions get_local_id, get_group_id,"
    " get_local_size, get_num_groups, get_global_id and get_global_size of a constant dimension 0..2,"
    " and helper functions defined in the file (inlined)"
)


def address_space(ty: Any) -> int:
    """The OpenCL address space of a (valid) type: GLOBAL, LOCAL, CONSTANT, PRIVATE or 0."""
    lib = clang.cindex().conf.lib
    fn = lib.clang_getAddressSpace
    fn.argtypes = [clang.cindex().Type]
    fn.restype = ctypes.c_uint
    return int(fn(ty))


@dataclass
class OpenCL(Dialect):
    """The OpenCL half of the questions the translator asks; in a CUDA file each answers as
    CUDA does (nothing is OpenCL)."""

    @property
    def opencl(self) -> bool:
        return clang.is_opencl(self.tu_path)

    # ------------------------------------------------------------ declarations

    def is_local_var(self, cur: Any) -> bool:
        """A `__local` variable: shared by the work-group (`__shared__`)."""
        return self.opencl and address_space(cur.type) == LOCAL

    def check_kernel_scope_constant(self, cur: Any) -> None:
        if self.opencl and address_space(cur.type) == CONSTANT:
            raise self.unsupported(
                f"'__constant' variable '{cur.spelling}' inside a kernel", cur, "declare it at file scope"
            )

    def is_local_param(self, cur: Any) -> bool:
        """A `__local` pointer parameter of a kernel."""
        if not self.opencl:
            return False
        ty = cur.type.get_canonical()
        return bool(ty.kind == self.ci.TypeKind.POINTER and address_space(ty.get_pointee()) == LOCAL)

    def local_param_decls(self, cur: Any) -> list[Any]:
        """The kernel's `__local` pointer parameters as shared arrays of unknown contents that
        begin its body (their size is the host's: arrays are unbounded maps, so any extent
        stands for it)."""
        out: list[Any] = []
        TK = self.ci.TypeKind
        for p in cur.get_arguments():
            if not self.is_local_param(p):
                continue
            span = self.span(p)
            ty, dims = p.type.get_canonical(), 0
            while ty.kind in (TK.POINTER, TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
                ty = (ty.get_pointee() if ty.kind == TK.POINTER else ty.element_type).get_canonical()
                dims += 1
            sizes = tuple(IntLit(0, span) for _ in range(dims))
            if ty.kind == TK.RECORD:
                out += self.struct_decls(p.spelling, True, sizes, ty, p)
            else:
                btype = self.base_type(ty, p, p.type.spelling)
                out.append(Decl(True, btype, (Declarator(p.spelling, sizes, None, span),), span))
        return out

    def is_opencl_constant(self, ref: Any) -> bool:
        return self.opencl and address_space(ref.type) == CONSTANT

    def is_constant(self, ref: Any) -> bool:
        if (
            ref is not None
            and self.opencl
            and ref.kind == self.K.VAR_DECL
            and ref.lexical_parent is not None
            and ref.lexical_parent.kind == self.K.TRANSLATION_UNIT
            and self.is_opencl_constant(ref)
        ):
            return True
        return super().is_constant(ref)

    def global_ref(self, cur: Any, ref: Any) -> Term:
        if self.is_opencl_constant(ref):  # a file-scope `__constant` variable (filescope.py)
            self.globals_used.setdefault(ref.spelling, (ref, cur))
            return Var(ref.spelling, (), self.span(cur))
        return super().global_ref(cur, ref)

    # ------------------------------------------------------------ calls

    def expr(self, cur: Any) -> Term:
        # the work-item functions are pure: in code and in GPUVerify's annotations alike
        if cur.kind == self.K.CALL_EXPR:
            term = self.work_item(cur)
            if term is not None:
                return term
        return super().expr(cur)

    def call_value(self, cur: Any) -> Term:
        term = self.work_item(cur)
        return term if term is not None else super().call_value(cur)

    def work_item(self, cur: Any) -> Term | None:
        """`get_local_id(d)` ... as the built-in coordinate; None for another call."""
        name = cur.spelling
        if not self.opencl or not is_prelude(cur.referenced):
            return None
        if name not in _COORDINATES and name not in _DERIVED:
            return None
        (arg,) = list(cur.get_arguments())
        d = clang.constant_value(arg)
        if d is None or not 0 <= d <= 2:
            what = "a dimension that is not a constant" if d is None else f"dimension {d}"
            raise self.unsupported(
                f"'{name}' of {what}", cur, "the dimension of a work-item function is a constant 0, 1 or 2"
            )
        span = self.span(cur)
        if name in _COORDINATES:
            return _COORDINATES[name](span, d)
        group = BlockCount(span, d) if name == "get_global_size" else BlockId(span, d)
        groups = Binary(BinOp.MUL, group, ThreadCount(span, d), span)
        return groups if name == "get_global_size" else Binary(BinOp.ADD, groups, ThreadId(span, d), span)

    def barrier(self, cur: Any) -> SyncStmt | None:
        """`barrier(flags);` as the work-group barrier, with the memories its flags order."""
        if not self.opencl or cur.spelling != "barrier" or not is_prelude(cur.referenced):
            return None
        (arg,) = list(cur.get_arguments())
        flags = clang.constant_value(arg)
        if flags is None or flags & ~3:
            raise self.unsupported(
                "'barrier' with these flags",
                cur,
                "the flags are a constant: CLK_LOCAL_MEM_FENCE, CLK_GLOBAL_MEM_FENCE or both ('|')",
            )
        fences = frozenset(name for bit, name in _FENCE_FLAGS.items() if flags & bit)
        return SyncStmt(self.span(cur), fences=fences)

    def call(self, cur: Any) -> UnsupportedError:
        if not self.opencl or cur.spelling.startswith(("atom", "__")):
            return super().call(cur)
        return self.unsupported(f"call to '{cur.spelling}'", cur, OPENCL_HINT)
