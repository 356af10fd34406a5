// expect: failed postcondition:7
// planted bug: the table's last weight is 9, not 8 (the __constant initialiser is read exactly)
__constant int weights[4] = {1, 2, 4, 9};

__kernel void weigh(__global int *out) {
    __requires(get_local_size(0) == 4);
    __ensures(out[get_local_id(0)] == 1 << get_local_id(0));
    out[get_local_id(0)] = weights[get_local_id(0)];
}
