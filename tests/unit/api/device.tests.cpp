#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "../engine_shape.hpp"

namespace {

// `key value` lines of the H100 reference, measured on hardware.
std::map<std::string, std::string> reference_lines() {
  std::ifstream in(CUSIM_TEST_DATA "/h100-sm90-properties.txt");
  REQUIRE(in.good());
  std::map<std::string, std::string> facts;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream words(line);
    std::string first, second, third;
    words >> first >> second >> third;
    if (first == "attr" || first == "limit") facts[first + " " + second] = third;
    else if (!second.empty() && third.empty()) facts[first] = second;
  }
  return facts;
}

}  // namespace

TEST_CASE("device: the sm_90 profile answers every attribute as the measured H100 does", "[api][device][quick]") {
  REQUIRE(cusim::select_profile("sm_90"));
  int compared = 0;
  for (const auto& [key, value] : reference_lines()) {
    if (key.rfind("attr ", 0) != 0) continue;
    const int number = std::stoi(key.substr(5));
    int ours = 0;
    INFO("attribute " << number);
    REQUIRE(cudaDeviceGetAttribute(&ours, cudaDeviceAttr(number), 0) == cudaSuccess);
    CHECK(std::to_string(ours) == value);
    ++compared;
  }
  CHECK(compared == 139);
  int unused = 0;
  CHECK(cudaDeviceGetAttribute(&unused, cudaDeviceAttr(9999), 0) == cudaErrorInvalidValue);
  cudaGetLastError();
}

TEST_CASE("device: cudaGetDeviceProperties matches the measured H100", "[api][device][quick]") {
  REQUIRE(cusim::select_profile("sm_90"));
  cudaDeviceProp p{};
  REQUIRE(cudaGetDeviceProperties(&p, 0) == cudaSuccess);
  const auto ref = reference_lines();
  auto expect = [&](const char* field, long long ours) {
    INFO(field);
    REQUIRE(ref.count(field) == 1);
    CHECK(std::to_string(ours) == ref.at(field));
  };
  CHECK(std::string(p.name) == "NVIDIA H100 80GB HBM3");
  expect("totalGlobalMem", (long long)p.totalGlobalMem);
  expect("sharedMemPerBlock", (long long)p.sharedMemPerBlock);
  expect("regsPerBlock", p.regsPerBlock);
  expect("warpSize", p.warpSize);
  expect("maxThreadsPerBlock", p.maxThreadsPerBlock);
  expect("maxThreadsDim[0]", p.maxThreadsDim[0]);
  expect("maxThreadsDim[2]", p.maxThreadsDim[2]);
  expect("maxGridSize[0]", p.maxGridSize[0]);
  expect("maxGridSize[1]", p.maxGridSize[1]);
  expect("totalConstMem", (long long)p.totalConstMem);
  expect("major", p.major);
  expect("minor", p.minor);
  expect("multiProcessorCount", p.multiProcessorCount);
  expect("l2CacheSize", p.l2CacheSize);
  expect("maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor);
  expect("sharedMemPerMultiprocessor", (long long)p.sharedMemPerMultiprocessor);
  expect("regsPerMultiprocessor", p.regsPerMultiprocessor);
  expect("sharedMemPerBlockOptin", (long long)p.sharedMemPerBlockOptin);
  expect("maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor);
  expect("reservedSharedMemPerBlock", (long long)p.reservedSharedMemPerBlock);
  expect("memoryBusWidth", p.memoryBusWidth);
  expect("persistingL2CacheMaxSize", p.persistingL2CacheMaxSize);
  expect("clusterLaunch", p.clusterLaunch);
  expect("cooperativeLaunch", p.cooperativeLaunch);
  CHECK(cudaGetDeviceProperties(&p, 1) == cudaErrorInvalidDevice);
  cudaGetLastError();
}

TEST_CASE("device: limits have the H100's defaults and can be set", "[api][device][limits][quick]") {
  const auto ref = reference_lines();
  for (int limit : {0, 1, 2, 4, 5, 6, 7}) {
    size_t value = 0;
    INFO("limit " << limit);
    REQUIRE(cudaDeviceGetLimit(&value, cudaLimit(limit)) == cudaSuccess);
    CHECK(std::to_string(value) == ref.at("limit " + std::to_string(limit)));
  }
  size_t value = 0;
  CHECK(cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth) == cudaErrorUnsupportedLimit);
  CHECK(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4) == cudaErrorUnsupportedLimit);
  CHECK(cudaDeviceGetLimit(&value, cudaLimit(99)) == cudaErrorInvalidValue);
  CHECK(cudaDeviceSetLimit(cudaLimit(99), 1) == cudaErrorInvalidValue);
  REQUIRE(cudaDeviceSetLimit(cudaLimitStackSize, 1001) == cudaSuccess);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitStackSize) == cudaSuccess);
  CHECK(value == 1008);  // rounded up to 16 bytes, as measured
  REQUIRE(cudaDeviceSetLimit(cudaLimitStackSize, 4096) == cudaSuccess);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitStackSize) == cudaSuccess);
  CHECK(value == 4096);
  CHECK(cusim::fiber_stack_bytes() == 64 * 1024 + 16 * 4096);
  REQUIRE(cudaDeviceReset() == cudaSuccess);
  REQUIRE(cudaDeviceGetLimit(&value, cudaLimitStackSize) == cudaSuccess);
  CHECK(value == 1024);
}

TEST_CASE("device: one device, number 0", "[api][device][quick]") {
  int count = 0, device = -1;
  REQUIRE(cudaGetDeviceCount(&count) == cudaSuccess);
  CHECK(count == 1);
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  CHECK(device == 0);
  CHECK(cudaSetDevice(0) == cudaSuccess);
  CHECK(cudaSetDevice(1) == cudaErrorInvalidDevice);
  CHECK(cudaGetLastError() == cudaErrorInvalidDevice);
}

TEST_CASE("device: every profile is complete and self-consistent", "[api][device][profile][quick]") {
  for (const auto& p : cusim::profiles()) {
    INFO(p.id);
    CHECK(p.max_threads_per_multiprocessor % 32 == 0);
    CHECK(p.shared_mem_per_block <= p.shared_mem_per_block_optin);
    CHECK(p.shared_mem_per_block_optin + p.reserved_shared_mem_per_block <= p.shared_mem_per_multiprocessor);
    CHECK(p.multiprocessor_count > 0);
    CHECK(cusim::find_profile(p.id) == &p);
  }
}
