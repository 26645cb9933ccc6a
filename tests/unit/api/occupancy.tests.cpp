// Occupancy by NVIDIA's rules, against answers computed by hand. Each row
// gives the profile, block size, dynamic shared memory and registers per
// thread, the blocks one multiprocessor holds, and the working:
//   warps per block = ceil(T/32); limit by warps = max warps per SM / that;
//   registers: per warp round_up(R*32, 256), a block refused when that times
//   its warps rounded up to 4 passes 65536; per SM 4 partitions of 16384
//   registers, each holding floor(16384 / per-warp) warps;
//   shared memory: round_up(static + dynamic + reserved, 128) per block.
// tests/semantics/runtime/occupancy.cu compares the same API with an H100.
#include <cusim/detail/kernel_call.hpp>

#include "../engine_shape.hpp"
#include "api/occupancy.hpp"

namespace {
void kernel_a() {}
void bounded_kernel() {}

struct occupancy_case {
  const char* profile;
  int threads;
  std::size_t dynamic_shared;
  unsigned int registers;
  int blocks;
  const char* working;
};

const occupancy_case cases[] = {
    {"sm_90", 256, 0, 32, 8, "64 warps / 8; registers: 1024 a warp, 16 warps a partition = 64 warps / 8 = 8"},
    {"sm_90", 256, 0, 64, 4, "registers: 2048 a warp, 8 a partition = 32 warps / 8"},
    {"sm_90", 256, 0, 255, 1, "registers: 8192 a warp (8160 rounded up), 2 a partition = 8 warps / 8"},
    {"sm_90", 1024, 0, 64, 1, "registers: 2048 x 32 warps = 65536 fits once"},
    {"sm_90", 1024, 0, 65, 0, "registers: 2304 a warp x 32 = 73728 > 65536"},
    {"sm_90", 672, 0, 96, 0, "registers: 3072 x 21 = 64512 fits, but x 24 (21 rounded up to 4) = 73728 does not"},
    {"sm_90", 96, 0, 40, 16, "registers: 1280 a warp, 12 a partition = 48 warps / 3 (warps alone: 21)"},
    {"sm_90", 128, 0, 56, 9, "registers: 1792 a warp, 9 a partition = 36 warps / 4 (the H100 agrees)"},
    {"sm_90", 33, 0, 128, 8, "2 warps; registers: 4096 a warp, 4 a partition = 16 warps / 2"},
    {"sm_90", 32, 0, 0, 32, "unknown registers; 64 warps / 1, blocks limit 32"},
    {"sm_90", 128, 49152, 0, 4, "shared: 49152 + 1024 = 50176; 233472 / 50176 = 4.6"},
    {"sm_90", 128, 1000, 0, 16, "shared: 2024 -> 2048; 114 blocks; warps 64 / 4 = 16"},
    {"sm_86", 256, 0, 32, 6, "48 warps / 8 = 6 (registers allow 8)"},
    {"sm_86", 128, 20000, 0, 4, "shared: 21024 -> 21120; 102400 / 21120 = 4.8"},
    {"sm_86", 64, 0, 0, 16, "48 warps / 2 = 24, blocks limit 16"},
    {"sm_75", 256, 0, 64, 4, "32 warps / 8 = 4; registers: 8 a partition = 32 warps / 8 = 4"},
    {"sm_75", 512, 0, 72, 1, "registers: 2304 a warp, 7 a partition = 28 warps / 16"},
};
}  // namespace

TEST_CASE("occupancy: blocks per multiprocessor as computed by hand", "[api][occupancy][quick]") {
  engine_shape shape(1, 1);
  for (const occupancy_case& c : cases) {
    INFO(c.profile << ", " << c.threads << " threads, " << c.dynamic_shared << " B, " << c.registers
                   << " registers: " << c.working);
    REQUIRE(cusim::select_profile(c.profile));
    cusim::set_registers_per_thread(kernel_a, c.registers);
    int blocks = -1;
    REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_a, c.threads, c.dynamic_shared) ==
            cudaSuccess);
    CHECK(blocks == c.blocks);
    cudaFuncAttributes attributes{};
    REQUIRE(cudaFuncGetAttributes(&attributes, kernel_a) == cudaSuccess);
    CHECK(attributes.numRegs == int(c.registers));
  }
  cusim::set_registers_per_thread(kernel_a, 0);
  REQUIRE(cusim::select_profile("sm_90"));
}

TEST_CASE("occupancy: a block whose registers do not fit is refused at launch", "[api][occupancy][quick]") {
  engine_shape shape(1, 1);
  cusim::set_registers_per_thread(kernel_a, 96);
  cusim::launch(kernel_a, 1, 672)();
  CHECK(cudaGetLastError() == cudaErrorLaunchOutOfResources);
  cusim::launch(kernel_a, 1, 640)();  // 20 warps: 3072 x 20 = 61440 fits
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);
  cusim::set_registers_per_thread(kernel_a, 0);
}

TEST_CASE("occupancy: the best block size follows the register limit", "[api][occupancy][quick]") {
  engine_shape shape(1, 1);
  int grid = 0, block = 0;
  // Registers unknown: 1024 threads fill the 2048 a multiprocessor holds twice over.
  REQUIRE(cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel_a) == cudaSuccess);
  CHECK(block == 1024);
  CHECK(grid == 2 * 132);
  // 56 registers: 36 warps a multiprocessor; 2 blocks of 18 warps fill them (the H100 agrees).
  cusim::set_registers_per_thread(kernel_a, 56);
  REQUIRE(cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel_a) == cudaSuccess);
  CHECK(block == 576);
  CHECK(grid == 2 * 132);
  cusim::set_registers_per_thread(kernel_a, 0);
}

TEST_CASE("occupancy: __launch_bounds__ with a minimum of blocks caps registers", "[api][occupancy][quick]") {
  engine_shape shape(1, 1);
  // __launch_bounds__(256, 4): 4 blocks of 256 threads share 65536 registers: at most 64 each.
  cusim::detail::register_kernel(reinterpret_cast<const void*>(bounded_kernel), nullptr, "bounded_kernel",
                                 dim3(0, 0, 0), nullptr, cusim::detail::launch_bounds{256, 4, 0});
  const cusim::detail::register_use use = cusim::detail::registers_of(reinterpret_cast<const void*>(bounded_kernel));
  CHECK(use.per_thread == 64);
  CHECK(std::string(use.source).find("__launch_bounds__") != std::string::npos);
  int blocks = 0;
  REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded_kernel, 256, 0) == cudaSuccess);
  CHECK(blocks == 4);
}
