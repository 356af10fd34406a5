"""Hermetic tests: the result cache never touches the working tree."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path_factory.mktemp("hoaregpu-cache")
    monkeypatch.setenv("HOAREGPU_CACHE_DIR", str(path))
    return path
