// expect: verified
// CUDA intrinsics: __mul24 is the product where both operands fit in 24 bits (checked), warpSize is 32, min/max/abs on integers, __threadfence() a no-op under race-freedom.
/*@ requires blockDim.x == 64;
    ensures a[2 * tid] == 2 * tid;
    ensures lanes[tid] == tid % 32; */
__global__ void intrinsics_mul24_warpsize(int *a, int *lanes) {
  int i = __mul24(threadIdx.x, 2);
  a[i] = max(min(i, 126), abs(-i));
  __threadfence();
  lanes[threadIdx.x] = threadIdx.x % warpSize;
}
// allow-unknown: cvc5 data-race:10 -- the race VC over __mul24 indices (nonlinear); z3 proves it, cvc5 times out at 20 s
