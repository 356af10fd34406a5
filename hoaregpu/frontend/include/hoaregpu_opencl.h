/* hoaregpu's OpenCL prelude: the OpenCL C builtins a kernel uses, declared so that Clang
   (`-x cl -cl-no-stdinc`: the libclang wheel has no opencl-c.h) can parse and type kernels.
   What they mean is decided by hoaregpu (hoaregpu/frontend/opencl.py), never by these
   declarations. */
#pragma once
/* a system header: `clang.in_file` tells the prelude's declarations apart with one query */
#pragma clang system_header
/* `__kernel` is a keyword: the macro keeps it and adds a mark libclang shows (an annotate
   attribute), by which hoaregpu finds the kernels. */
#define __kernel __kernel __attribute__((annotate("hoaregpu_kernel")))
#define kernel __kernel
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INTPTR_TYPE__ intptr_t;
typedef __UINTPTR_TYPE__ uintptr_t;
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;
/* vector types as plain structs: components .x .y .z .w (no swizzles, no arithmetic), with
   OpenCL's sizes and alignments (a 3-vector takes the room of a 4-vector) for sizeof */
#define __HG_ALIGNED(t, k) __attribute__((aligned(k * sizeof(t))))
#define __HG_VEC(t, n) typedef struct __HG_ALIGNED(t, 2) { t x, y; } n##2; \
  typedef struct __HG_ALIGNED(t, 4) { t x, y, z; } n##3; typedef struct __HG_ALIGNED(t, 4) { t x, y, z, w; } n##4;
__HG_VEC(char, char) __HG_VEC(uchar, uchar) __HG_VEC(short, short) __HG_VEC(ushort, ushort)
__HG_VEC(int, int) __HG_VEC(uint, uint) __HG_VEC(long, long) __HG_VEC(ulong, ulong)
__HG_VEC(float, float)
#undef __HG_VEC
#undef __HG_ALIGNED

/* work-items: get_local_id(d) is threadIdx, get_group_id(d) blockIdx, get_local_size(d)
   blockDim, get_num_groups(d) gridDim (component d, a constant 0..2) */
typedef uint cl_mem_fence_flags;
#define CLK_LOCAL_MEM_FENCE 0x01
#define CLK_GLOBAL_MEM_FENCE 0x02
size_t get_local_id(uint), get_group_id(uint), get_local_size(uint), get_num_groups(uint);
size_t get_global_id(uint), get_global_size(uint), get_global_offset(uint);
uint get_work_dim(void);
void barrier(cl_mem_fence_flags);
void mem_fence(cl_mem_fence_flags), read_mem_fence(cl_mem_fence_flags), write_mem_fence(cl_mem_fence_flags);

/* Functions kernels call, declared so that hoaregpu can name the call as unsupported. */
#define __HG_OV __attribute__((overloadable))
#define __HG_INT2(name) int __HG_OV name(int, int); uint __HG_OV name(uint, uint); \
  long __HG_OV name(long, long); ulong __HG_OV name(ulong, ulong); float __HG_OV name(float, float);
__HG_INT2(min) __HG_INT2(max) __HG_INT2(mul24) __HG_INT2(mul_hi) __HG_INT2(add_sat) __HG_INT2(sub_sat)
__HG_INT2(rotate) __HG_INT2(hadd)
#undef __HG_INT2
#define __HG_F1(name) float __HG_OV name(float);
__HG_F1(sqrt) __HG_F1(rsqrt) __HG_F1(exp) __HG_F1(log) __HG_F1(sin) __HG_F1(cos) __HG_F1(fabs)
__HG_F1(floor) __HG_F1(ceil) __HG_F1(native_sqrt) __HG_F1(native_exp) __HG_F1(native_log)
__HG_F1(native_sin) __HG_F1(native_cos) __HG_F1(native_recip)
#undef __HG_F1
float __HG_OV fmin(float, float), __HG_OV fmax(float, float), __HG_OV pow(float, float);
float __HG_OV native_divide(float, float), __HG_OV mad(float, float, float);
int __HG_OV clamp(int, int, int);
uint __HG_OV clamp(uint, uint, uint);
float __HG_OV clamp(float, float, float);
uint __HG_OV abs(int);
int __HG_OV mad24(int, int, int);
uint __HG_OV mad24(uint, uint, uint);
#define __HG_ATOMIC(name) \
  int __HG_OV name(volatile __global int *, int); uint __HG_OV name(volatile __global uint *, uint); \
  int __HG_OV name(volatile __local int *, int); uint __HG_OV name(volatile __local uint *, uint);
