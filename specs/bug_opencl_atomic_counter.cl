// expect: failed postcondition:6
// Planted bug: the counter claims one work-group's increments (4), but two work-groups of 4 run atomic_inc: 8
__kernel void bug_opencl_atomic_counter(__global int *up, __global int *down) {
    __requires(get_local_size(0) == 4); __requires(get_local_size(1) == 1); __requires(get_local_size(2) == 1);
    __requires(get_num_groups(0) == 2); __requires(get_num_groups(1) == 1); __requires(get_num_groups(2) == 1);
    __ensures(up[0] == __old_int(up[0]) + 4);
    __ensures(down[0] == __old_int(down[0]) - 8);
    atomic_inc(&up[0]);
    atomic_dec(down);
}
