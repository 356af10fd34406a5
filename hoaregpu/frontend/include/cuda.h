/* hoaregpu: stand-in for <cuda.h>; the builtins come from hoaregpu_cuda.h. */
#pragma once
/* GPUVerify's cuda.h makes cuRAND available too (its curand_tests include only <cuda.h>). */
#include "curand_kernel.h"
