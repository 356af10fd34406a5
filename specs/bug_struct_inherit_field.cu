// expect: failed postcondition:9
// Planted bug: struct_inherit.cu adding the mass to the base's field y instead of x.
// (A field of a base mixed up with another: the flattened fields stay distinct.)
struct Base { int id; };
struct Point : Base { int x, y; };
struct Particle : Point { int mass; };

/*@ requires blockDim.x == 4;
    ensures \forall int t; 0 <= t < 4 ==> q[t].id == \old(p[t].id) && q[t].x == \old(p[t].x) + \old(p[t].mass);
*/
__global__ void bug_struct_inherit_field(const Particle *p, Point *q) {
    Particle mine = p[threadIdx.x];
    Point pt = mine;
    pt.x = pt.y + mine.mass;
    q[threadIdx.x] = pt;
}
