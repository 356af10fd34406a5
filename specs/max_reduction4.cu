// expect: verified
// Max-reduction on 4 threads over 8 cells: a[0] ends as the \max of the inputs.
// allow-unknown: cvc5 postcondition:5 postcondition:6 -- cvc5 (the Python package) needs 13-22 s for the data-dependent ite chain of the unrolled rounds under load (z3: under 1 s)
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures a[0] == \max(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
    ensures \forall int j; 0 <= j < 2 * blockDim.x ==> a[0] >= \old(a[j]);
*/
__global__ void max_reduction4(int *a) {
    for (int s = blockDim.x; s > 0; s /= 2) {
        if (threadIdx.x < s && a[threadIdx.x + s] > a[threadIdx.x]) {
            a[threadIdx.x] = a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
