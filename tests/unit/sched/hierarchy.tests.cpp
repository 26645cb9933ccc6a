#include "../engine_shape.hpp"

namespace {

struct seen {
  uint3 thread, block, block_dim, grid_dim;
  int warp_size;
};

void record_indices(seen* out) {
  const unsigned int tid = threadIdx.x + threadIdx.y * blockDim.x + threadIdx.z * blockDim.x * blockDim.y;
  const unsigned int bid = blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * gridDim.x * gridDim.y;
  const unsigned int per_block = blockDim.x * blockDim.y * blockDim.z;
  out[bid * per_block + tid] = seen{threadIdx, blockIdx, blockDim, gridDim, warpSize};
}

}  // namespace

TEST_CASE("hierarchy: every thread of a 3D grid of 3D blocks sees its own indices, x fastest",
          "[sched][hierarchy][quick]") {
  CUSIM_ENGINE_SHAPES();
  const dim3 grid(3, 2, 2), block(4, 3, 5);
  const unsigned int per_block = 60, total = 12 * per_block;
  device_buffer<seen> out(total);
  REQUIRE(cusim::launch(record_indices, grid, block)(out.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  unsigned int i = 0;
  for (unsigned int bz = 0; bz < 2; ++bz)
    for (unsigned int by = 0; by < 2; ++by)
      for (unsigned int bx = 0; bx < 3; ++bx)
        for (unsigned int tz = 0; tz < 5; ++tz)
          for (unsigned int ty = 0; ty < 3; ++ty)
            for (unsigned int tx = 0; tx < 4; ++tx, ++i) {
              const seen& s = out[i];
              CHECK((s.thread.x == tx && s.thread.y == ty && s.thread.z == tz));
              CHECK((s.block.x == bx && s.block.y == by && s.block.z == bz));
              CHECK((s.block_dim.x == 4 && s.block_dim.y == 3 && s.block_dim.z == 5));
              CHECK((s.grid_dim.x == 3 && s.grid_dim.y == 2 && s.grid_dim.z == 2));
              CHECK(s.warp_size == 32);
            }
  CHECK(i == total);
}

namespace {
void count_threads(unsigned long long* counter) { atomicAdd(counter, 1ull); }
}  // namespace

TEST_CASE("hierarchy: a 1D launch with an int block count runs blocks x threads threads", "[sched][hierarchy][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<unsigned long long> counter(1);
  counter[0] = 0;
  REQUIRE(cusim::launch(count_threads, 1000, 1024)(counter.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  CHECK(counter[0] == 1000ull * 1024);
}
