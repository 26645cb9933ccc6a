// The native serial loops the workloads are measured against (W1-W5): the
// work of the kernels, done by one plain C++ loop in the same process and
// compiled with the same flags. bench/w*.cu and pocl/pocl_bench.cpp both
// use them, so that cusim's and PoCL's ratios have the same baselines.
#pragma once

namespace {

void native_vector_add(const float* a, const float* b, float* c, int n) {
  for (int i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

float native_dot(const float* a, const float* b, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

float native_sum(const float* in, int n) {
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += in[i];
  return sum;
}

void native_matmul(const float* a, const float* b, float* c, int n) {
  for (int row = 0; row < n; ++row)
    for (int col = 0; col < n; ++col) {
      float sum = 0.0f;
      for (int k = 0; k < n; ++k) sum += a[row * n + k] * b[k * n + col];
      c[row * n + col] = sum;
    }
}

void native_histogram(const unsigned char* data, unsigned int* counts, int n) {
  for (int i = 0; i < n; ++i) ++counts[data[i]];
}

}  // namespace
