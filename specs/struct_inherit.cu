// expect: verified
// A struct with base classes: `Particle : Point : Base` holds the bases' fields first, under
// their own names (`p[i].id` is Base's field); a copy into a base object takes the base part.
struct Base { int id; };
struct Point : Base { int x, y; };
struct Particle : Point { int mass; };

/*@ requires blockDim.x == 4;
    ensures \forall int t; 0 <= t < 4 ==> q[t].id == \old(p[t].id) && q[t].x == \old(p[t].x) + \old(p[t].mass);
*/
__global__ void struct_inherit(const Particle *p, Point *q) {
    Particle mine = p[threadIdx.x];
    Point pt = mine;
    pt.x = pt.x + mine.mass;
    q[threadIdx.x] = pt;
}
