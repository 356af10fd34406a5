// expect: verified
// A device function with a contract (spec-language §5): `clamp` is verified once on its
// own, and each call uses its contract (the call's `requires` is a VC at the call).
/*@ requires lo <= hi;
    ensures lo <= \result && \result <= hi;
    ensures lo <= x && x <= hi ==> \result == x;
*/
__device__ int clamp(int x, int lo, int hi) {
    int r = x;
    if (r < lo) r = lo;
    if (r > hi) r = hi;
    return r;
}

/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    requires 0 <= m;
    ensures \forall int k; 0 <= k < 8 ==> 0 <= out[k] && out[k] <= m;
    ensures \forall int k; 0 <= k < 8 && 0 <= \old(in[k]) && \old(in[k]) <= m ==> out[k] == \old(in[k]);
*/
__global__ void device_contract(const int *in, int *out, int m) {
    out[threadIdx.x] = clamp(in[threadIdx.x], 0, m);
}
