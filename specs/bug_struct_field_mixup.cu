// expect: failed postcondition:7
// planted bug: the update adds the velocity's y to the position's x (fields mixed up);
// the clause about y holds, the one about x does not.
struct Vec { int x; int y; };
struct Particle { Vec pos; Vec vel; };
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> ps[j].pos.x == \old(ps[j].pos.x) + \old(ps[j].vel.x);
    ensures \forall int j; 0 <= j < 4 ==> ps[j].pos.y == \old(ps[j].pos.y) + \old(ps[j].vel.y);
*/
__global__ void bug_struct_field_mixup(Particle *ps) {
    Particle p = ps[threadIdx.x];
    p.pos.x += p.vel.y;
    p.pos.y += p.vel.y;
    ps[threadIdx.x] = p;
}
