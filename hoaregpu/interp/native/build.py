"""Compiling a kernel's source text with the system C/C++ compiler, binaries cached by hash.

Nothing here reads our parse tree: the kernel's parameters come from the compiler's own
preprocessor output (`-E`), so `#define`s, comments and line splices are C's, not ours.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ...errors import HoareGpuError
from .csupport import MAIN, STUB_HEADERS, header_text, main_text

# C++ first (CUDA is C++), then C; `HOAREGPU_NATIVE_CC` names another compiler.
COMPILERS = ("c++", "g++", "clang++", "cc", "gcc", "clang")
CPP_NAMES = ("c++", "g++", "clang++")
BASE_FLAGS = ("-O1", "-pthread", "-w")
# Both are needed for agreement: locals start at 0 as in the interpreter, and overflow,
# shifts, division by zero and fixed-size-array bounds trap instead of being undefined.
SANITIZE = "-fsanitize=signed-integer-overflow,shift,bounds,integer-divide-by-zero"
SAFETY_FLAG_SETS = (
    ("-ftrivial-auto-var-init=zero", SANITIZE, "-fsanitize-undefined-trap-on-error"),  # gcc
    ("-ftrivial-auto-var-init=zero", SANITIZE, "-fsanitize-trap=all"),  # clang
)
COMPILE_TIMEOUT = 120.0


class NativeUnavailable(HoareGpuError):
    """No usable C/C++ compiler: native runs are skipped with this reason."""


class NativeBuildError(HoareGpuError):
    """The kernel's source does not compile natively, or its kernel cannot be called."""


@dataclass(frozen=True)
class Compiler:
    path: str
    language: str  # "c++" or "c"
    version: str  # first line of `--version`
    flags: tuple[str, ...]

    @property
    def name(self) -> str:
        return (
            self.version
            if Path(self.path).name in self.version
            else f"{Path(self.path).name} ({self.version})"
        )

    def command(self) -> list[str]:
        std = "-std=gnu++17" if self.language == "c++" else "-std=gnu11"
        return [self.path, "-x", self.language, std, *self.flags]


@dataclass(frozen=True)
class Signature:
    kernel: str
    params: tuple[tuple[str, bool], ...]  # (C name, is an array) in order
    has_barrier: bool


@dataclass(frozen=True)
class NativeProgram:
    source: str  # the path given to `build`
    binary: Path
    compiler: Compiler
    signature: Signature


def _probe(path: str, language: str, flags: tuple[str, ...]) -> bool:
    with tempfile.TemporaryDirectory(prefix="hoaregpu-probe-") as d:
        src = Path(d) / "probe.c"
        src.write_text("#include <pthread.h>\nint main(void) { int x; return x; }\n")
        compiler = Compiler(path, language, "", BASE_FLAGS + flags)
        cmd = [*compiler.command(), str(src), "-o", str(Path(d) / "probe")]
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=COMPILE_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
        return done.returncode == 0


@functools.cache
def find_compiler() -> Compiler:
    """The first compiler that accepts the safety flags; NativeUnavailable if none does."""
    wanted = os.environ.get("HOAREGPU_NATIVE_CC")
    names = (wanted,) if wanted else COMPILERS
    tried: list[str] = []
    for name in names:
        path = shutil.which(name)
        if path is None:
            continue
        language = "c++" if Path(name).name in CPP_NAMES or name.endswith("++") else "c"
        for flags in SAFETY_FLAG_SETS:
            if _probe(path, language, flags):
                out = subprocess.run([path, "--version"], capture_output=True, text=True, check=False)
                version = (out.stdout.splitlines() or ["unknown version"])[0].strip()
                return Compiler(path, language, version, BASE_FLAGS + flags)
        tried.append(f"{name} (lacks -ftrivial-auto-var-init=zero or trapping sanitizers)")
    if not tried:
        looked = ", ".join(names)
        raise NativeUnavailable(f"no C/C++ compiler found (looked for {looked})")
    raise NativeUnavailable("no usable C/C++ compiler: " + "; ".join(tried))


def cache_root() -> Path:
    env = os.environ.get("HOAREGPU_NATIVE_CACHE")
    root = Path(env) if env else Path(tempfile.gettempdir()) / f"hoaregpu-native-{os.getuid()}"
    root.mkdir(parents=True, exist_ok=True)
    return root


