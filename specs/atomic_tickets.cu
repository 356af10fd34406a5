// expect: verified
// Tickets: each thread's atomicAdd on one counter returns a distinct old value. The counter's total is proved; the tickets themselves are over-approximated (threads share the cell), so the claim about the slots is undecided, never refuted without execution confirming it.
// allow-unknown: z3,cvc5 postcondition:6 data-race:9 -- each thread's ticket depends on the order of the updates, which the encoding leaves arbitrary where threads share a cell (so the distinct tickets that make the slot writes race-free are not known either)
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1 && next[0] == 0;
    ensures next[0] == 4;
    ensures \forall int j; 0 <= j < 4 ==> 0 <= slot[j] && slot[j] < 4; */
__global__ void atomic_tickets(unsigned int *next, int *slot) {
  unsigned int t = atomicAdd(&next[0], 1);
  slot[t] = threadIdx.x;
}
