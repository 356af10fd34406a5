"""The front end: a spec file → the surface AST (`hoaregpu.syntax.SpecFile`).

Clang parses the C/CUDA program (`clang.py`, `translate.py`); our pyparsing grammar parses
the annotation comments (`annotations.py`, `hoaregpu.parser`). Every failure is a
SpecError with a position: Clang's own errors in compiler style, unsupported constructs
named as such.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import os
from typing import Any

from ..clang_options import ClangOptions
from ..errors import Span, SpecError, register_source
from ..parser.context import ParseContext, deep_recursion
from ..syntax import Define, SpecFile
from . import clang
from .annotations import define_table, read_annotations
from .translate import Translator

__all__ = ["ClangOptions", "included_files", "parse_file", "parse_text", "what_was_read"]

_INCLUDED: dict[str, tuple[str, ...]] = {}
_READ: dict[str, tuple[str, tuple[tuple[str, str | None], ...]]] = {}


def included_files(path: str) -> tuple[str, ...]:
    """The files the last parse of `path` included (`clang.included_files`)."""
    return _INCLUDED.get(path, ())


def what_was_read(path: str) -> tuple[str, tuple[tuple[str, str | None], ...]] | None:
    """The sha256 of the bytes the last `parse_file(path)` parsed, and of each file it
    included just after (None for one that could not be read): what `filecache` keys a
    file's results by, so that a file edited while it is verified is not stored under the
    new text."""
    return _READ.get(path)


def _sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def parse_file(path: str, options: ClangOptions | None = None) -> SpecFile:
    """Read and parse a spec file."""
    _READ.pop(path, None)
    try:
        with open(path, "rb") as f:
            data = f.read()
        # decoded as `open(path, encoding="utf-8")` would (universal newlines)
        text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8").read()
    except UnicodeDecodeError as exc:
        raise SpecError(f"the file is not valid UTF-8 ({exc.reason})", Span(path, 1, 1)) from None
    except OSError as exc:
        raise SpecError(f"cannot read the file: {exc.strerror or exc}", Span(path, 1, 1)) from None
    spec = parse_text(text, path, options)
    digest = hashlib.sha256(data).hexdigest()
    _READ[path] = (digest, tuple((dep, _sha256(dep)) for dep in included_files(path)))
    return spec


def parse_text(text: str, path: str = "<string>", options: ClangOptions | None = None) -> SpecFile:
    """Parse a whole spec file given as text (`path` names it in messages)."""
    register_source(path, text)
    clang_path = path if path.endswith((".cu", ".cuh", ".cl")) else path + ".cu"
    clang_path = os.path.abspath(clang_path)
    try:
        tu = clang.parse_translation_unit(clang_path, text, options or ClangOptions())
    except SpecError as exc:
        raise _renamed(exc, clang_path, path) from None
    _INCLUDED[path] = clang.included_files(tu)
    try:
        with deep_recursion():  # Clang's AST is walked recursively (a long sum is deep)
            chars = clang.CharOffsets(text)
            lexed = clang.lex(tu, clang_path, text, chars)
            c = ParseContext(path, chars.lines, shadowed=_declared_builtin_names(tu, clang_path))
            define_table(tu, clang_path, text, chars, lexed, c)
            annots = read_annotations(lexed, c)
            kernels = Translator(tu, path, clang_path, chars, annots=annots).kernels()
    except (RecursionError, ctypes.ArgumentError) as exc:
        # inside a libclang callback the RecursionError arrives wrapped by ctypes
        if not isinstance(exc, RecursionError) and "RecursionError" not in str(exc):
            raise
        raise SpecError("the program is nested too deeply to translate", Span(path, 1, 1)) from None
    if not kernels:
        kernel = "__kernel" if clang.is_opencl(clang_path) else "__global__"
        hint = f"hoaregpu verifies '{kernel}' functions"
        device = _device_functions(tu, clang_path)
        if device:  # e.g. GPUVerify's tests of a device function's own `__ensures`
            hint += (
                f"; this file defines only device functions ({', '.join(device[:3])}), which are"
                " checked where a kernel calls them, or on their own with a '/*@ ensures ... */'"
                " contract before them"
            )
        raise SpecError(f"no '{kernel}' kernel in the file", Span(path, 1, 1), hint)
    defines = tuple(Define(name, term, c.span(offset)) for name, (offset, term) in c.defines.items())
    return SpecFile(path, tuple(kernels), defines)


def _device_functions(tu: Any, clang_path: str) -> list[str]:
    """The `__device__` functions the file defines."""
    K = clang.cindex().CursorKind
    return [
        cur.spelling
        for cur in clang.file_top_level(tu, clang_path)
        if cur.kind == K.FUNCTION_DECL
        and cur.is_definition()
        and any(ch.kind == K.CUDADEVICE_ATTR for ch in cur.get_children())
    ]


def _renamed(exc: SpecError, clang_path: str, path: str) -> SpecError:
    if exc.span.path != clang_path:
        return exc
    return SpecError(exc.message, Span(path, exc.span.line, exc.span.col), exc.hint)


def _declared_builtin_names(tu: object, clang_path: str) -> frozenset[str]:
    """`tid`/`ntid` declared as C variables or parameters anywhere in the file."""
    ci = clang.cindex()
    kinds = (ci.CursorKind.VAR_DECL, ci.CursorKind.PARM_DECL)
    found = {
        cur.spelling
        for top in clang.file_top_level(tu, clang_path)  # not the prelude's declarations
        for cur in clang.descendants(top)
        if cur.kind in kinds and cur.spelling in ("tid", "ntid")
    }
    return frozenset(found)
