/* hoaregpu: stand-in for <cuda_runtime.h>; the builtins come from hoaregpu_cuda.h. The
   runtime API host code commonly calls is declared so that a real .cu file parses (host
   code is not verified). */
#pragma once
typedef int cudaError_t;
enum cudaMemcpyKind { cudaMemcpyHostToHost, cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
extern "C" __host__ cudaError_t cudaMalloc(void **, size_t);
template <class T> __host__ cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc((void **)p, n); }
extern "C" __host__ cudaError_t cudaFree(void *);
extern "C" __host__ cudaError_t cudaMemcpy(void *, const void *, size_t, enum cudaMemcpyKind);
extern "C" __host__ cudaError_t cudaMemset(void *, int, size_t);
extern "C" __host__ cudaError_t cudaDeviceSynchronize(void);
extern "C" __host__ cudaError_t cudaGetLastError(void);
extern "C" __host__ const char *cudaGetErrorString(cudaError_t);
