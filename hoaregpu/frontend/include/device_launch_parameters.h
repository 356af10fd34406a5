/* hoaregpu: stand-in for <device_launch_parameters.h>; the builtins come from hoaregpu_cuda.h. */
#pragma once
