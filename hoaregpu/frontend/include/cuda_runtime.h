/* hoaregpu: stand-in for <cuda_runtime.h>; the builtins come from hoaregpu_cuda.h. */
#pragma once
