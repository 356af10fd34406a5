"""Derivations of Hoare quadruples {φ} m ⇒ P {ψ} as data, and their text format.

A `Node` is one rule application: the rule's name as the paper writes it, the conclusion
(pre, mask, program, post) and the premises. H-CONSEQ nodes also record, per side
condition (`pre`: φ' → φ, `post`: ψ → ψ'), which solver proved it, its version and time.

The format (proofs/README.md) is one block per node, indented under its conclusion:

    H-SEQ
      pre: ...
      mask: T
      prog: k := tid; while k < n do ... done
      post: ...
      H-ASSIGN
        pre: ...

A field's value may continue on following lines indented deeper than the field.
Lines starting with `#` are comments.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from .formula import F, Mask, Prog, show_mask
from .parse import SyntaxErr, parse_formula_text, parse_mask_text, parse_prog_text
from .syntax import show, show_prog

RULES = ("H-SKIP", "H-SYNC", "H-CONSEQ", "H-SEQ", "H-ASSIGN", "H-IF", "H-WHILE", "H-ASSERT", "H-ASSUME")
FORMAT_VERSION = "hoaregpu-proof 1"
T = TypeVar("T")


class ProofFormatError(Exception):
    """The proof file cannot be read: a message and the 1-based line."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.message = message
        self.line = line


@dataclass(frozen=True)
class Record:
    """How a side condition was discharged: `trivial` (syntactically), or `proved` by a solver."""

    status: str
    solver: str = ""
    version: str = ""
    seconds: float = 0.0

    def text(self) -> str:
        if self.status == "trivial":
            return "trivial"
        return f"proved by {self.solver} ({self.version}) in {self.seconds:.3f} s"


_RECORD = re.compile(r"^proved by (\S+) \((.*)\) in ([0-9.]+) s$")


def parse_record(text: str, line: int) -> Record:
    if text == "trivial":
        return Record("trivial")
    m = _RECORD.match(text)
    if m is None:
        raise ProofFormatError(
            "a side-condition record is 'trivial' or 'proved by SOLVER (VERSION) in T s'", line
        )
    return Record("proved", m.group(1), m.group(2), float(m.group(3)))


@dataclass
class Node:
    rule: str
    pre: F
    mask: Mask
    prog: Prog
    post: F
    premises: list[Node] = field(default_factory=list)
    line: int = 0
    side: dict[str, Record] = field(default_factory=dict)  # "pre" / "post" (H-CONSEQ)

    def walk(self) -> list[Node]:
        """This node and all below it, pre-order (the order of the file)."""
        out = [self]
        for p in self.premises:
            out += p.walk()
        return out


@dataclass
class Proof:
    spec: str
    kernel: str
    threads: int | None
    program_hash: str
    root: Node
    path: str = "<proof>"


# ---------------------------------------------------------------- writing

_HEADER_NOTE = [
    "# A derivation in the Hoare logic for GPU kernels of Kojima & Igarashi (Fig. 2, with the",
    "# strict H-SYNC of §7). Format: proofs/README.md. Check it with `hoaregpu check FILE`.",
]


def render(proof: Proof, comment: list[str] | None = None) -> str:
    lines = [*_HEADER_NOTE, *(f"# {c}" for c in comment or [])]
    lines += [
        f"format: {FORMAT_VERSION}",
        f"spec: {proof.spec}",
        f"kernel: {proof.kernel}",
        f"threads: {'any' if proof.threads is None else proof.threads}",
        f"program: {proof.program_hash}",
        "",
    ]
    _render_node(proof.root, 0, lines)
    return "\n".join(lines) + "\n"


def _render_node(n: Node, depth: int, lines: list[str]) -> None:
    pad = "  " * depth
    lines.append(f"{pad}{n.rule}")
    lines.append(f"{pad}  pre: {show(n.pre)}")
    lines.append(f"{pad}  mask: {show_mask(n.mask)}")
    lines.append(f"{pad}  prog: {show_prog(n.prog)}")
    lines.append(f"{pad}  post: {show(n.post)}")
    for key in ("pre", "post"):
        if key in n.side:
            lines.append(f"{pad}  side-{key}: {n.side[key].text()}")
    for p in n.premises:
        _render_node(p, depth + 1, lines)


# ---------------------------------------------------------------- reading

