// expect: failed data-race:10
// A shared-write conflict (Fig. 1, E-SASSIGN): three threads write different values to (Race checking reports the conflicting writes as a data race: the race is the point here; the postconditions are still proved.)
// winner[0] and one of them is stored, nondeterministically. The postcondition can only
// say that the cell holds one of the written values. Other cells are untouched.
/*@ requires blockDim.x == 3;
    ensures winner[0] == 10 || winner[0] == 11 || winner[0] == 12;
    ensures winner[1] == \old(winner[1]);
*/
__global__ void write_conflict_disjunction(int *winner) {
    winner[0] = threadIdx.x + 10;
}