__HG_ATOMIC(atomic_add) __HG_ATOMIC(atomic_sub) __HG_ATOMIC(atomic_xchg) __HG_ATOMIC(atomic_min)
__HG_ATOMIC(atomic_max) __HG_ATOMIC(atomic_and) __HG_ATOMIC(atomic_or) __HG_ATOMIC(atomic_xor)
__HG_ATOMIC(atom_add) __HG_ATOMIC(atom_sub) __HG_ATOMIC(atom_xchg) __HG_ATOMIC(atom_min)
__HG_ATOMIC(atom_max) __HG_ATOMIC(atom_and) __HG_ATOMIC(atom_or) __HG_ATOMIC(atom_xor)
#undef __HG_ATOMIC
#define __HG_ATOMIC1(name) \
  int __HG_OV name(volatile __global int *); uint __HG_OV name(volatile __global uint *); \
  int __HG_OV name(volatile __local int *); uint __HG_OV name(volatile __local uint *);
__HG_ATOMIC1(atomic_inc) __HG_ATOMIC1(atomic_dec) __HG_ATOMIC1(atom_inc) __HG_ATOMIC1(atom_dec)
#undef __HG_ATOMIC1
int __HG_OV atomic_cmpxchg(volatile __global int *, int, int);
uint __HG_OV atomic_cmpxchg(volatile __global uint *, uint, uint);
int __HG_OV atomic_cmpxchg(volatile __local int *, int, int);
uint __HG_OV atomic_cmpxchg(volatile __local uint *, uint, uint);
int printf(__constant const char *, ...);

/* GPUVerify's annotation dialect (docs/gpuverify-dialect.md), as in the CUDA prelude;
   hoaregpu/frontend/gpuverify.py reads the calls, they are never executed. A pointer
   argument may point into any address space: one overload each. */
void __requires(bool), __ensures(bool), __global_requires(bool), __global_ensures(bool);
void __invariant(bool), __global_invariant(bool), __assert(bool), __global_assert(bool);
void __assume(bool);
void __function_wide_invariant(bool), __function_wide_candidate_invariant(bool);
void __candidate_invariant(bool), __candidate_global_invariant(bool);
void __barrier_invariant(bool);
void __access_permission(void);
bool __same_group_(void);
int __ite(bool, int, int);
bool __implies(bool, bool), __enabled(void);
int __other_int(int), __old_int(int), __return_val_int(void);
bool __other_bool(bool), __old_bool(bool), __return_val_bool(void);
bool __uniform_int(int), __uniform_bool(bool), __distinct_int(int), __distinct_bool(bool);
int __all(int);
bool __exclusive(bool);
#define __HG_PTR(ret, name, ...) \
  ret __HG_OV name(const volatile __global void * __VA_OPT__(,) __VA_ARGS__); \
  ret __HG_OV name(const volatile __local void * __VA_OPT__(,) __VA_ARGS__); \
  ret __HG_OV name(const volatile __constant void * __VA_OPT__(,) __VA_ARGS__); \
  ret __HG_OV name(const volatile __private void * __VA_OPT__(,) __VA_ARGS__);
__HG_PTR(void, __requires_fresh_array)
__HG_PTR(bool, __read) __HG_PTR(bool, __write) __HG_PTR(bool, __no_read) __HG_PTR(bool, __no_write)
__HG_PTR(bool, __read_implies, bool) __HG_PTR(bool, __write_implies, bool)
__HG_PTR(size_t, __read_offset_bytes) __HG_PTR(size_t, __write_offset_bytes)
__HG_PTR(size_t, __ptr_offset_bytes) __HG_PTR(int, __ptr_base)
#undef __HG_PTR
#define __HG_CAT2(a, b) a##b
#define __HG_CAT(a, b) __HG_CAT2(a, b)
#define __axiom(e) bool __HG_CAT(__axiom_, __COUNTER__)(void) { return (e); }
#define __is_pow2(x) ((((x) & (x - 1)) == 0))
#define __mod_pow2(x, y) ((y - 1) & (x))
#include "hoaregpu_gpuverify.h"
