// expect: verified
// Same-value writes are tolerated (paper Def. 5.4(b), GPUVerify's default): every thread sets flag[0] = 1.
/*@ requires blockDim.x == 4;
    ensures flag[0] == 1;
*/
__global__ void benign_same_value(int *flag) {
    flag[0] = 1;
}