_PARAM = re.compile(r"(?P<type>.*?)(?P<name>[A-Za-z_]\w*)\s*(?P<brackets>(\[[^\]]*\]\s*)*)$", re.S)


def parse_signature(preprocessed: str, kernel: str) -> Signature:
    """The parameters of `__global__ void kernel(...)` in preprocessed C text."""
    m = re.search(rf"__global__\s+void\s+{re.escape(kernel)}\s*\(([^)]*)\)\s*\{{", preprocessed)
    if m is None:
        raise NativeBuildError(f"no definition of __global__ void {kernel}(...) in the preprocessed source")
    params: list[tuple[str, bool]] = []
    text = m.group(1).strip()
    for part in [] if text in ("", "void") else text.split(","):
        pm = _PARAM.match(part.strip())
        if pm is None:
            raise NativeBuildError(f"cannot read parameter {part.strip()!r} of {kernel}")
        stars = pm.group("type").count("*")
        brackets = pm.group("brackets").count("[")
        if stars + brackets > 1:
            raise NativeBuildError(f"parameter {part.strip()!r} of {kernel}: only 1-D arrays run natively")
        params.append((pm.group("name"), stars + brackets == 1))
    return Signature(kernel, tuple(params), "__syncthreads" in preprocessed)


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            cmd, cwd=cwd, capture_output=True, text=True, timeout=COMPILE_TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        raise NativeBuildError(f"the compiler took more than {COMPILE_TIMEOUT:.0f} s") from None


def _compile(work: Path, source: Path, kernel: str, compiler: Compiler) -> Signature:
    text = source.read_text()
    (work / "kernel.cu").write_text(text)
    for stub in STUB_HEADERS:
        (work / stub).write_text("/* empty: hoaregpu's emulation header defines the CUDA names */\n")
    includes = ["-I", str(work), "-I", str(source.resolve().parent)]
    pre = _run([*compiler.command(), "-E", "-P", *includes, "kernel.cu"], work)
    if pre.returncode != 0:
        raise NativeBuildError(f"preprocessing failed:\n{_tidy(pre.stderr, work, source)}")
    signature = parse_signature(pre.stdout, kernel)
    program = (
        header_text()
        + '#include "kernel.cu"\n'
        + main_text(kernel, list(signature.params), signature.has_barrier)
    )
    (work / "program.c").write_text(program)
    done = _run([*compiler.command(), *includes, "program.c", "-o", "kernel"], work)
    if done.returncode != 0:
        raise NativeBuildError(f"{compiler.name} rejected the kernel:\n{_tidy(done.stderr, work, source)}")
    (work / "signature.json").write_text(
        json.dumps([signature.kernel, signature.params, signature.has_barrier])
    )
    return signature


def _tidy(stderr: str, work: Path, source: Path) -> str:
    lines = (
        stderr.replace(str(work / "kernel.cu"), str(source)).replace("kernel.cu", str(source)).splitlines()
    )
    return "\n".join(lines[:30])


def build(source: str | Path, kernel: str, compiler: Compiler | None = None) -> NativeProgram:
    """Compile `kernel` of the file `source` (cached by source text, compiler and flags)."""
    cc = compiler or find_compiler()
    path = Path(source)
    text = path.read_text()
    key_parts = [cc.path, cc.version, list(cc.flags), header_text(), MAIN, text, kernel]
    key = hashlib.sha256(json.dumps(key_parts).encode()).hexdigest()[:32]
    root = cache_root()
    final = root / key
    if not ((final / "kernel").is_file() and (final / "signature.json").is_file()):
        work = Path(tempfile.mkdtemp(prefix="build-", dir=root))
        try:
            _compile(work, path, kernel, cc)
            try:
                os.rename(work, final)  # atomic; another process may have won the race
            except OSError:
                shutil.rmtree(work, ignore_errors=True)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    name, params, barrier = json.loads((final / "signature.json").read_text())
    sig = Signature(name, tuple((str(n), bool(a)) for n, a in params), bool(barrier))
    return NativeProgram(str(source), final / "kernel", cc, sig)
