"""`memset` and `memcpy` in device code, on arrays of integers or structs (issue 9, item 6).

Each active thread performs the call; with a length Clang folds to a constant, the call is
spelled out as one assignment per scalar cell: `memset(a, 0, 4 * sizeof(int))` is
`a[0] = 0; ...; a[3] = 0;` (all threads writing the same value to a shared array is the
same write). A byte value `b` fills every byte of a cell: the cell's value is what those
bytes mean in its type (0 stays 0, 0xFF makes an `int` -1). The destination and source
are an array's name, `&a[k]`, or `&s` for a struct variable; lengths that are not
constant, or not a whole number of elements, are rejected.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from ..errors import SpecError
from ..floats import literal
from ..syntax import AssignOp, AssignStmt, BaseType, Block, Decl, Declarator, Stmt
from ..terms import Binary, BinOp, IntLit, Term, Var
from . import clang
from .aggregates import MAX_COPY_CELLS, Leaf, _reads
from .ckinds import UNSIGNED, is_prelude, strip
from .floats import FLOAT_KINDS
from .pointer_stmts import PointerStatements

MEMORY_HINT = (
    "memset/memcpy need an array's name, '&a[k]' or '&s', and a constant length that is a whole"
    " number of elements; or write a loop"
)
_NAMES = {"memset": "memset", "memcpy": "memcpy", "__builtin_memset": "memset", "__builtin_memcpy": "memcpy"}


@dataclass(frozen=True)
class _Place:
    """Where a memory call reads or writes: the variable, the first index (None: a single
    struct or scalar object), and the element type."""

    var: Var
    offset: Term | None
    type: Any


@dataclass
class MemoryOps(PointerStatements):
    def is_memory_call(self, cur: Any) -> bool:
        ref = cur.referenced
        if cur.spelling not in _NAMES:
            return False
        return cur.spelling.startswith("__builtin_") or is_prelude(ref)  # not a function of the file

    def memory_call(self, cur: Any) -> Stmt:
        name = _NAMES[cur.spelling]
        args = list(cur.get_arguments())
        if len(args) != 3:
            raise self.unsupported(f"this call to '{name}'", cur, MEMORY_HINT)
        dst = self.place(args[0], cur, write=True)
        leaves = self.elem_leaves(dst.type, args[0])
        count = self.count(args[2], dst.type, cur)
        pairs: list[tuple[Leaf, Var, Term]] = []
        if name == "memset":
            byte = clang.constant_value(args[1])
            if byte is None:
                raise self.unsupported("memset with a value that is not a constant", args[1], MEMORY_HINT)
            for leaf, cell_var in self.cells(dst, leaves, count, cur):
                pairs.append((leaf, cell_var, self.filled(byte & 0xFF, leaf, args[1])))
        else:
            src = self.place(args[1], cur, write=False)
            if src.type.get_canonical().spelling != dst.type.get_canonical().spelling:
                raise self.unsupported(
                    f"memcpy from '{src.type.spelling}' to '{dst.type.spelling}'", cur, "copy the same types"
                )
            reads = [v for _, v in self.cells(src, leaves, count, cur)]
            pairs = [
                (leaf, v, r) for (leaf, v), r in zip(self.cells(dst, leaves, count, cur), reads, strict=True)
            ]
        span = self.span(cur)
        stmts: list[Stmt] = []
        if name == "memcpy" and len(pairs) > 1 and any(_reads(r, dst.var.name) for _, _, r in pairs):
            staged: list[tuple[Leaf, Var, Term]] = []
            for leaf, v, r in pairs:  # the source is read before anything is written
                temp = self.fresh_temp("memcpy")
                btype = self.base_type(leaf.type, cur, leaf.type.spelling)
                stmts.append(Decl(False, btype, (Declarator(temp, (), r, span),), span))
                staged.append((leaf, v, Var(temp, (), span)))
            pairs = staged
        stmts += [AssignStmt(v, AssignOp.SET, value, span) for _, v, value in pairs]
        return Block(tuple(stmts), span, scoped=False)

    def place(self, cur: Any, call: Any, write: bool) -> _Place:
        K, TK = self.K, self.ci.TypeKind
        node = strip(cur, K)
        while node.kind == K.CSTYLE_CAST_EXPR or node.kind == K.CXX_STATIC_CAST_EXPR:
            node = strip([ch for ch in node.get_children() if ch.kind.is_expression()][-1], K)
        if write and self.is_constant(self.root_ref(node)):
            name = self.root_ref(node).spelling
            raise SpecError(f"'{name}' is a __constant__ variable: a kernel cannot write it", self.span(node))
        if node.kind == K.UNARY_OPERATOR and clang.unary_operator(node) == 5:  # &x
            (inner,) = [ch for ch in node.get_children() if ch.kind.is_expression()]
            inner = strip(inner, K)
            term = self.expr(inner)
            if not isinstance(term, Var):
                raise self.unsupported("this memory argument", node, MEMORY_HINT)
            if inner.kind == K.ARRAY_SUBSCRIPT_EXPR:  # &a[k]: from cell k on
                return _Place(Var(term.name, term.indices[:-1], term.span), term.indices[-1], inner.type)
            return _Place(term, None, inner.type)  # &s: one object
        ty = node.type.get_canonical()
        if ty.kind in (TK.POINTER, TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
            term = self.expr(node)
            elem = ty.get_pointee() if ty.kind == TK.POINTER else ty.element_type
            if isinstance(term, Var) and elem.get_canonical().kind.name != "VOID":
                return _Place(term, IntLit(0, self.span(node)), elem)
        raise self.unsupported(f"this argument of '{call.spelling}'", node, MEMORY_HINT)

    def elem_leaves(self, ty: Any, cur: Any) -> list[Leaf]:
        ty = ty.get_canonical()
        extents: list[int] = []
        while ty.kind == self.ci.TypeKind.CONSTANTARRAY:  # `int (*p)[4]`-like rows, `&m[0]` of a 2-D array
            extents.append(ty.get_array_size())
            ty = ty.element_type.get_canonical()
        if self.is_record(ty):
            return [
                Leaf(leaf.suffix, (*extents, *leaf.extents), leaf.type)
                for leaf in self.leaves(ty, cur, ty.spelling)
            ]
        self.base_type(ty, cur, ty.spelling)  # an integer type, or an error naming it
        return [Leaf("", tuple(extents), ty)]

    def count(self, cur: Any, elem: Any, call: Any) -> int:
        length = clang.constant_value(cur)
        size = elem.get_canonical().get_size()
        if length is None:
            what = f"'{call.spelling}' with a length that is not a constant"
            raise self.unsupported(what, cur, MEMORY_HINT)
        if size <= 0 or length % size:
            what = f"'{call.spelling}' of {length} bytes: not a whole number of '{elem.spelling}'"
            raise self.unsupported(what, cur, MEMORY_HINT)
        return int(length // size)

    def cells(self, place: _Place, leaves: list[Leaf], count: int, cur: Any) -> list[tuple[Leaf, Var]]:
        span = self.span(cur)
        if place.offset is None and count > 1:
            raise self.unsupported(f"'{cur.spelling}' past the end of one object", cur, MEMORY_HINT)
        if count * sum(len(list(leaf.cells())) for leaf in leaves) > MAX_COPY_CELLS:
            what = f"'{cur.spelling}' of more than {MAX_COPY_CELLS} scalars"
            raise self.unsupported(what, cur, MEMORY_HINT)
        out: list[tuple[Leaf, Var]] = []
        for k in range(count):
            first: tuple[Term, ...] = ()
            if place.offset is not None:
                off = place.offset
                if k == 0:
                    first = (off,)
                elif isinstance(off, IntLit):
                    first = (IntLit(off.value + k, span),)
                else:
                    first = (Binary(BinOp.ADD, off, IntLit(k, span), span),)
            for leaf in leaves:
                for c in leaf.cells():
                    index = (*place.var.indices, *first, *(IntLit(i, span) for i in c))
                    out.append((leaf, Var(place.var.name + leaf.suffix, index, place.var.span or span)))
        return out

    def filled(self, byte: int, leaf: Leaf, cur: Any) -> Term:
        """The value of a cell of `leaf`'s type whose every byte is `byte`."""
        kind = leaf.type.kind.name
        size = leaf.type.get_size()
        if kind in FLOAT_KINDS:  # the float those bytes spell (0 is 0.0)
            value_f = struct.unpack("<f" if size == 4 else "<d", bytes([byte]) * size)[0]
            return literal(value_f, self.span(cur))
        signed = kind not in UNSIGNED and kind != "BOOL"
        value = int.from_bytes(bytes([byte]) * size, "little", signed=signed)
        if self.base_type(leaf.type, cur, leaf.type.spelling) is BaseType.BOOL and value not in (0, 1):
            raise self.unsupported(f"memset of a bool to the byte {byte}", cur, "use 0 or 1")
        return IntLit(value, self.span(cur))
