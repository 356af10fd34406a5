// expect: failed postcondition:4
// planted bug: a __local pointer parameter starts with unknown contents (the host cannot fill local memory); reading before writing gives garbage
/*@ requires blockDim.x == 4 && gridDim.x == 1;
    ensures \forall int i; 0 <= i && i < 4 ==> out[i] == 0; */
__kernel void pairs(__global int *out, __local int *scratch) {
    int lid = get_local_id(0);
    out[lid] = scratch[lid];
}
