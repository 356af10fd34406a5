// expect: verified
// Every thread adds 1 to one counter: correct only because atomics serialise; the encoding over-approximates updates of a cell several threads address, so the exact total is undecided (never refuted without execution confirming it); what holds for any values is proved.
// allow-unknown: z3,cvc5 postcondition:5 -- the total needs the serialised sum of the threads' updates, which the over-approximation of a shared cell does not keep
/*@ requires blockDim.x == 4;
    ensures count[0] == \old(count[0]) + 4;
    ensures other[0] == \old(other[0]); */
__global__ void atomic_shared_counter(int *count, int *other) {
  atomicAdd(&count[0], 1);
}
