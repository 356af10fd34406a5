"""Subcommands of the `hoaregpu` CLI: each module has `register(subparsers)`.

`register` adds a subparser and sets `func=run`, where `run(args) -> int` returns the
exit code. Errors derived from `HoareGpuError` are turned into messages by `cli.main`.
"""
