// Test data: `x <= 1` is true at every loop head (x stays 0) but not inductive (x = 1 -> 2),
// so preservation and the postcondition are refuted while no run from the initial state fails.
/*@ requires gridDim.x == 1; requires blockDim.x == 1;
    ensures out[0] == 0;
*/
__global__ void weak(int *out) {
    int i = 0;
    int x = 0;
    /*@ loop invariant 0 <= i && i <= 4;
        loop invariant x <= 1;
    */
    while (i < 4) {
        x = x + x;
        i = i + 1;
    }
    out[0] = x;
}
