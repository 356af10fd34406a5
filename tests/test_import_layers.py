"""Import layering (issue 14, item 5): `driver` and `interp.replay_cex` share their result
types through `hoaregpu.prepared` and do not import each other to name them; the VC
generator's rule modules import the encoder, never the other way round."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "hoaregpu"


def _imports(path: Path) -> set[str]:
    """Modules a file imports anywhere (module level, functions, TYPE_CHECKING), absolute."""
    package = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[: len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            out.add(name)
            out.update(f"{name}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_replay_does_not_import_the_driver() -> None:
    assert "hoaregpu.driver" not in _imports(ROOT / "interp" / "replay_cex.py")
    assert "hoaregpu.driver" not in _imports(ROOT / "prepared.py")


def test_the_driver_imports_the_replay_only_when_it_replays() -> None:
    code = (
        "import sys, hoaregpu.driver\n"
        "assert 'hoaregpu.interp.replay_cex' not in sys.modules\n"
        "from hoaregpu.driver import KernelResult\n"
        "from hoaregpu.interp.replay_cex import ReplayVerdict\n"
        "from hoaregpu.prepared import KernelResult as K, ReplayVerdict as R\n"
        "assert K is KernelResult and R is ReplayVerdict\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_encoder_does_not_import_vc_generation() -> None:
    for name in ("encode.py", "assign.py", "script.py"):
        bad = {m for m in _imports(ROOT / "smt" / name) if m.startswith("hoaregpu.vc.") and m not in _ALLOWED}
        assert not bad, (name, bad)


# `smt/script.py` prints the hypotheses' paths: it reads their data type, nothing else.
_ALLOWED = {"hoaregpu.vc.goals", "hoaregpu.vc.goals.Hyp", "hoaregpu.vc.goals.unwritten"}
