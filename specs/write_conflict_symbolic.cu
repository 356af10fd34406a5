// expect: failed data-race:10
// Shared-write conflicts for any thread count: every thread writes 2*tid to winner[0] (Race checking reports the winner[0] writes as a data race, the point here; the same-value flag[0] writes are tolerated; the postconditions are still proved.)
// (some thread's value is stored), and every thread writes the same value to flag[0]
// (a benign conflict: the value is known exactly).
/*@ ensures \exists int t; 0 <= t < blockDim.x && winner[0] == 2 * t;
    ensures 0 <= winner[0] && winner[0] < 2 * blockDim.x;
    ensures flag[0] == 1;
*/
__global__ void write_conflict_symbolic(int *winner, int *flag) {
    winner[0] = 2 * threadIdx.x;
    flag[0] = 1;
}
// allow-unknown: cvc5 data-race:10 -- the race between the two blocks of an open grid (the kernel reads no block index); z3 refutes it, cvc5 finds no model in 20 s. (`requires gridDim.x == 1;` would avoid it, but its trivial `1 == 1` hypothesis leaves z3 undecided on postcondition:5)
