"""`hoaregpu solvers`: the solver backends, their versions and availability."""

from __future__ import annotations

import argparse


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("solvers", help="list the solver backends, their versions and availability")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..solvers import list_backends

    for b in list_backends():
        state = "available" if b.available else f"unavailable ({b.reason})"
        print(f"{b.name:10} {b.version or '-':24} {state}")
    return 0
