// expect: failed postcondition:4
// Planted bug: claims `x & y == x`; the counterexample goes through the uninterpreted `&`, so it counts only because running it confirms it.
/*@ requires x >= 0 && y >= 0;
    ensures r == x;
*/
__global__ void bug_bitand_variables(int x, int y) {
    int r = x & y;
}
