/* hoaregpu: stand-in for <cuda.h>; the builtins come from hoaregpu_cuda.h. */
#pragma once
