// expect: verified
// OpenCL: a __local pointer parameter is per-work-group scratch memory of unknown contents; written, then read after barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
/*@ requires blockDim.x == 4 && gridDim.x == 3;
    ensures \forall int i; 0 <= i && i < 12 ==> out[i] == 2 * in[i ^ 1]; */
__kernel void pairs(__global int *in, __global int *out, __local int *scratch) {
    int lid = get_local_id(0);
    scratch[lid] = 2 * in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[lid ^ 1];
}
