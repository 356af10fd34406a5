"""Clang's top-level declarations → kernels of `hoaregpu.syntax` (the file-level half of the
translator; `translate.py` reads statements): which declarations are kernels, their
contracts and parameters, and device functions with contracts (`contracts.py`), which are
verified as kernels of their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..errors import Span, SpecError
from ..parser import placement
from ..syntax import (
    Block,
    Clause,
    Decl,
    Declarator,
    KernelDef,
    Param,
)
from ..terms import RESULT
from . import clang
from .contracts import contract_of, renamed
from .opencl import OpenCL


@dataclass
class TopLevel(OpenCL):
    """The file's kernels with their contracts, device functions with contracts as kernels of
    their own, and parameters; statements are `translate.Translator`'s."""

    # per kernel: the values of the `__constant__` variables it uses (filescope.py)
    entry_facts: dict[str, tuple[Clause, ...]] = field(default_factory=dict)

    # ------------------------------------------------------------ positions

    def start_span(self, cur: Any) -> Span:
        """Where the construct's text begins (a declaration's type, not its name)."""
        return Span(self.path, *self.chars.linecol(clang.offsets(cur)[0]))

    # ------------------------------------------------------------ kernels

    def kernels(self) -> list[KernelDef]:
        """Top-level kernels with their contracts; other declarations are not kernels and are
        left alone (host code, helpers never called)."""
        items: list[Any] = []
        previous_end = 0
        self.read_axioms(self.top_level())  # GPUVerify's `__axiom(e)`
        declarations = self._declarations()
        for cur, _, _, contract in declarations:  # first: every contract, for the calls
            if contract and self._is_device_function(cur, with_contract=True):
                clauses = [c for i in contract for c in self.annots[i].annot.clauses]
                names = tuple(p.spelling for p in cur.get_arguments())
                self.contracts[cur.spelling] = contract_of(cur.spelling, clauses, names)
        for cur, start, end, contract in declarations:
            previous_end = max(previous_end, end)
            if self._is_device_function(cur):
                # a device function's body is read where it is called (inline.py), and on
                # its own when it has a contract (contracts.py)
                self.used |= set(self.annots_between(start, end))
                if contract and cur.spelling in self.contracts:
                    self.used |= set(contract)
                    result = {RESULT: f"{cur.spelling}.result"}  # the device kernel's local
                    if self.is_record(cur.result_type):  # `\result.x` (aggregates.py)
                        for leaf in self.leaves(cur.result_type, cur, cur.result_type.spelling):
                            result[RESULT + leaf.suffix] = f"{cur.spelling}.result{leaf.suffix}"
                    for i in contract:
                        annot = self.annots[i].annot
                        own = tuple(replace(c, formula=renamed(c.formula, result)) for c in annot.clauses)
                        items.append(replace(annot, clauses=own))
                    items.append(self.device_kernel(cur))
                    continue
            if self._is_kernel(cur):
                for i in contract:
                    self.used.add(i)
                    items.append(self.annots[i].annot)
                items.append(self.kernel(cur))
            elif contract:
                first = self.annots[contract[0]].annot
                raise (
                    placement.misplaced(first.clauses[0])
                    if first.clauses
                    else SpecError("an annotation here belongs to nothing", first.span)
                )
        for i, a in enumerate(self.annots):
            if i not in self.used and a.start >= previous_end:
                self.used.add(i)
                items.append(a.annot)
        kernels = [
            replace(k, requires=(*self.entry_facts.get(k.name, ()), *k.requires))
            for k in placement.top_level(items)
        ]
        stray = [a for i, a in enumerate(self.annots) if i not in self.used and a.annot.clauses]
        if stray:
            raise SpecError(
                "annotations may not stand inside an expression or declaration", stray[0].annot.span
            )
        return kernels

    def _declarations(self) -> list[tuple[Any, int, int, list[int]]]:
        """The file's top-level declarations with their extents and the annotations (not yet
        attached) between the previous declaration and each."""
        out = []
        previous_end = 0
        for cur in self.top_level():
            if not clang.in_file(cur, self.tu_path) or cur.kind == self.K.MACRO_DEFINITION:
                continue
            if cur.kind in (self.K.MACRO_INSTANTIATION, self.K.INCLUSION_DIRECTIVE):
                continue
            start, end = self.extent(cur)
            out.append((cur, start, end, self.annots_in(previous_end, start)))
            previous_end = max(previous_end, end)
        return out

    def _is_device_function(self, cur: Any, with_contract: bool = False) -> bool:
        """A function definition other than a kernel; one that may carry a contract must be
        `__device__` (a contract before a host function is misplaced)."""
        if self._is_kernel(cur) or cur.kind != self.K.FUNCTION_DECL or not cur.is_definition():
            return False
        # OpenCL has no qualifier: every function other than a kernel is a helper (opencl.py)
        device = self.opencl or any(ch.kind == self.K.CUDADEVICE_ATTR for ch in cur.get_children())
        return not with_contract or device

    def device_kernel(self, cur: Any) -> KernelDef:
        """A device function with a contract, as the kernel that verifies it once: its
        parameters, its body, and `f.result = e` for its final `return e;` (contracts.py)."""
        name = cur.spelling
        body = next(ch for ch in cur.get_children() if ch.kind == self.K.COMPOUND_STMT)
        params = tuple(x for p in cur.get_arguments() for x in self.param(p))
        locals_ = {d.spelling for d in clang.descendants(cur) if d.kind == self.K.VAR_DECL}
        self.unsigned_params = frozenset(
            p.name for p in params if p.type.nonnegative and p.name.split(".")[0] not in locals_
        )
        self.globals_used, self.inlined = {}, []
        span = self.start_span(cur)
        children = list(body.get_children())
        last = children[-1] if children and children[-1].kind == self.K.RETURN_STMT else None
        inside = set(self.annots_between(*self.extent(body)))
        saved_used, self.used = self.used, self.used - inside
        self.inline_stack.append(name)  # a recursive call is an error, as when inlining
        entry = self.kernel_pointers(cur)  # pointers.py
        try:
            stmts = entry + self.stmt_list(body, children[:-1] if last is not None else children)
            if last is not None and list(last.get_children()):
                result = f"{name}.result"
                if self.is_record(cur.result_type):
                    stmts += self.struct_decls(result, False, (), cur.result_type, cur)
                else:
                    rtype = self.base_type(cur.result_type.get_canonical(), cur, cur.result_type.spelling)
                    stmts.append(Decl(False, rtype, (Declarator(result, (), None, span),), span))
                stmts += self._return(last, result, cur.result_type)
        finally:
            self.ptr_frames.pop()
            self.inline_stack.pop()
            self.used = saved_used | inside
        self.check_global_shadowing([cur, *self.inlined])
        globals_, facts, shared = self.global_params()
        self.entry_facts[name] = tuple(facts)
        block = Block((*shared, *stmts), self.span(body))
        return KernelDef(name, (*params, *globals_), (), (), block, span, device=True)

    def top_level(self, parent: Any = None) -> list[Any]:
        """The file's declarations in order, looking into `extern "C" { ... }` and namespaces."""
        out: list[Any] = []
        found = clang.file_top_level(self.tu, self.tu_path) if parent is None else parent.get_children()
        for cur in found:
            if cur.kind in (self.K.LINKAGE_SPEC, self.K.NAMESPACE) and clang.in_file(cur, self.tu_path):
                out += self.top_level(cur)
            else:
                out.append(cur)
        return out

    def _is_kernel(self, cur: Any) -> bool:
        if cur.kind == self.K.FUNCTION_TEMPLATE and any(
            ch.kind == self.K.CUDAGLOBAL_ATTR for ch in cur.get_children()
        ):
            raise self.unsupported("kernel templates", cur, "write the kernel for concrete types")
        if cur.kind != self.K.FUNCTION_DECL:
            return False
        if not any(ch.kind == self.K.CUDAGLOBAL_ATTR for ch in cur.get_children()) and not (
            self.opencl and clang.is_opencl_kernel(cur)
        ):
            return False
        return bool(cur.is_definition())

    def kernel(self, cur: Any) -> KernelDef:
        # OpenCL's `__local` pointer parameters are shared arrays declared by the body (opencl.py)
        params = tuple(x for p in cur.get_arguments() if not self.is_local_param(p) for x in self.param(p))
        locals_ = {d.spelling for d in clang.descendants(cur) if d.kind == self.K.VAR_DECL}
        self.unsigned_params = frozenset(
            p.name for p in params if p.type.nonnegative and p.name.split(".")[0] not in locals_
        )
        self.globals_used, self.inlined = {}, []
        body = next(ch for ch in cur.get_children() if ch.kind == self.K.COMPOUND_STMT)
        self.warnings = list(self.axiom_warnings)
        entry = self.kernel_pointers(cur)  # pointers.py: assigned pointer parameters, aliases
        try:
            # GPUVerify's `__requires(e);` calls leading the body (gpuverify.py)
            requires, ensures, rest = self.contract_calls(list(body.get_children()), None)
            requires = [*self.file_axioms, *requires]
            rest = self.push_function_wide(rest)
            block = Block((*entry, *self.stmt_list(body, rest)), self.span(body))
        finally:
            self.ptr_frames.pop()
            self.pop_function_wide()
        # file-scope variables the kernel uses (filescope.py): extra parameters and entry facts
        self.check_global_shadowing([cur, *self.inlined])
        globals_, facts, shared = self.global_params()
        block = Block((*self.local_param_decls(cur), *shared, *block.stmts), block.span)
        self.entry_facts[cur.spelling] = tuple(facts)
        span = self.start_span(cur)
        warnings = tuple(dict.fromkeys(self.warnings))  # once, though a device function is inlined often
        return KernelDef(
            cur.spelling, (*params, *globals_), (*requires,), (*ensures,), block, span, warnings=warnings
        )

    def param(self, cur: Any) -> list[Param]:
        ty = cur.type.get_canonical()
        dims = 0
        extents: list[int | None] = []  # `int a[][16]`: the rows' extent is C's
        while ty.kind in (
            self.ci.TypeKind.POINTER,
            self.ci.TypeKind.CONSTANTARRAY,
            self.ci.TypeKind.INCOMPLETEARRAY,
        ):
            constant = ty.kind == self.ci.TypeKind.CONSTANTARRAY
            extents.append(ty.get_array_size() if constant and ty.get_array_size() > 0 else None)
            ty = ty.get_pointee() if ty.kind == self.ci.TypeKind.POINTER else ty.element_type
            ty = ty.get_canonical()
            dims += 1
        span = self.start_span(cur)
        if ty.kind == self.ci.TypeKind.RECORD:
            return self.struct_params(cur, ty, dims, span)
        btype = self.base_type(ty, cur, cur.type.spelling)
        return [Param(cur.spelling, btype, dims, span, extents=tuple(extents))]
