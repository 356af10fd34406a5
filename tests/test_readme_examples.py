"""README.md's examples run as written: every ```python block is executed from the
repository's root (the paths it names are the repository's), and each
`print(...)  # -> out` line must print what its comment says (`...` matches anything;
other comments describe). The cluster recipe of the Dask section (`dask scheduler`,
`dask worker`, `--scheduler`) is run on this machine with the real `dask` command line."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)
_PRINT = re.compile(r"^(\s*)print\((.*)\)\s+#\s*->\s*(.*)$")


def _checked(block: str) -> str:
    """`print(args)  # -> out` → `_check("out", args)`; other lines unchanged."""
    out = []
    for line in block.splitlines():
        m = _PRINT.match(line)
        out.append(f"{m[1]}_check({m[3]!r}, {m[2]})" if m else line)
    return "\n".join(out)


def _check(expected: str, *values: Any) -> None:
    printed = " ".join(str(v) for v in values)
    pattern = ".*".join(re.escape(part.strip()) for part in expected.split("..."))
    assert re.fullmatch(pattern, printed.strip(), re.S), f"printed {printed!r}, README says {expected!r}"


def test_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 3  # the API, running and proving, and Dask
    assert any("executor=" in b for b in BLOCKS)
    assert sum(bool(_PRINT.match(line)) for b in BLOCKS for line in b.splitlines()) >= 8


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_python_block_runs_as_written(
    index: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block = BLOCKS[index]
    if "executor=" in block:
        pytest.importorskip("distributed", reason="the Dask example needs `pip install '.[dask]'`")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("HOAREGPU_CACHE_DIR", str(tmp_path / "cache"))
    # the examples write their proofs to /tmp; here to this test's own folder
    code = _checked(block).replace('"/tmp/', f'"{tmp_path}/')
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(code, f"README.md python block {index + 1}", "exec"), {"_check": _check})


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def real_cluster(tmp_path: Path) -> Iterator[str]:
    """`dask scheduler` and `dask worker` as the README starts them, on this machine."""
    pytest.importorskip("distributed", reason="the cluster recipe needs `pip install '.[dask]'`")
    dask = shutil.which("dask", path=str(Path(sys.executable).parent)) or shutil.which("dask")
    if dask is None:
        pytest.skip("no `dask` command line next to this Python")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    logs = [open(tmp_path / f"{name}.log", "w") for name in ("scheduler", "worker")]  # noqa: SIM115
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the workers import this hoaregpu
    scheduler = subprocess.Popen(
        [dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
        stdout=logs[0],
        stderr=subprocess.STDOUT,
        env=env,
    )
    worker = subprocess.Popen(
        [dask, "worker", address, "--nthreads", "2", "--nworkers", "1", "--no-dashboard"],
        stdout=logs[1],
        stderr=subprocess.STDOUT,
        env=env,
    )
    try:
        yield address
    finally:
        for p in (worker, scheduler):
            p.terminate()
        for p in (worker, scheduler):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        for f in logs:
            f.close()


def test_readme_cluster_recipe_on_a_real_scheduler_and_worker(real_cluster: str, tmp_path: Path) -> None:
    assert "dask scheduler --port 8786" in README and "--executor dask --scheduler tcp://" in README
    command = [sys.executable, "-m", "hoaregpu", "verify", "specs/bug_off_by_one.cu", "specs/c_division.cu"]
    command += ["--executor", "dask", "--scheduler", real_cluster, "--json"]
    env = {**os.environ, "HOAREGPU_CACHE_DIR": str(tmp_path / "cache")}
    start = time.monotonic()
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 1, out.stderr  # the planted bug is refuted on the cluster
    assert '"refuted"' in out.stdout and '"postcondition"' in out.stdout
    assert time.monotonic() - start < 600
