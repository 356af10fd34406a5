"""The `hoaregpu` command line: argument parsing and error-to-exit-code handling."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from . import __version__
from .commands import bench, check, lsp, prove, run, solvers, suite, test, verify
from .commands.common import EXIT_CODES, EXIT_INPUT, EXIT_INTERNAL
from .errors import HoareGpuError, SpecError

COMMANDS = (verify, run, test, solvers, bench, prove, check, lsp, suite)
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a tool killed by a closed pipe


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hoaregpu",
        description="Prove CUDA kernels correct with the Hoare-quadruple logic of Kojima & Igarashi.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hoaregpu {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: usage errors exit 2; ours are input errors (3)
        return EXIT_INPUT if e.code == 2 else int(e.code or 0)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        code = func(args)
        if not sys.stdout.closed:  # (the language server closes it when the client goes)
            sys.stdout.flush()  # a closed pipe shows up here, not in the interpreter's exit flush
        return code
    except BrokenPipeError:
        # `hoaregpu verify specs/ | head -1`: the reader is gone. Stop quietly with the code
        # of a process killed by SIGPIPE, as other command-line tools do.
        _drop_stdout()
        return EXIT_BROKEN_PIPE
    except SpecError as e:
        print(e.render(), file=sys.stderr)
        return EXIT_INPUT
    except HoareGpuError as e:
        print(f"hoaregpu: error: {e}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("hoaregpu: interrupted", file=sys.stderr)
        return 130
    except Exception as e:  # a bug in hoaregpu, not in the input: say so, never a bare traceback
        if os.environ.get("HOAREGPU_DEBUG"):
            raise
        print(
            f"hoaregpu: internal error: {type(e).__name__}: {e}\n"
            "This is a bug in hoaregpu, not in your input; rerun with HOAREGPU_DEBUG=1 for the "
            "traceback and report it.",
            file=sys.stderr,
        )
        return EXIT_INTERNAL


def _drop_stdout() -> None:
    """Point stdout at /dev/null: Python flushes it at exit, which would fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (captured in tests): nothing to flush
        pass


if __name__ == "__main__":
    sys.exit(main())
