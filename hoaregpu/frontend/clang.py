"""libclang: one translation unit per spec file, Clang's diagnostics as SpecErrors.

The program part of a spec is parsed by Clang, as GPUVerify does: the real preprocessor
(function-like macros, `#if`, `-D`, line splices), real C/C++ types and exact source
ranges. The `libclang` wheel bundles the library; CUDA is parsed device-side only with a
small prelude of builtins instead of the CUDA headers (`-nocudainc -nocudalib`).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..clang_options import ClangOptions
from ..errors import Span, SpecError
from ..parser.context import LineMap

# The builtins a CUDA kernel uses, as device-side declarations (`include/hoaregpu_cuda.h`,
# passed with -include), and empty stand-ins for the CUDA headers kernels include.
INCLUDE_DIR = os.path.join(os.path.dirname(__file__), "include")
PRELUDE_PATH = os.path.join(INCLUDE_DIR, "hoaregpu_cuda.h")

_BASE_ARGS = (
    "-x",
    "cuda",
    "--cuda-device-only",
    "-nocudainc",
    "-nocudalib",
    "--cuda-path=/__hoaregpu__/no-cuda",
    "-std=c++17",
    "-Wno-unknown-cuda-version",
    "-isystem",
    INCLUDE_DIR,
    "-include",
    PRELUDE_PATH,
)

# OpenCL C (`.cl` files): Clang's OpenCL 1.2 front end without its headers, which the wheel
# lacks (`-cl-no-stdinc`); `include/hoaregpu_opencl.h` declares the builtins kernels use.
OPENCL_PRELUDE_PATH = os.path.join(INCLUDE_DIR, "hoaregpu_opencl.h")
OPENCL_STD = "CL1.2"
_OPENCL_ARGS = (
    "-x",
    "cl",
    f"-cl-std={OPENCL_STD}",
    "-cl-no-stdinc",
    "-Wno-keyword-macro",
    "-isystem",
    INCLUDE_DIR,
    "-include",
    OPENCL_PRELUDE_PATH,
)
PRELUDES = (PRELUDE_PATH, OPENCL_PRELUDE_PATH)


def is_opencl(path: str) -> bool:
    """Whether a file is OpenCL C (by its name, as Clang's driver decides)."""
    return path.endswith(".cl")


def clang_args(options: ClangOptions, opencl: bool = False) -> list[str]:
    """Clang's command line for a spec file: the dialect's and the user's `-D`/`-I`."""
    base = _OPENCL_ARGS if opencl else _BASE_ARGS
    return [*base, *(f"-D{d}" for d in options.defines), *(f"-I{d}" for d in options.include_dirs)]


@cache
def cindex() -> Any:
    """The `clang.cindex` module, configured once, with the operator-kind queries of
    libclang 17+ that the Python bindings of the wheel do not wrap."""
    from clang import cindex as ci

    lib = ci.conf.lib
    signatures: dict[str, tuple[list[Any], Any]] = {
        "clang_getCursorBinaryOperatorKind": ([ci.Cursor], ctypes.c_int),
        "clang_getCursorUnaryOperatorKind": ([ci.Cursor], ctypes.c_int),
        "clang_Cursor_isMacroFunctionLike": ([ci.Cursor], ctypes.c_uint),
        "clang_Cursor_Evaluate": ([ci.Cursor], ctypes.c_void_p),
        "clang_EvalResult_getKind": ([ctypes.c_void_p], ctypes.c_int),
        "clang_EvalResult_isUnsignedInt": ([ctypes.c_void_p], ctypes.c_uint),
        "clang_EvalResult_getAsUnsigned": ([ctypes.c_void_p], ctypes.c_ulonglong),
        "clang_EvalResult_getAsLongLong": ([ctypes.c_void_p], ctypes.c_longlong),
        "clang_EvalResult_getAsDouble": ([ctypes.c_void_p], ctypes.c_double),  # frontend/floats.py
        "clang_EvalResult_dispose": ([ctypes.c_void_p], None),
    }
    for name, (argtypes, restype) in signatures.items():
        fn = getattr(lib, name)
        fn.argtypes = argtypes
        fn.restype = restype
    return ci


@cache
def _index() -> Any:
    # dropped at exit while libclang's bindings still exist (else Index.__del__ complains)
    atexit.register(_index.cache_clear)
    return cindex().Index.create()


def parse_translation_unit(path: str, text: str, options: ClangOptions) -> Any:
    """Parse `text` as the contents of `path`; Clang's errors become SpecErrors."""
    ci = cindex()
    flags = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    unsaved = [(path, text)]
    try:
        tu = _index().parse(
            path, args=clang_args(options, is_opencl(path)), unsaved_files=unsaved, options=flags
        )
    except ci.TranslationUnitLoadError as exc:  # pragma: no cover - libclang itself failed
        raise SpecError(f"clang could not parse the file ({exc})", Span(path, 1, 1)) from None
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    if errors:
        raise clang_error(path, errors[0], len(errors), CharOffsets(text))
    return tu


def included_files(tu: Any) -> tuple[str, ...]:
    """The files `tu` included (absolute paths), hoaregpu's own preludes and stand-ins left out
    (they are part of hoaregpu: `filecache` hashes them with the package)."""
    own = INCLUDE_DIR + os.sep
    names = {os.path.abspath(inc.include.name) for inc in tu.get_includes()}
    return tuple(sorted(n for n in names if not n.startswith(own)))


def clang_error(path: str, diag: Any, count: int, chars: CharOffsets) -> SpecError:
    loc = diag.location
    file = loc.file.name if loc.file is not None else path
    if file in PRELUDES or not loc.line:
        file, line, col = path, 1, 1
    elif file == path:
        line, col = chars.linecol(loc.offset)
    else:  # an included file: Clang's byte column
        line, col = loc.line, loc.column
    more = f" (and {count - 1} more error{'s' if count > 2 else ''})" if count > 1 else ""
    hint = next((h for words, h in _HINTS if words in diag.spelling), "reported by clang")
    return SpecError(f"{diag.spelling}{more}", Span(file, line, col), hint)


# Clang's errors whose cause a CUDA programmer may not guess, with what to do
_HINTS = (
    (
        "reference to __host__ variable",
        "reported by clang: a file-scope variable without '__device__', '__constant__' or"
        " '__shared__' lives in host memory, which device code cannot use (nvcc rejects it too);"
        " declare it '__device__'",
    ),
)


def is_opencl_kernel(cursor: Any) -> bool:
    """An OpenCL `__kernel` function: the prelude's macro marks the keyword with an annotation."""
    kind = cindex().CursorKind.ANNOTATE_ATTR
    return any(ch.kind == kind and ch.spelling == "hoaregpu_kernel" for ch in cursor.get_children())


def binary_operator(cursor: Any) -> int:
    return int(cindex().conf.lib.clang_getCursorBinaryOperatorKind(cursor))


def unary_operator(cursor: Any) -> int:
    return int(cindex().conf.lib.clang_getCursorUnaryOperatorKind(cursor))


def children(cursor: Any) -> list[Any]:
    """The cursor's children (cindex's `get_children` checks each against the null cursor,
    one more libclang call per child; this runs on every expression the front end reads)."""
    out: list[Any] = []
    tu = cursor._tu

    def visit(child: Any, parent: Any, data: Any) -> int:
        child._tu = tu  # keeps the translation unit alive as long as the cursor
        out.append(child)
        return 1  # CXChildVisit_Continue

    ci = cindex()
    ci.conf.lib.clang_visitChildren(cursor, ci.callbacks["cursor_visit"](visit), None)
    return out


def descendants(cursor: Any) -> list[Any]:
    """The cursor and everything below it in preorder, in one libclang walk (cindex's
    `walk_preorder` makes a Python generator and a libclang walk per cursor)."""
    out: list[Any] = [cursor]
    tu = cursor._tu

    def visit(child: Any, parent: Any, data: Any) -> int:
        child._tu = tu
        out.append(child)
        return 2  # CXChildVisit_Recurse

    ci = cindex()
    ci.conf.lib.clang_visitChildren(cursor, ci.callbacks["cursor_visit"](visit), None)
    return out


def in_file(cursor: Any, path: str) -> bool:
    """Whether `cursor` stands in the file `path` (where its macro expansion does, for a
    declaration a macro makes). The preludes and stand-in headers are system headers, so
    most of the declarations a translation unit holds are told apart by one query."""
    loc = cursor.location
    if loc.is_in_system_header:
        return False
    f = loc.file
    return f is not None and os.path.normpath(f.name) == os.path.normpath(path)


def file_top_level(tu: Any, path: str) -> list[Any]:
    """The top-level cursors that stand in the file `path`, in order: one walk over the
    translation unit, whose ~1,300 prelude declarations every reader would otherwise skip
    again (kept on the translation unit, which lives as long as its cursors)."""
    cached = getattr(tu, "_hoaregpu_top_level", None)
    if cached is not None and cached[0] == path:
        return list(cached[1])
    own = [cur for cur in children(tu.cursor) if in_file(cur, path)]
    tu._hoaregpu_top_level = (path, own)
    return list(own)


def offsets(cursor: Any) -> tuple[int, int]:
    """The cursor's extent as file offsets [start, end)."""
    ext = cursor.extent
    return ext.start.offset, ext.end.offset


def tokens(tu: Any, cursor: Any) -> Sequence[Any]:
    return list(tu.get_tokens(extent=cursor.extent))


def macro_definitions(tu: Any, path: str) -> list[tuple[str, int, int, bool]]:
    """Macros defined in the spec file: (name, byte offset of the name, byte offset just after
    the last token of the value, whether it is function-like)."""
    ci = cindex()
    out: list[tuple[str, int, int, bool]] = []
    for cur in file_top_level(tu, path):
        if cur.kind != ci.CursorKind.MACRO_DEFINITION:
            continue
        function_like = bool(ci.conf.lib.clang_Cursor_isMacroFunctionLike(cur))
        out.append((cur.spelling, cur.extent.start.offset, cur.extent.end.offset, function_like))
    return out


@dataclass(frozen=True)
class Lexed:
    """What the front end needs from the spec file's own tokens, from one pass of Clang's
    lexer (offsets in characters): its comments (line splices already part of them), the
    macros it `#undef`s, and the regions `#if`/`#ifdef` removed."""

    comments: tuple[tuple[int, str], ...]
    undefs: frozenset[str]
    skipped: tuple[tuple[int, int], ...]

    def is_skipped(self, offset: int) -> bool:
        return any(a <= offset < b for a, b in self.skipped)


_SPLICES = re.compile(r"\\\r?\n")


def lex(tu: Any, path: str, text: str, chars: CharOffsets) -> Lexed:
    ci = cindex()
    tu_file = tu.get_file(path)
    start = ci.SourceLocation.from_offset(tu, tu_file, 0)
    end = ci.SourceLocation.from_offset(tu, tu_file, chars.size)
    skipped = tuple((chars(a), chars(b)) for a, b in skipped_ranges(tu, path))
    comments: list[tuple[int, str]] = []
    code: list[Any] = []
    for tok in tu.get_tokens(extent=ci.SourceRange.from_locations(start, end)):
        if tok.kind == ci.TokenKind.COMMENT:
            comments.append((chars(tok.extent.start.offset), tok.spelling))
        else:
            code.append(tok)
    undefs = set()
    # a token's spelling is a libclang call: look for `#undef` only in a file that has one
    # (spelled with line splices too)
    has_undef = "undef" in text or "undef" in _SPLICES.sub("", text)
    for hash_, word, name in zip(code, code[1:], code[2:], strict=False) if has_undef else ():
        if hash_.spelling != "#" or word.spelling != "undef" or name.kind != ci.TokenKind.IDENTIFIER:
            continue
        offset = chars(hash_.extent.start.offset)
        directive = _SPLICES.sub("", text[offset : chars(name.extent.start.offset)])
        if not any(a <= offset < b for a, b in skipped) and "\n" not in directive:
            undefs.add(name.spelling)
    return Lexed(tuple(comments), frozenset(undefs), skipped)


def constant_value(cursor: Any) -> int | None:
    """The integer Clang folds the expression to, or None when it is no integer constant."""
    lib = cindex().conf.lib
    result = lib.clang_Cursor_Evaluate(cursor)
    if not result:
        return None
    try:
        if lib.clang_EvalResult_getKind(result) != 1:  # CXEval_Int
            return None
        if lib.clang_EvalResult_isUnsignedInt(result):
            return int(lib.clang_EvalResult_getAsUnsigned(result))
        return int(lib.clang_EvalResult_getAsLongLong(result))
    finally:
        lib.clang_EvalResult_dispose(result)


def skipped_ranges(tu: Any, path: str) -> list[tuple[int, int]]:
    """Regions removed by `#if`/`#ifdef`: annotations inside them do not count."""
    ci = cindex()
    lib = ci.conf.lib

    class _Ranges(ctypes.Structure):
        _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]

    fn = lib.clang_getSkippedRanges
    fn.argtypes = [ci.TranslationUnit, ci.File]
    fn.restype = ctypes.POINTER(_Ranges)
    dispose = lib.clang_disposeSourceRangeList
    dispose.argtypes = [ctypes.POINTER(_Ranges)]
    dispose.restype = None
    ptr = fn(tu, tu.get_file(path))
    out: list[tuple[int, int]] = []
    try:
        for i in range(ptr.contents.count):
            r = ptr.contents.ranges[i]
            out.append((r.start.offset, r.end.offset))
    finally:
        dispose(ptr)
    return out


class CharOffsets:
    """Clang counts bytes; our spans and the annotation grammar count characters."""

    def __init__(self, text: str) -> None:
        self.lines = LineMap(text)
        data = text.encode("utf-8")
        self.size = len(data)
        self._ascii = self.size == len(text)
        self._table: list[int] = []
        if not self._ascii:
            for i, ch in enumerate(text):
                self._table.extend([i] * len(ch.encode("utf-8")))
            self._table.append(len(text))

    def __call__(self, byte_offset: int) -> int:
        if self._ascii:
            return byte_offset
        return self._table[min(byte_offset, len(self._table) - 1)]

    def linecol(self, byte_offset: int) -> tuple[int, int]:
        """Line and column (in characters) of a byte offset; Clang's own columns count bytes."""
        return self.lines.linecol(self(byte_offset))
