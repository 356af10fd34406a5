"""Verification conditions: weakest preconditions over the quadruple rules of Fig. 2."""
