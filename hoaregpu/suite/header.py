"""GPUVerify's test headers: what a test kernel expects and how it is launched.

A GPUVerify test (`kernel.cu` / `kernel.cl`) begins with comment lines:

    //pass                                 or  //xfail:NOT_ALL_VERIFIED
    //--blockDim=64 --gridDim=4 -DN=8          (flags; OpenCL: --local_size=... --num_groups=...)
    //kernel.cu:12:5: error: this assertion might not hold      (xfail: the expected error, a regex)

Flags that fix the launch (`--blockDim`, `--gridDim`, `--local_size`, `--num_groups`,
`--global_size`) and the preprocessor (`-DNAME=V`, `-I DIR`) are taken, and so is GPUVerify's
policy on writes of one value by two threads (`BENIGN`); GPUVerify's other
flags (`--no-inline`, `--equality-abstraction`, ...) are ignored and listed as notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..clang_options import ClangOptions
from ..errors import ConfigError
from ..launch import Launch, opencl_launch, parse_dims

# GPUVerify's expected outcomes whose failures are tool errors rather than verdicts
TOOL_ERRORS = frozenset({"CLANG_ERROR", "COMMAND_LINE_ERROR", "BUGLE_ERROR", "GPUVERIFYVCGEN_ERROR"})

# GPUVerify flags that change what it checks or assumes, so that its verdict is not comparable
# with ours: the kernel is scored `unchecked`
INCOMPARABLE_FLAGS = frozenset(
    {
        "--no-annotations",  # annotations ignored
        "--invariants-as-candidates",  # invariants kept only where they hold
        "--only-requires",
        "--only-divergence",
        "--only-log",
        "--only-intra-group",
        "--warp-sync",  # warp-synchronous semantics
        "--kernel-args",  # fixes argument values
        "--global_offset",  # shifts get_global_id
        "--no-barrier-access-checks",
        "--asymmetric-asserts",
    }
)

# GPUVerify's flags that decide which writes of the same value by two threads are no race
# (hoaregpu.races.BENIGN_WRITES). Without them, GPUVerify's reads of memory may give the two
# threads of its pair different values (arrays are modelled adversarially, or per thread), so
# only a value read from no memory is known to be the same: `unread-values`.
# `--equality-abstraction` makes the threads' arrays equal at barriers: every same value.
BENIGN = {
    "--no-benign-tolerance": "none",
    "--equality-abstraction": "same-value",
    "--adversarial-abstraction": "unread-values",
}
GPUVERIFY_BENIGN = "unread-values"

# what an xfail kernel's expected error says, first match wins: (pattern, category, checked by us)
_CATEGORIES: tuple[tuple[str, str, bool], ...] = (
    (r"barrier invariant", "barrier-invariant", False),
    (r"race|write by|read by", "race", True),  # `verify` proves race-freedom (issue 11)
    (r"null pointer", "null-pointer", False),
    (r"array|bounds", "bounds", False),
    (r"constant memory", "constant-write", True),
    (r"divergence|non-uniform", "barrier-divergence", True),
    (r"assert|invariant|postcondition|precondition|requires|ensures", "assertion", True),
)


@dataclass(frozen=True)
class Header:
    expected: str  # "pass" or "xfail"
    reason: str  # xfail's reason (NOT_ALL_VERIFIED, CLANG_ERROR, ...), "" for pass
    category: str  # what the expected error is about (race, assertion, ...), "" when unsaid
    block_dim: str | None = None
    grid_dim: str | None = None
    local_size: str | None = None
    num_groups: str | None = None
    global_size: str | None = None
    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()  # GPUVerify flags without meaning here
    benign_writes: str = GPUVERIFY_BENIGN  # which same-value writes are no race (`BENIGN`)

    @property
    def incomparable(self) -> tuple[str, ...]:
        """The ignored flags that change what GPUVerify checks or assumes."""
        return tuple(f for f in self.ignored if f.split("=")[0] in INCOMPARABLE_FLAGS)

    @property
    def checked(self) -> bool:
        """Whether hoaregpu checks what the kernel is expected to fail for (bounds and null
        pointers it does not check yet; an unsaid reason counts as checked)."""
        if self.expected == "pass":
            return True
        if self.reason in TOOL_ERRORS:
            return False
        return not self.category or any(c == self.category and ok for _, c, ok in _CATEGORIES)

    @property
    def label(self) -> str:
        if self.expected == "pass":
            return "pass"
        return f"xfail:{self.reason}" + (f" ({self.category})" if self.category else "")

    def launch(self) -> Launch:
        """The launch the flags fix (a contradiction is a ConfigError)."""
        none = (None, None, None)
        block = parse_dims(self.block_dim, "--blockDim") if self.block_dim else none
        grid = parse_dims(self.grid_dim, "--gridDim") if self.grid_dim else none
        return Launch(block, grid).merged(
            opencl_launch(self.local_size, self.num_groups, self.global_size),
            lambda name, a, b: f"the OpenCL sizes give {name} = {b}, the CUDA sizes {a}",
        )

    def clang_options(self) -> ClangOptions:
        return ClangOptions(self.defines, self.include_dirs)


_SIZES = {
    "--blockDim": "block_dim",
    "--gridDim": "grid_dim",
    "--local_size": "local_size",
    "--num_groups": "num_groups",
    "--global_size": "global_size",
}


def read_header(text: str) -> Header:
    """The header of a test kernel's text; a kernel without `//pass`/`//xfail:` is a ConfigError."""
    lines = text.splitlines()
    first = lines[0].strip() if lines else ""
    m = re.fullmatch(r"//\s*(pass|xfail:\s*(\w+))\s*", first, re.IGNORECASE)
    if m is None:
        raise ConfigError("no GPUVerify header: the first line is not '//pass' or '//xfail:REASON'")
    expected = "pass" if m.group(1).lower() == "pass" else "xfail"
    reason = (m.group(2) or "").upper()
    comments = []
    for line in lines[1:]:
        if not line.startswith("//"):
            break
        comments.append(line[2:].strip())
    # the flags are the second line (GPUVerify's tester); later lines are the expected error
    flags = comments[:1] if comments and comments[0].startswith("-") else []
    expectation = " ".join(comments[len(flags) :])
    values: dict[str, str] = {}
    defines: list[str] = []
    includes: list[str] = []
    ignored: list[str] = []
    benign = GPUVERIFY_BENIGN
    tokens = " ".join(flags).split()
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        name, eq, value = tok.partition("=")
        if name in _SIZES and eq:
            values[_SIZES[name]] = value
        elif tok in ("-D", "-I") and i + 1 < len(tokens):
            (defines if tok == "-D" else includes).append(tokens[i + 1])
            i += 1
        elif tok.startswith("-D") and len(tok) > 2:
            defines.append(tok[2:])
        elif tok.startswith("-I") and len(tok) > 2:
            includes.append(tok[2:])
        elif tok in BENIGN:
            benign = BENIGN[tok] if benign != "none" else benign
        else:
            ignored.append(tok)
        i += 1
    category = ""
    if expected == "xfail" and reason not in TOOL_ERRORS:
        low = expectation.lower()
        category = next((c for pattern, c, _ in _CATEGORIES if re.search(pattern, low)), "")
    return Header(
        expected,
        reason,
        category,
        defines=tuple(defines),
        include_dirs=tuple(includes),
        ignored=tuple(ignored),
        benign_writes=benign,
        **values,
    )
