"""Limits and knobs for every solver call."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hoaregpu.errors import ConfigError


@dataclass(frozen=True)
class SolverOptions:
    """`timeout`: seconds per VC (> 0); `memory_mb`: address-space cap per worker, None for
    none (> 0); `seed`: random seed handed to every solver (>= 0)."""

    timeout: float = 10.0
    memory_mb: int | None = 4096
    seed: int = 0

    def __post_init__(self) -> None:
        timeout = self.timeout
        if isinstance(timeout, bool) or not isinstance(timeout, int | float):
            raise ConfigError(f"solver timeout must be a number of seconds, not {timeout!r}")
        if not math.isfinite(timeout) or timeout <= 0:
            raise ConfigError(f"solver timeout must be a positive number of seconds, not {timeout!r}")
        memory = self.memory_mb
        if memory is not None and (isinstance(memory, bool) or not isinstance(memory, int) or memory <= 0):
            raise ConfigError(f"solver memory limit must be a positive number of MB or none, not {memory!r}")
        seed = self.seed
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ConfigError(f"solver seed must be an integer >= 0, not {seed!r}")

    @property
    def timeout_ms(self) -> int:
        """The timeout in whole milliseconds (at least 1), as solvers take it."""
        return max(1, math.ceil(self.timeout * 1000))
