/* hoaregpu's CUDA prelude: the builtins a kernel uses, as device-side declarations, so
   that Clang can parse and type kernels without the CUDA headers. What they mean is
   decided by hoaregpu (hoaregpu/frontend/translate.py), never by these declarations. */
#pragma once
/* a system header: `clang.in_file` tells the prelude's declarations apart with one query */
#pragma clang system_header
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __forceinline__ __attribute__((always_inline))
#define __restrict__ __restrict
#define __align__(n) __attribute__((aligned(n)))
typedef unsigned long size_t;
#define __HG_VEC(t, n) struct n##2 { t x, y; }; struct n##3 { t x, y, z; }; struct n##4 { t x, y, z, w; };
__HG_VEC(int, int) __HG_VEC(unsigned int, uint) __HG_VEC(float, float) __HG_VEC(char, char)
__HG_VEC(unsigned char, uchar) __HG_VEC(short, short) __HG_VEC(double, double)
#undef __HG_VEC
struct dim3 { unsigned int x, y, z; __host__ __device__ dim3(unsigned int x = 1, unsigned int y = 1, unsigned int z = 1) : x(x), y(y), z(z) {} };
extern const __device__ uint3 threadIdx, blockIdx;
extern const __device__ struct dim3 blockDim, gridDim;
extern const __device__ int warpSize;
/* The paper's names for threadIdx.x and blockDim.x; a C variable of the same name shadows them. */
extern const __device__ unsigned int tid, ntid;
extern __device__ void __syncthreads(void);

/* Device functions that kernels call. Declared so that Clang accepts the kernel and
   hoaregpu can name the call as unsupported (rather than as an unknown identifier). */
#define __HG_ATOMIC(name) \
  extern __device__ int name(int *, int); \
  extern __device__ unsigned int name(unsigned int *, unsigned int); \
  extern __device__ unsigned long long name(unsigned long long *, unsigned long long); \
  extern __device__ float name(float *, float);
__HG_ATOMIC(atomicAdd) __HG_ATOMIC(atomicSub) __HG_ATOMIC(atomicExch) __HG_ATOMIC(atomicMin)
__HG_ATOMIC(atomicMax) __HG_ATOMIC(atomicAnd) __HG_ATOMIC(atomicOr) __HG_ATOMIC(atomicXor)
__HG_ATOMIC(atomicInc) __HG_ATOMIC(atomicDec)
#undef __HG_ATOMIC
extern __device__ int atomicCAS(int *, int, int);
extern __device__ unsigned int atomicCAS(unsigned int *, unsigned int, unsigned int);
extern __device__ unsigned long long atomicCAS(unsigned long long *, unsigned long long, unsigned long long);
#define __HG_SHFL(name) \
  extern __device__ int name(int, int, int = 32); \
  extern __device__ unsigned int name(unsigned int, int, int = 32); \
  extern __device__ float name(float, int, int = 32); \
  extern __device__ int name##_sync(unsigned int, int, int, int = 32); \
  extern __device__ unsigned int name##_sync(unsigned int, unsigned int, int, int = 32); \
  extern __device__ float name##_sync(unsigned int, float, int, int = 32);
__HG_SHFL(__shfl) __HG_SHFL(__shfl_up) __HG_SHFL(__shfl_down) __HG_SHFL(__shfl_xor)
#undef __HG_SHFL
extern __device__ void __syncwarp(unsigned int = 0xffffffff);
extern __device__ int __syncthreads_count(int);
extern __device__ int __syncthreads_and(int);
extern __device__ int __syncthreads_or(int);
extern __device__ void __threadfence(void);
extern __device__ void __threadfence_block(void);
extern __device__ unsigned int __ballot_sync(unsigned int, int);
extern __device__ int __any_sync(unsigned int, int);
extern __device__ int __all_sync(unsigned int, int);
extern __device__ int __popc(unsigned int);
extern __device__ int __clz(int);
extern __device__ int __ffs(int);
extern __device__ int __mul24(int, int);
extern __device__ unsigned int __umul24(unsigned int, unsigned int);
extern "C" __device__ int printf(const char *, ...);
/* Texture references (read-only memory the host fills): a fetch is taken as an arbitrary value
   of the texel type (hoaregpu/frontend/calls.py). */
