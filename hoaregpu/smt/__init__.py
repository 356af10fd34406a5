"""SMT-LIB 2 text for hoaregpu's verification conditions: writing scripts and reading them back."""

from hoaregpu.smt.smtlib import SMTLIB_LOGIC, ParsedScript, read_script, script_text

__all__ = ["SMTLIB_LOGIC", "ParsedScript", "read_script", "script_text"]
