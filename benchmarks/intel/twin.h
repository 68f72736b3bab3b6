// Included by every OpenCL C twin (isa-report.sh builds them with -I of this
// folder).
//
// SOURCE_FENCE is what a twin's barrier orders where the benchmark's own
// barrier orders global as well as group-local memory: C++ AMP's
// tile_barrier::wait() (wait_with_all_memory_fence), SYCL's group_barrier,
// Cilk Plus's _gfx_gpgpu_thread_barrier(), C for Metal's cm_barrier(), and
// CUDA's __syncthreads(), which the twins translate ("all global and shared
// memory accesses ... are visible to all threads in the block"). A twin
// barrier that stands for a group-local-only barrier of the source (SYCL's
// nd_item::barrier(local_space), the barrier that publishes a
// group_local_memory object) is barrier(CLK_LOCAL_MEM_FENCE).
//
// TWIN_OPTIONS=-DSOURCE_FENCE=CLK_LOCAL_MEM_FENCE builds every twin with
// group-local fences only, as someone who knows that none of these kernels
// passes global data across a barrier would write them by hand (the
// benchmarks' own sources could say so too: tile_barrier's
// wait_with_tile_static_memory_fence(), nd_item::barrier(local_space)).
#ifndef SOURCE_FENCE
#define SOURCE_FENCE (CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE)
#endif
