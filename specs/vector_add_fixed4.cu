// expect: verified
// Paper §3.3.1 vector addition, thread count fixed to 4: thread t handles the indices
// t, t+4, t+8, ... With the count fixed, `k % 4` is linear arithmetic.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
*/
__global__ void vector_add_fixed4(int *a, int *b, int *c, int n) {
    int k = threadIdx.x;
    /*@ loop invariant k % 4 == threadIdx.x;
        loop invariant k >= threadIdx.x;
        loop invariant \forall int j; 0 <= j < n && j % 4 == threadIdx.x && j < k ==> c[j] == a[j] + b[j];
    */
    while (k < n) {
        c[k] = a[k] + b[k];
        k = k + blockDim.x;
    }
}
