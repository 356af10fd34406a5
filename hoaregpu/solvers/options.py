"""Limits and knobs for every solver call."""

from __future__ import annotations

import math
from dataclasses import dataclass

from hoaregpu.errors import ConfigError
from hoaregpu.limits import DEFAULT_STRATEGIES

__all__ = ["DEFAULT_STRATEGIES", "SolverOptions"]
# DEFAULT_STRATEGIES (in limits, for `--help`): z3's two configurations (macro finder, plain)
# at once: each VC briefly takes two processes, which on a 2-core machine with `--jobs 2`
# makes up to four; most VCs are decided within milliseconds by one of them, and the other is
# then killed.


@dataclass(frozen=True)
class SolverOptions:
    """`timeout`: seconds per VC (> 0); `memory_mb`: address-space cap per worker, None for
    none (> 0); `seed`: random seed handed to every solver (>= 0); `strategies`: how many of a
    solver's configurations run at once on one VC (>= 1; `solvers.strategies`; 1 runs them in
    sequence on shares of the budget); `incremental`: a kernel's VCs in one solver session
    (`solvers.session`) where the backend offers one."""

    timeout: float = 10.0
    memory_mb: int | None = 4096
    seed: int = 0
    strategies: int = DEFAULT_STRATEGIES
    incremental: bool = False  # one solver session per kernel (`solvers.session`)

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
        n = self.strategies
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ConfigError(f"solver strategies must be an integer >= 1, not {n!r}")

    @property
    def timeout_ms(self) -> int:
        """The timeout in whole milliseconds (at least 1), as solvers take it."""
        return max(1, math.ceil(self.timeout * 1000))
