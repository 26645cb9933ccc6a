#include <string>

#include "../engine_shape.hpp"

namespace {
void fails_in_block_one(int* out) {
  if (blockIdx.x == 1 && threadIdx.x == 3) assert(threadIdx.x != 3 && "thread 3 of block 1 fails");
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}
void throws_from_device() { throw std::runtime_error("not allowed on a GPU"); }
void trivial() {}
}  // namespace

TEST_CASE("errors: names and strings follow the CUDA runtime", "[api][errors][quick]") {
  CHECK(std::string(cudaGetErrorName(cudaSuccess)) == "cudaSuccess");
  CHECK(std::string(cudaGetErrorString(cudaSuccess)) == "no error");
  CHECK(std::string(cudaGetErrorName(cudaErrorInvalidValue)) == "cudaErrorInvalidValue");
  CHECK(std::string(cudaGetErrorString(cudaErrorInvalidValue)) == "invalid argument");
  CHECK(std::string(cudaGetErrorString(cudaErrorMemoryAllocation)) == "out of memory");
  CHECK(std::string(cudaGetErrorString(cudaErrorAssert)) == "device-side assert triggered");
  CHECK(std::string(cudaGetErrorName(cudaError_t(12345))) == "unrecognized error code");
  CHECK(std::string(cudaGetErrorString(cudaError_t(-1))) == "unrecognized error code");
  CHECK(std::string(cudaGetErrorName(cudaErrorDevicesUnavailable)) == "cudaErrorDevicesUnavailable");
}

TEST_CASE("errors: a device assert stops the grid and leaves the context unusable until reset",
          "[api][errors][assert][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> out(4 * 8);
  CHECK(cusim::launch(fails_in_block_one, 4, 8)(out.data) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  CHECK(cudaDeviceSynchronize() == cudaErrorAssert);
  // As measured on an H100: reading the last error clears the record...
  CHECK(cudaGetLastError() == cudaErrorAssert);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaPeekAtLastError() == cudaSuccess);
  // ...but every call that needs the device keeps failing,
  void* p = nullptr;
  CHECK(cudaMalloc(&p, 16) == cudaErrorAssert);
  CHECK(cusim::launch(trivial, 1, 1)() == cudaErrorAssert);
  CHECK(cudaGetLastError() == cudaErrorAssert);
  int device = -1;
  CHECK(cudaGetDevice(&device) == cudaSuccess);
  // and a reset does not bring the device back in CUDA 13.
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  CHECK(cudaMalloc(&p, 16) == cudaErrorDevicesUnavailable);
  CHECK(cusim::launch(trivial, 1, 1)() == cudaErrorDevicesUnavailable);
}

TEST_CASE("errors: a C++ exception escaping a kernel is a launch failure", "[api][errors][quick]") {
  engine_shape shape(1, 1);
  cusim::launch(throws_from_device, 2, 4)();
  CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
}
