// expect: failed narrowing:7
// Planted bug: __mul24 uses only the low 24 bits of its operands; `scale` may be 2^24 or more, so the product is not what the kernel means (the check of the operand's range fails).
/*@ requires blockDim.x == 4 && scale >= 0;
    ensures a[tid] == tid * scale; */
__global__ void bug_mul24_operand_too_wide(int *a, int scale) {
  a[threadIdx.x] =
      __mul24(threadIdx.x, scale);
}
