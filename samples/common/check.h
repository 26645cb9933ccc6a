// CHECK(call): every CUDA runtime call returns a cudaError_t. A program that
// ignores it learns of a bad launch or a kernel fault only from wrong
// results, so the samples wrap each call: on failure, print where and why,
// and leave main() with status 1.
#pragma once
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t err_ = (call);                                                           \
    if (err_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)
