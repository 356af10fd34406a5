// expect: failed postcondition:4
// planted bug: get_group_id * get_local_size + get_local_id with the group and the size of the wrong... the offset forgets the work-group (two work-groups write cells 0..3)
/*@ requires blockDim.x == 4 && gridDim.x == 2;
    ensures \forall int i; 0 <= i && i < 8 ==> c[i] == a[i] + b[i]; */
__kernel void vector_add(__global const int *a, __global const int *b, __global int *c) {
    size_t i = get_local_id(0);
    c[i] = a[i] + b[i];
}
