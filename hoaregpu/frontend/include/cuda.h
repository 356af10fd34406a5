/* hoaregpu: stand-in for <cuda.h>; the builtins come from hoaregpu_cuda.h. Like GPUVerify's,
   it declares the cooperative groups (a kernel may say `using namespace cooperative_groups;`
   after including only <cuda.h>). */
#pragma once
#include "cooperative_groups.h"
/* GPUVerify's cuda.h makes cuRAND available too (its curand_tests include only <cuda.h>). */
#include "curand_kernel.h"
