#include <set>

#include "../engine_shape.hpp"

namespace {

// Records the address of the block's shared array, fills it with the block's
// id, waits (so that other resident blocks run in between), then checks
// that nobody else wrote into it.
void shared_is_per_block(std::uintptr_t* addresses, int* intact) {
  CUSIM_SHARED(int[64], mine);
  mine[threadIdx.x] = int(blockIdx.x);
  if (threadIdx.x == 0) addresses[blockIdx.x] = reinterpret_cast<std::uintptr_t>(&mine[0]);
  __syncthreads();
  __syncthreads();
  if (mine[(threadIdx.x + 1) % 64] != int(blockIdx.x)) atomicAdd(intact, 1);
}

template <class T>
void templated_shared(T* out) {
  CUSIM_SHARED(T[32], values);
  CUSIM_SHARED(T, total);
  values[threadIdx.x] = T(threadIdx.x);
  if (threadIdx.x == 0) total = T(0);
  __syncthreads();
  atomicAdd(&total, values[threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total;  // each block its own: two writing one place race
}

struct particle {
  float x, y;
  int id;
};

void shared_struct_and_2d(int* out) {
  CUSIM_SHARED(particle, p);
  CUSIM_SHARED(float[4][8], tile);
  tile[threadIdx.x / 8][threadIdx.x % 8] = float(threadIdx.x);
  if (threadIdx.x == 0) p = particle{1.5f, 2.5f, 7};
  __syncthreads();
  if (threadIdx.x == 31) *out = int(tile[3][7]) + p.id;
}

void dynamic_shared_sum(int* out, int n) {
  CUSIM_EXTERN_SHARED(int, buffer);
  for (int i = int(threadIdx.x); i < n; i += int(blockDim.x)) buffer[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < n; ++i) sum += buffer[i];
    out[blockIdx.x] = sum;
  }
}

void big_static_shared(int* out) {
  CUSIM_SHARED(char[40 * 1024], big);
  big[threadIdx.x] = 1;
  *out = big[0];
}

}  // namespace

TEST_CASE("shared memory: blocks alive at once on one worker have distinct storage", "[sched][shared][quick]") {
  engine_shape shape(1, 4);
  device_buffer<std::uintptr_t> addresses(8);
  device_buffer<int> broken(1);
  broken[0] = 0;
  REQUIRE(cusim::launch(shared_is_per_block, 8, 64)(addresses.data, broken.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  CHECK(broken[0] == 0);
  // Blocks 0..3 were resident together on the single worker.
  std::set<std::uintptr_t> distinct(addresses.data, addresses.data + 4);
  CHECK(distinct.size() == 4);
}

TEST_CASE("shared memory: storage stays per block under every engine shape", "[sched][shared][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<std::uintptr_t> addresses(64);
  device_buffer<int> broken(1);
  broken[0] = 0;
  REQUIRE(cusim::launch(shared_is_per_block, 64, 64)(addresses.data, broken.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  CHECK(broken[0] == 0);
}

TEST_CASE("shared memory: templates get one slot per instantiation, and scalars, structs and 2D arrays work",
          "[sched][shared][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> i(2), s(1);
  device_buffer<float> f(2);
  REQUIRE(cusim::launch(templated_shared<int>, 2, 32)(i.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  REQUIRE(cusim::launch(templated_shared<float>, 2, 32)(f.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  CHECK(i[0] == 496);
  CHECK(i[1] == 496);
  CHECK(f[0] == 496.0f);
  CHECK(f[1] == 496.0f);
  REQUIRE(cusim::launch(shared_struct_and_2d, 1, 32)(s.data) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  CHECK(s[0] == 31 + 7);
}

TEST_CASE("shared memory: extern dynamic memory is sized by the launch", "[sched][shared][quick]") {
  CUSIM_ENGINE_SHAPES();
  device_buffer<int> out(3);
  const int n = 1000;
  REQUIRE(cusim::launch(dynamic_shared_sum, 3, 128, n * sizeof(int))(out.data, n) == cudaSuccess);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);  // launches are asynchronous
  for (int b = 0; b < 3; ++b) CHECK(out[b] == n * (n - 1) / 2);
}

TEST_CASE("shared memory: more than 48 KiB needs the opt-in attribute, up to the profile's maximum",
          "[sched][shared][limits][quick]") {
  engine_shape shape(1, 1);
  device_buffer<int> out(1);
  const std::size_t optin = 232448;  // sm_90
  auto launch = [&](std::size_t bytes) {
    cusim::launch(dynamic_shared_sum, 1, 32, bytes)(out.data, 16);
    return cudaGetLastError();
  };
  CHECK(launch(48 * 1024) == cudaSuccess);
  CHECK(launch(48 * 1024 + 1) == cudaErrorInvalidValue);
  CHECK(cudaFuncSetAttribute(dynamic_shared_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, int(optin)) ==
        cudaSuccess);
  CHECK(launch(optin) == cudaSuccess);
  CHECK(launch(optin + 1) == cudaErrorInvalidValue);
  CHECK(cudaFuncSetAttribute(dynamic_shared_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, int(optin + 1)) ==
        cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
}

TEST_CASE("shared memory: static plus dynamic memory over the limit fails the launch, later launches up front",
          "[sched][shared][limits][quick]") {
  engine_shape shape(1, 1);
  device_buffer<int> out(1);
  // 40 KiB static + 16 KiB dynamic > 48 KiB: learnt while the block runs,
  // so reported when the host next synchronises (the launch is asynchronous).
  CHECK(cusim::launch(big_static_shared, 1, 32, 16 * 1024)(out.data) == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  // The kernel's static size is known now: the launch is refused before it runs.
  cusim::launch(big_static_shared, 1, 32, 16 * 1024)(out.data);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  cusim::launch(big_static_shared, 1, 32, 1024)(out.data);
  CHECK(cudaGetLastError() == cudaSuccess);
  CHECK(cudaDeviceSynchronize() == cudaSuccess);  // not a sticky error
}
