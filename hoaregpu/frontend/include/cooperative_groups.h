/* hoaregpu: stand-in for <cooperative_groups.h> (included by the stand-in <cuda.h>, as
   GPUVerify's does). The groups carry no data: what a call means is decided by
   hoaregpu/frontend/groups.py from the group's type, never by these declarations.
   thread_block::sync() is __syncthreads(); grid_group::sync() is a barrier of the grid. */
#pragma once
namespace cooperative_groups {
class thread_block {
public:
  __device__ void sync() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
};
class grid_group {
public:
  __device__ void sync() const;
  __device__ unsigned long long thread_rank() const;
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ bool is_valid() const;
};
__device__ thread_block this_thread_block();
__device__ grid_group this_grid();
/* CUDA's free functions, and GPUVerify's spelling `synchronize` */
__device__ void sync(const thread_block &);
__device__ void sync(const grid_group &);
__device__ void synchronize(const thread_block &);
__device__ void synchronize(const grid_group &);
}  // namespace cooperative_groups
