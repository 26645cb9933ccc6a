#include "../engine_shape.hpp"

namespace {
void empty_kernel() {}
void stop_at_once() { assert(false && "stops the grid"); }
}  // namespace

// Every invalid configuration an H100 with CUDA 13 refuses, and the code it
// gives (tests/data/h100-sm90-properties.txt, "launch ..." lines).
TEST_CASE("launch limits: invalid configurations fail with the H100's error codes", "[api][launch][limits][quick]") {
  engine_shape shape(1, 1);
  struct case_t {
    const char* what;
    dim3 grid, block;
    std::size_t shared;
    cudaError_t expected;
  };
  const case_t cases[] = {
      {"block 1025x1x1", 1, dim3(1025), 0, cudaErrorInvalidValue},
      {"block 1x1x65", 1, dim3(1, 1, 65), 0, cudaErrorInvalidValue},
      {"block 32x32x2", 1, dim3(32, 32, 2), 0, cudaErrorInvalidValue},
      {"block 0", 1, dim3(0), 0, cudaErrorInvalidValue},
      {"block 1x0x1", 1, dim3(1, 0, 1), 0, cudaErrorInvalidValue},
      {"grid 0", dim3(0), 32, 0, cudaErrorInvalidValue},
      {"grid y 65536", dim3(1, 65536), 32, 0, cudaErrorInvalidValue},
      {"grid z 65536", dim3(1, 1, 65536), 32, 0, cudaErrorInvalidValue},
      {"smem 48K+1", 1, 32, 48 * 1024 + 1, cudaErrorInvalidValue},
      {"smem 227K", 1, 32, 227 * 1024, cudaErrorInvalidValue},
      {"block 1024x1x1", 1, dim3(1024), 0, cudaSuccess},
      {"block 1x1x64", 1, dim3(1, 1, 64), 0, cudaSuccess},
      {"grid 65535 in y and z", dim3(1, 65535, 2), 1, 0, cudaSuccess},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    cusim::launch(empty_kernel, c.grid, c.block, c.shared)();
    CHECK(cudaPeekAtLastError() == c.expected);
    CHECK(cudaGetLastError() == c.expected);
    CHECK(cudaGetLastError() == cudaSuccess);  // the launch error is not sticky
  }
}

TEST_CASE("launch limits: a grid of 2^31-1 blocks in x is accepted", "[api][launch][limits][quick]") {
  engine_shape shape(1, 1);
  // The kernel traps in its first block, so the grid ends at once.
  cusim::launch(stop_at_once, dim3(2147483647u), 1)();
  CHECK(cudaGetLastError() != cudaErrorInvalidValue);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
}

TEST_CASE("launch limits: limits follow the selected profile", "[api][launch][limits][profile][quick]") {
  engine_shape shape(1, 1);
  REQUIRE(cusim::select_profile("sm_75"));
  int optin = 0;
  REQUIRE(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0) == cudaSuccess);
  CHECK(optin == 65536);
  CHECK(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 65537) ==
        cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFuncSetAttribute(empty_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536) == cudaSuccess);
  cusim::launch(empty_kernel, 1, 32, 65536)();
  CHECK(cudaGetLastError() == cudaSuccess);
  REQUIRE(cusim::select_profile("sm_90"));
  CHECK_FALSE(cusim::select_profile("sm_99"));
}
