"""Defaults that the command line shows in its help and the pipeline uses, in a module
without imports: `hoaregpu --help` must not load the pipeline to print them."""

DEFAULT_UNROLL = 64  # iterations of one loop; `--unroll N` changes it, 0 turns unrolling off
DEFAULT_STEP_BUDGET = 1_000_000  # lockstep steps of one `run`
TEST_STEP_BUDGET = 200_000  # lockstep steps of each run of `test`
LOCKSTEP = "lockstep"  # the interpreters' semantics (`run --semantics`)
INTERLEAVE = "interleave"
DEFAULT_STRATEGIES = 2  # solver configurations at once per VC (`--strategies`; hoaregpu.solvers.strategies)
