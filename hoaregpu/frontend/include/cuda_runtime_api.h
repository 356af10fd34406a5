/* hoaregpu: stand-in for <cuda_runtime_api.h>; the builtins come from hoaregpu_cuda.h. */
#pragma once
