// expect: failed loop-invariant-preserved:9
// allow-unknown: cvc5 loop-invariant-preserved:9 -- cvc5 does not find the counterexample to the stride's invariant within the time limit on a loaded machine (z3 does)
// planted bug: the invariant says i stays below get_global_size, which the stride breaks
__kernel void fill(__global int *a, int n) {
    __requires(get_local_size(0) == 4);
    __requires(get_num_groups(0) == 2);
    __requires(n >= 0);
    for (int i = get_global_id(0);
         __invariant(i < 8),
         i < n; i += get_global_size(0)) {
        a[i] = 7;
    }
}
// allow-unknown: cvc5 loop-invariant-preserved:8 -- the inferred access invariant of the loop (race checking); z3 proves it, cvc5 times out at 20 s
