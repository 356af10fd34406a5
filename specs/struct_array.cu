// expect: verified
// Structs flattened field by field: an array of structs in global memory, a nested
// struct, a struct copied into a local and into shared memory, p->f, and fields in formulas.
struct Vec { int x; int y; };
struct Particle { Vec pos; Vec vel; int hits[2]; };
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> ps[j].pos.x == \old(ps[j].pos.x) + \old(ps[j].vel.x);
    ensures \forall int j; 0 <= j < 4 ==> ps[j].pos.y == \old(ps[j].pos.y) + \old(ps[j].vel.y);
    ensures \forall int j; 0 <= j < 4 ==> ps[j].hits[1] == \old(ps[j].hits[0]);
    ensures first->x == \old(ps[0].pos.x);
*/
__global__ void struct_array(Particle *ps, Vec *first) {
    __shared__ Particle tile[4];
    Particle p = ps[threadIdx.x];
    tile[threadIdx.x] = p;
    __syncthreads();
    if (threadIdx.x == 0) {
        first[0] = tile[0].pos;
    }
    p.pos.x += p.vel.x;
    p.pos.y = p.pos.y + tile[threadIdx.x].vel.y;
    p.hits[1] = p.hits[0];
    ps[threadIdx.x] = p;
}
