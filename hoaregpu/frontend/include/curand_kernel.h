/* hoaregpu: stand-in for <curand_kernel.h> (README, "Calls and intrinsics").

   Each function has a body that touches the generator state as cuRAND's own implementation
   does: the same fields and cells, read and written by the same threads, with the same
   barriers (MTGP32). Every *value* is unknown: what a call returns and what it stores (except
   the constants cuRAND itself stores, such as the Box-Muller flags) comes from
   __hoaregpu_arbitrary_*(), a fresh value per call and thread that touches no memory. So a
   proof holds whatever numbers the generator yields (nothing is claimed about them), and a
   race on a state is judged on the cells the real code accesses: threads sharing one XORWOW
   state race, threads using `&state[tid]` do not. Fields that are float/double in cuRAND
   (boxmuller_extra, boxmuller_extra_double) are integers here, since hoaregpu has no float
   struct fields; only their accesses matter. */
#pragma once

/* ------------------------------------------------------------------ XORWOW (the default) */

typedef struct curandStateXORWOW {
  unsigned int d, v[5];
  int boxmuller_flag;
  int boxmuller_flag_double;
  unsigned int boxmuller_extra;                /* float in cuRAND */
  unsigned long long boxmuller_extra_double;   /* double in cuRAND */
} curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandStateXORWOW_t curandState;

/* cuRAND: every field is set from the seed; skipping ahead (by `subsequence`, then `offset`)
   reads v[0..4] and writes them back (unconditionally in the versions that copy them to a
   scratch vector, when the count is non-zero in the in-place ones: the union is modelled) and
   adds to d; then the Box-Muller fields are cleared. Within one barrier interval only which
   cells a thread reads and which it writes matter to races (another thread's access races
   with either, in whatever order they come), so each cell is read once and written once. */
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, curandStateXORWOW_t *state) {
  unsigned int v0 = state->v[0], v1 = state->v[1], v2 = state->v[2], v3 = state->v[3],
               v4 = state->v[4], d = state->d;
  state->d = __hoaregpu_arbitrary_uint();
  state->v[0] = __hoaregpu_arbitrary_uint();
  state->v[1] = __hoaregpu_arbitrary_uint();
  state->v[2] = __hoaregpu_arbitrary_uint();
  state->v[3] = __hoaregpu_arbitrary_uint();
  state->v[4] = __hoaregpu_arbitrary_uint();
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0;
  state->boxmuller_extra_double = 0;
}

/* cuRAND: reads v[0..4] and d, shifts v down one place (v[4] computed from v[0] and v[4]),
   steps d, and returns a function of v[4] and d. */
__device__ unsigned int curand(curandStateXORWOW_t *state) {
  unsigned int v0 = state->v[0], v1 = state->v[1], v2 = state->v[2], v3 = state->v[3],
               v4 = state->v[4], d = state->d;
  state->v[0] = __hoaregpu_arbitrary_uint();
  state->v[1] = __hoaregpu_arbitrary_uint();
  state->v[2] = __hoaregpu_arbitrary_uint();
  state->v[3] = __hoaregpu_arbitrary_uint();
  state->v[4] = __hoaregpu_arbitrary_uint();
  state->d = __hoaregpu_arbitrary_uint();
  return __hoaregpu_arbitrary_uint();
}

/* cuRAND: one curand(), scaled into (0, 1] */
__device__ float curand_uniform(curandStateXORWOW_t *state) {
  curand(state);
  return __hoaregpu_arbitrary_float();
}

/* cuRAND: two curand()s */
__device__ double curand_uniform_double(curandStateXORWOW_t *state) {
  curand(state);
  curand(state);
  return __hoaregpu_arbitrary_double();
}

/* cuRAND (Box-Muller, one result kept for the next call): when the flag says no result is
   kept, two curand()s, the spare stored and the flag set; otherwise the flag cleared and the
   spare read */
__device__ float curand_normal(curandStateXORWOW_t *state) {
  if (state->boxmuller_flag != 1) {
    curand(state);
    curand(state);
    state->boxmuller_extra = __hoaregpu_arbitrary_uint();
    state->boxmuller_flag = 1;
  } else {
    state->boxmuller_flag = 0;
    unsigned int extra = state->boxmuller_extra;
  }
  return __hoaregpu_arbitrary_float();
}

/* ------------------------------------------------------------------ MTGP32 (11213) */

/* cuRAND's state also holds `mtgp32_kernel_params_t *k`, the parameter tables (read only);
   its one use here, the table entry `pos`, is modelled below. */
typedef struct curandStateMtgp32 {
  unsigned int s[1024];
  int offset;
  int pIdx;
} curandStateMtgp32_t;

/* cuRAND: one number per thread of the block (at most 256 threads, which the generator
   requires): thread t (cuRAND's linear id, below) reads s at t + offset, + 1, + pos and
   + pos - 1 and writes s at t + offset + 351 (all modulo 1024), the block synchronises,
   thread 0 advances offset by the block's size, the block synchronises again. `pos` is
   state->k->pos_tbl[state->pIdx], a parameter of the set: 3 <= pos <= 94 (cuRAND's
   curand_mtgp32.h documents 3 < pos < 95 for this set, i.e. 351 minus 256; the 200 sets of
   the MTGP reference table mtgp32dc-param-11213.c lie in 3..93). Then the 256 threads' reads
   (t + pos <= 349) never meet their writes (t + 351 >= 351). */