enum cudaTextureReadMode { cudaReadModeElementType, cudaReadModeNormalizedFloat };
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct __attribute__((device_builtin_texture_type)) texture { int __hg_texture; };
template <class T> __device__ T tex1Dfetch(texture<T, 1, cudaReadModeElementType>, int);
template <class T> __device__ T tex1D(texture<T, 1, cudaReadModeElementType>, float);
template <class T> __device__ T tex2D(texture<T, 2, cudaReadModeElementType>, float, float);
extern __device__ void *memset(void *, int, size_t);
extern __device__ void *memcpy(void *, const void *, size_t);
extern __device__ int min(int, int);
extern __device__ int max(int, int);
extern __device__ unsigned int min(unsigned int, unsigned int);
extern __device__ unsigned int max(unsigned int, unsigned int);
extern __device__ int abs(int);
extern __device__ float fminf(float, float);
extern __device__ float fmaxf(float, float);
extern __device__ float sqrtf(float);
extern __device__ float expf(float);
extern __device__ float logf(float);
extern __device__ float fabsf(float);
extern __device__ float sinf(float);
extern __device__ float cosf(float);
extern __device__ float __fdividef(float, float);
extern __device__ float __expf(float);
/* Unknown values for the stand-in library headers (curand_kernel.h): each call returns any value
   of its type, fresh per call and thread, and touches no memory (frontend/calls.py, ARBITRARY). */
extern __device__ unsigned int __hoaregpu_arbitrary_uint(void);
extern __device__ int __hoaregpu_arbitrary_int(void);
extern __device__ float __hoaregpu_arbitrary_float(void);
extern __device__ double __hoaregpu_arbitrary_double(void);
/* GPUVerify's annotation dialect (docs/gpuverify-dialect.md): contracts and assertions written
   as calls. hoaregpu/frontend/gpuverify.py reads them; they are never executed. */
extern __device__ void __requires(bool), __ensures(bool), __global_requires(bool), __global_ensures(bool);
extern __device__ void __invariant(bool), __global_invariant(bool), __assert(bool), __global_assert(bool);
extern __device__ void __assume(bool), __requires_fresh_array(const volatile void *);
extern __device__ void __function_wide_invariant(bool), __function_wide_candidate_invariant(bool);
extern __device__ void __candidate_invariant(bool), __candidate_global_invariant(bool);
extern __device__ void __barrier_invariant(bool);
extern __device__ void __access_permission(void);
extern __device__ bool __same_group_(void);
extern __device__ int __ite(bool, int, int);
extern __device__ bool __implies(bool, bool), __enabled(void);
extern __device__ int __other_int(int), __old_int(int), __return_val_int(void);
extern __device__ bool __other_bool(bool), __old_bool(bool), __return_val_bool(void);
extern __device__ bool __uniform_int(int), __uniform_bool(bool), __distinct_int(int), __distinct_bool(bool);
extern __device__ int __all(int);
extern __device__ bool __exclusive(bool);
extern __device__ bool __read(const volatile void *), __write(const volatile void *);
extern __device__ bool __no_read(const volatile void *), __no_write(const volatile void *);
extern __device__ bool __read_implies(const volatile void *, bool), __write_implies(const volatile void *, bool);
extern __device__ size_t __read_offset_bytes(const volatile void *), __write_offset_bytes(const volatile void *);
extern __device__ size_t __ptr_offset_bytes(const volatile void *);
extern __device__ int __ptr_base(const volatile void *);
extern __device__ void *__return_val_ptr(void);
#define __return_val_funptr(T) ((T)__return_val_ptr())
#define __HG_CAT2(a, b) a##b
#define __HG_CAT(a, b) __HG_CAT2(a, b)
#define __axiom(e) extern "C" __device__ bool __HG_CAT(__axiom_, __COUNTER__)(void) { return (e); }
#define __is_pow2(x) ((((x) & (x - 1)) == 0))
#define __mod_pow2(x, y) ((y - 1) & (x))
#include "hoaregpu_gpuverify.h"
typedef unsigned int uint32_t;
typedef int int32_t;
typedef unsigned long long uint64_t;
typedef long long int64_t;
typedef unsigned short uint16_t;
typedef short int16_t;
typedef unsigned char uint8_t;
typedef signed char int8_t;

/* Host code may launch kernels (`k<<<grid, block>>>(...)`): Clang lowers the launch to one
   of these, depending on the CUDA version it assumes. */
typedef struct CUstream_st *cudaStream_t;
extern "C" __host__ int cudaConfigureCall(dim3, dim3, size_t = 0, cudaStream_t = 0);
extern "C" __host__ unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, void * = 0);
