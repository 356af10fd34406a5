// expect: failed postcondition:8 data-race:11
// Planted bug: the same conflicting write as write_conflict_disjunction.cu, but the second (Race checking also reports the conflicting writes as a data race.)
// postcondition claims a specific winner (the last thread). Any of the three writes may be
// the one stored, so it is refuted (e.g. thread 0 wins, winner[0] == 10).
/*@ requires blockDim.x == 3;
    ensures winner[0] >= 10;
    ensures winner[0] <= 12;
    ensures winner[0] == 12;
*/
__global__ void write_conflict_wrong_winner(int *winner) {
    winner[0] = threadIdx.x + 10;
}