_RULE_LINE = re.compile(r"^H-[A-Z]+$")
_FIELD = re.compile(r"^(pre|mask|prog|post|side-pre|side-post):(?:\s(.*))?$")
_HEADER = re.compile(r"^([a-z-]+):\s*(.*)$")


@dataclass
class _Raw:
    rule: str
    line: int
    indent: int
    fields: dict[str, tuple[str, int]] = field(default_factory=dict)
    premises: list[_Raw] = field(default_factory=list)


def parse_proof(text: str, path: str = "<proof>") -> Proof:
    header: dict[str, tuple[str, int]] = {}
    root: _Raw | None = None
    stack: list[_Raw] = []
    last_field: tuple[_Raw, str, int] | None = None  # node, key, indent of the field line
    for no, raw_line in enumerate(text.splitlines(), start=1):
        stripped = raw_line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(raw_line) - len(raw_line.lstrip(" "))
        if "\t" in raw_line[: indent + 1]:
            raise ProofFormatError("indent with spaces, not tabs", no)
        if _RULE_LINE.match(stripped):
            node = _Raw(stripped, no, indent)
            while stack and stack[-1].indent >= indent:
                stack.pop()
            if stack:
                stack[-1].premises.append(node)
            elif root is None:
                root = node
            else:
                raise ProofFormatError(
                    "a second root node (premises must be indented under their conclusion)", no
                )
            stack.append(node)
            last_field = None
            continue
        m = _FIELD.match(stripped)
        if m and stack and indent > stack[-1].indent:
            node = stack[-1]
            key = m.group(1)
            if key in node.fields:
                raise ProofFormatError(
                    f"'{key}' given twice for the {node.rule} node of line {node.line}", no
                )
            node.fields[key] = (m.group(2) or "", no)
            last_field = (node, key, indent)
            continue
        if last_field is not None and indent > last_field[2]:
            node, key, _ = last_field
            value, at = node.fields[key]
            node.fields[key] = (f"{value} {stripped}", at)
            continue
        if root is None:
            h = _HEADER.match(stripped)
            if h:
                header[h.group(1)] = (h.group(2), no)
                continue
        raise ProofFormatError(f"cannot read this line: {stripped[:60]!r}", no)
    if root is None:
        raise ProofFormatError(
            "no derivation (a rule name such as H-CONSEQ starts one)", max(1, len(text.splitlines()))
        )
    for key in ("spec", "kernel", "threads", "program"):
        if key not in header:
            raise ProofFormatError(f"the header has no '{key}:' line", 1)
    threads_text, threads_line = header["threads"]
    if threads_text == "any":
        threads = None
    elif threads_text.isdigit() and int(threads_text) >= 1:
        threads = int(threads_text)
    else:
        raise ProofFormatError("'threads:' is a positive number or 'any'", threads_line)
    return Proof(
        spec=header["spec"][0],
        kernel=header["kernel"][0],
        threads=threads,
        program_hash=header["program"][0],
        root=_build(root),
        path=path,
    )


def _build(raw: _Raw) -> Node:
    for key in ("pre", "mask", "prog", "post"):
        if key not in raw.fields:
            raise ProofFormatError(f"the {raw.rule} node has no '{key}:' field", raw.line)

    def parsed(key: str, fn: Callable[[str], T]) -> T:
        text, line = raw.fields[key]
        try:
            return fn(text)
        except SyntaxErr as e:
            msg = f"in '{key}': {e.message} (column {e.col + 1} of the value)"
            raise ProofFormatError(msg, line) from None

    side = {}
    for key in ("pre", "post"):
        if f"side-{key}" in raw.fields:
            text, line = raw.fields[f"side-{key}"]
            side[key] = parse_record(text, line)
    pre = parsed("pre", parse_formula_text)
    mask = parsed("mask", parse_mask_text)
    prog = parsed("prog", parse_prog_text)
    post = parsed("post", parse_formula_text)
    return Node(
        rule=raw.rule,
        pre=pre,
        mask=mask,
        prog=prog,
        post=post,
        premises=[_build(p) for p in raw.premises],
        line=raw.line,
        side=side,
    )


def read_proof(path: str) -> Proof:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ProofFormatError(f"cannot read {path}: {e.strerror or e}", 1) from None
    return parse_proof(text, path)
