// Runs a test body under several engine shapes (workers x resident blocks),
// restoring the defaults afterwards: scheduler behaviour must not depend on
// how many OS threads or resident blocks there are.
#pragma once
#include <catch2/catch.hpp>
#include <cuda_runtime.h>
#include <cusim/profile.hpp>
#include <cusim/runtime.hpp>

#include "runtime/errors.hpp"

struct engine_shape {
  engine_shape(unsigned int workers, unsigned int resident) {
    cusim::set_worker_count(workers);
    cusim::set_resident_blocks_per_worker(resident);
  }
  ~engine_shape() {
    cusim::set_worker_count(0);
    cusim::set_resident_blocks_per_worker(0);
    cudaDeviceReset();
    // A test that faulted a kernel would leave the device unavailable for the
    // rest of the process, as CUDA 13 does; the suite starts each test afresh.
    cusim::detail::forget_device_fault_for_tests();
  }
};

#define CUSIM_ENGINE_SHAPES()                                        \
  const unsigned int workers = GENERATE(1u, 2u, 4u);                 \
  const unsigned int resident = GENERATE(1u, 3u);                    \
  CAPTURE(workers, resident);                                        \
  engine_shape shape_guard_(workers, resident)

// Device memory that is freed at scope exit.
template <class T>
struct device_buffer {
  explicit device_buffer(std::size_t n) : count(n) { REQUIRE(cudaMallocManaged(&data, n * sizeof(T)) == cudaSuccess); }
  ~device_buffer() { cudaFree(data); }
  T& operator[](std::size_t i) { return data[i]; }
  T* data = nullptr;
  std::size_t count;
};
