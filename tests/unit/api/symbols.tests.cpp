#include "../engine_shape.hpp"

// __device__ and __constant__ globals: what cuda_runtime.h makes of them is a
// global shared by every CUDA thread, reachable through the symbol API.
__device__ int device_counter;
__constant__ float coefficients[4];

namespace {
void use_symbols(float* out) {
  atomicAdd(&device_counter, 1);
  out[threadIdx.x] = coefficients[threadIdx.x % 4] * 2.0f;
}
}  // namespace

TEST_CASE("symbols: copies to and from __device__ and __constant__ variables", "[api][symbols][quick]") {
  engine_shape shape(2, 1);
  const float host_coefficients[4] = {1, 2, 3, 4};
  const int zero = 0;
  REQUIRE(cudaMemcpyToSymbol(coefficients, host_coefficients, sizeof host_coefficients) == cudaSuccess);
  REQUIRE(cudaMemcpyToSymbol(device_counter, &zero, sizeof zero) == cudaSuccess);
  device_buffer<float> out(64);
  REQUIRE(cusim::launch(use_symbols, 1, 64)(out.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  int count = -1;
  REQUIRE(cudaMemcpyFromSymbol(&count, device_counter, sizeof count) == cudaSuccess);
  CHECK(count == 64);
  for (int i = 0; i < 64; ++i) CHECK(out[i] == host_coefficients[i % 4] * 2.0f);

  const float two = 20.0f;
  REQUIRE(cudaMemcpyToSymbol(coefficients, &two, sizeof two, 2 * sizeof(float)) == cudaSuccess);
  float read_back[4] = {};
  REQUIRE(cudaMemcpyFromSymbol(read_back, coefficients, sizeof read_back) == cudaSuccess);
  CHECK(read_back[2] == 20.0f);

  void* address = nullptr;
  REQUIRE(cudaGetSymbolAddress(&address, device_counter) == cudaSuccess);
  CHECK(address == &device_counter);
  size_t size = 0;
  REQUIRE(cudaGetSymbolSize(&size, coefficients) == cudaSuccess);
  CHECK(size == sizeof coefficients);
}

TEST_CASE("symbols: copies past the symbol's end or in the wrong direction fail", "[api][symbols][errors][quick]") {
  engine_shape shape(1, 1);
  const char bytes[32] = {};
  CHECK(cudaMemcpyToSymbol(coefficients, bytes, 20) == cudaErrorInvalidValue);
  CHECK(cudaMemcpyToSymbol(coefficients, bytes, 16, 4) == cudaErrorInvalidValue);
  CHECK(cudaMemcpyToSymbol(coefficients, bytes, 4, 0, cudaMemcpyDeviceToHost) == cudaErrorInvalidMemcpyDirection);
  CHECK(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
}
