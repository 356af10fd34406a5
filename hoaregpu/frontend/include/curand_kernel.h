/* hoaregpu: stand-in for <curand_kernel.h>. The generators' states are structs hoaregpu does
   not look into, and the functions are declared without a body: hoaregpu takes each call's
   value as arbitrary and the state it is given as changed arbitrarily (README, "Calls and
   intrinsics"). Sound for any generator; nothing is known of the numbers' distribution. */
#pragma once
typedef struct curandStateXORWOW { unsigned int d, v[5]; } curandStateXORWOW_t;
typedef curandStateXORWOW_t curandState_t;
typedef curandStateXORWOW_t curandState;
typedef struct curandStateMtgp32 { unsigned int s[4]; } curandStateMtgp32_t;
typedef struct curandStatePhilox4_32_10 { unsigned int c[4]; } curandStatePhilox4_32_10_t;
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, curandState_t *state);
__device__ void curand_init(unsigned long long seed, unsigned long long subsequence,
                            unsigned long long offset, curandStatePhilox4_32_10_t *state);
__device__ unsigned int curand(curandState_t *state);
__device__ unsigned int curand(curandStateMtgp32_t *state);
__device__ unsigned int curand(curandStatePhilox4_32_10_t *state);
__device__ float curand_uniform(curandState_t *state);
__device__ float curand_uniform(curandStateMtgp32_t *state);
__device__ float curand_uniform(curandStatePhilox4_32_10_t *state);
__device__ float curand_normal(curandState_t *state);
__device__ double curand_uniform_double(curandState_t *state);
