// expect: verified
// OpenCL: __kernel, __global pointers, get_global_id over two work-groups of 4 work-items (a contract in our annotation language)
/*@ requires blockDim.x == 4 && gridDim.x == 2;
    ensures \forall int i; 0 <= i && i < 8 ==> c[i] == a[i] + b[i]; */
__kernel void vector_add(__global const int *a, __global const int *b, __global int *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
