#include <vector>

#include "../engine_shape.hpp"

namespace {
void scale(float* data, float factor, int n) {
  const int i = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) data[i] *= factor;
}
}  // namespace

TEST_CASE("memory: cudaMemcpy moves data in every direction", "[api][memory][quick]") {
  engine_shape shape(2, 1);
  const int n = 1000;
  std::vector<float> host(n), back(n, -1.0f);
  for (int i = 0; i < n; ++i) host[i] = float(i);
  float *a = nullptr, *b = nullptr;
  REQUIRE(cudaMalloc(&a, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMalloc(&b, n * sizeof(float)) == cudaSuccess);
  CHECK(reinterpret_cast<std::uintptr_t>(a) % 256 == 0);
  REQUIRE(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
  cusim::launch(scale, (n + 255) / 256, 256)(a, 2.0f, n);
  REQUIRE(cudaMemcpy(b, a, n * sizeof(float), cudaMemcpyDeviceToDevice) == cudaSuccess);
  REQUIRE(cudaMemcpy(back.data(), b, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  for (int i = 0; i < n; ++i) CHECK(back[i] == 2.0f * float(i));

  std::vector<float> other(n);
  REQUIRE(cudaMemcpy(other.data(), back.data(), n * sizeof(float), cudaMemcpyHostToHost) == cudaSuccess);
  CHECK(other == back);
  // cudaMemcpyDefault infers the direction from the pointers.
  REQUIRE(cudaMemcpy(a, host.data(), n * sizeof(float), cudaMemcpyDefault) == cudaSuccess);
  REQUIRE(cudaMemcpy(back.data(), a, n * sizeof(float), cudaMemcpyDefault) == cudaSuccess);
  CHECK(back == host);
  REQUIRE(cudaMemset(a, 0, n * sizeof(float)) == cudaSuccess);
  REQUIRE(cudaMemcpy(back.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(back == std::vector<float>(n, 0.0f));
  CHECK(cudaFree(a) == cudaSuccess);
  CHECK(cudaFree(b) == cudaSuccess);
}

TEST_CASE("memory: misuse is refused with CUDA's error codes", "[api][memory][errors][quick]") {
  engine_shape shape(1, 1);
  char* d = nullptr;
  REQUIRE(cudaMalloc(&d, 1024) == cudaSuccess);
  std::vector<char> host(4096);
  CHECK(cudaMemcpy(d, host.data(), 16, cudaMemcpyKind(7)) == cudaErrorInvalidMemcpyDirection);
  CHECK(cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyKind(7)) == cudaSuccess);  // nothing to copy
  CHECK(cudaMemcpy(d, d + 512, 16, cudaMemcpyDeviceToHost) == cudaSuccess);  // a host side may be any memory
  CHECK(cudaMemcpy(host.data(), host.data() + 8, 8, cudaMemcpyDeviceToDevice) == cudaErrorInvalidValue);
  void* empty = &host;
  CHECK(cudaMalloc(&empty, 0) == cudaSuccess);
  CHECK(empty == nullptr);
  CHECK(cudaMemcpy(d, host.data(), 2048, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);  // overrun
  CHECK(cudaMemcpy(host.data(), host.data() + 8, 8, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
  CHECK(cudaMemset(host.data(), 0, 8) == cudaErrorInvalidValue);
  CHECK(cudaMemset(d, 0, 1025) == cudaErrorInvalidValue);
  CHECK(cudaFree(d + 4) == cudaErrorInvalidValue);  // not the start of an allocation
  CHECK(cudaFree(nullptr) == cudaSuccess);
  CHECK(cudaFree(d) == cudaSuccess);
  CHECK(cudaFree(d) == cudaErrorInvalidValue);  // double free
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);
  void* huge = nullptr;
  CHECK(cudaMalloc(&huge, std::size_t(1) << 50) == cudaErrorMemoryAllocation);
  CHECK(huge == nullptr);
  cudaGetLastError();
}

TEST_CASE("memory: host, pinned and managed allocations", "[api][memory][quick]") {
  engine_shape shape(1, 1);
  int *pinned = nullptr, *mapped = nullptr, *managed = nullptr, *device = nullptr;
  REQUIRE(cudaMallocHost(&pinned, 64) == cudaSuccess);
  REQUIRE(cudaHostAlloc(&mapped, 64, cudaHostAllocMapped) == cudaSuccess);
  REQUIRE(cudaMallocManaged(&managed, 64) == cudaSuccess);
  REQUIRE(cudaMalloc(&device, 64) == cudaSuccess);
  managed[3] = 42;  // managed memory is usable from the host
  CHECK(cudaMemcpy(pinned, managed, 64, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(pinned[3] == 42);
  CHECK(cudaFreeHost(device) == cudaErrorInvalidValue);
  cudaGetLastError();
  CHECK(cudaFreeHost(pinned) == cudaSuccess);
  CHECK(cudaFreeHost(mapped) == cudaSuccess);
  CHECK(cudaFree(managed) == cudaSuccess);
  size_t free_bytes = 0, total = 0;
  REQUIRE(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
  CHECK(total == cusim::active_profile().total_global_mem);
  CHECK(free_bytes == total - 64);
  CHECK(cudaFree(device) == cudaSuccess);
}