__device__ unsigned int curand(curandStateMtgp32_t *state) {
  int size = blockDim.z * blockDim.y * blockDim.x;
  /* cuRAND's own formula (with blockDim.z where blockDim.x would be expected) */
  int t = blockDim.z * blockDim.y * threadIdx.z + blockDim.x * threadIdx.y + threadIdx.x;
  int set = state->pIdx;
  int pos = 3 + __hoaregpu_arbitrary_uint() % 92;
  int offset = state->offset;
  unsigned int x1 = state->s[(t + offset) & 1023];
  unsigned int x2 = state->s[(t + offset + 1) & 1023];
  unsigned int y = state->s[(t + offset + pos) & 1023];
  state->s[(t + offset + 351) & 1023] = __hoaregpu_arbitrary_uint();
  unsigned int temper = state->s[(t + offset + pos - 1) & 1023];
  __syncthreads();
  if (t == 0) {
    int old = state->offset;
    state->offset = __hoaregpu_arbitrary_int() & 1023;
  }
  __syncthreads();
  return __hoaregpu_arbitrary_uint();
}

/* cuRAND: one curand(), scaled into (0, 1] */
__device__ float curand_uniform(curandStateMtgp32_t *state) {
  curand(state);
  return __hoaregpu_arbitrary_float();
}

/* ------------------------------------------------------------------ Philox4_32_10 */

typedef struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  int boxmuller_flag;
  int boxmuller_flag_double;
  unsigned int boxmuller_extra;                /* float in cuRAND */
  unsigned long long boxmuller_extra_double;   /* double in cuRAND */
} curandStatePhilox4_32_10_t;

/* cuRAND: the four output words computed from the counter and the key */
__device__ void __hoaregpu_philox_output(curandStatePhilox4_32_10_t *state) {
  unsigned int c0 = state->ctr.x, c1 = state->ctr.y, c2 = state->ctr.z, c3 = state->ctr.w;
  unsigned int k0 = state->key.x, k1 = state->key.y;
  state->output.x = __hoaregpu_arbitrary_uint();
  state->output.y = __hoaregpu_arbitrary_uint();
  state->output.z = __hoaregpu_arbitrary_uint();
  state->output.w = __hoaregpu_arbitrary_uint();
}

/* cuRAND: a carry into ctr.z, and on its overflow into ctr.w */
__device__ void __hoaregpu_philox_carry_zw(curandStatePhilox4_32_10_t *state) {
  unsigned int z = state->ctr.z;
  unsigned int z1 = __hoaregpu_arbitrary_uint();
  state->ctr.z = z1;
  if (z1 == 0) {
    unsigned int w = state->ctr.w;
    state->ctr.w = __hoaregpu_arbitrary_uint();
  }
}

/* cuRAND: the counter set to 0, the key from the seed, the other fields cleared; skipping
   `subsequence` adds to ctr.z and ctr.w, skipping `offset` steps STATE (taking 4 off it when it
   passes 3) and adds to ctr.x and ctr.y, carrying into ctr.z and then ctr.w on overflow; each
   skip recomputes the output words. */
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, curandStatePhilox4_32_10_t *state) {
  state->ctr.x = 0;
  state->ctr.y = 0;
  state->ctr.z = 0;
  state->ctr.w = 0;
  state->key.x = __hoaregpu_arbitrary_uint();
  state->key.y = __hoaregpu_arbitrary_uint();
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0;
  state->boxmuller_extra_double = 0;
  unsigned int z = state->ctr.z;
  state->ctr.z = __hoaregpu_arbitrary_uint();
  unsigned int w = state->ctr.w;
  state->ctr.w = __hoaregpu_arbitrary_uint();
  __hoaregpu_philox_output(state);
  unsigned int lane = state->STATE;
  state->STATE = __hoaregpu_arbitrary_uint();
  if (state->STATE > 3) {
    state->STATE = __hoaregpu_arbitrary_uint();
  }
  unsigned int x = state->ctr.x;
  state->ctr.x = __hoaregpu_arbitrary_uint();
  unsigned int y = state->ctr.y;
  unsigned int carry = __hoaregpu_arbitrary_uint();
  state->ctr.y = carry;
  if (__hoaregpu_arbitrary_uint() == 0) { /* `nhi > ctr.y`: the carry goes on */
    __hoaregpu_philox_carry_zw(state);
  }
  __hoaregpu_philox_output(state);
}

/* cuRAND: STATE stepped; the output word it named returned; after the fourth, the counter
   incremented (ctr.x, carrying into ctr.y, ctr.z, ctr.w on overflow), the output recomputed
   and STATE reset to 0 */
__device__ unsigned int curand(curandStatePhilox4_32_10_t *state) {
  unsigned int lane = state->STATE;
  unsigned int next = __hoaregpu_arbitrary_uint();
  state->STATE = next;
  unsigned int word;
  if (lane == 1) {
    word = state->output.y;
  } else if (lane == 2) {
    word = state->output.z;
  } else if (lane == 3) {
    word = state->output.w;
  } else {
    word = state->output.x;
  }
  if (state->STATE == 4) {
    unsigned int x = state->ctr.x;
    unsigned int x1 = __hoaregpu_arbitrary_uint();
    state->ctr.x = x1;
    if (x1 == 0) {
      unsigned int y = state->ctr.y;
      unsigned int y1 = __hoaregpu_arbitrary_uint();
      state->ctr.y = y1;
      if (y1 == 0) {
        __hoaregpu_philox_carry_zw(state);
      }
    }
    __hoaregpu_philox_output(state);
    state->STATE = 0;
  }
  return __hoaregpu_arbitrary_uint();
}

/* cuRAND: one curand(), scaled into (0, 1] */
__device__ float curand_uniform(curandStatePhilox4_32_10_t *state) {
  curand(state);
  return __hoaregpu_arbitrary_float();
}
