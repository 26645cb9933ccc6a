// Kernels that pun types through pointers: 128-bit packs loaded as uint4
// and their elements read and written as floats or halves (the idiom of
// vLLM's and SGLang's attention kernels, HeCBench's attentionMergeState).
// nvcc's device code keeps these writes; g++ at -O2 under strict aliasing
// stores the pack as it was before them. Built with -O3 (CMake); cusim-cc
// compiles with -fno-strict-aliasing.
#include <cstdio>
#include <cstring>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

__global__ void scale_packs(const float* in, float* out) {
  const uint4 packed = reinterpret_cast<const uint4*>(in)[threadIdx.x];
  uint4 result;
  for (int i = 0; i < 4; ++i) reinterpret_cast<float*>(&result)[i] = reinterpret_cast<const float*>(&packed)[i] * 2.f;
  reinterpret_cast<uint4*>(out)[threadIdx.x] = result;
}

__global__ void halves_in_a_pack(const __half* in, __half* out) {
  uint4 packed = reinterpret_cast<const uint4*>(in)[threadIdx.x];
  __half2* pairs = reinterpret_cast<__half2*>(&packed);
  for (int i = 0; i < 4; ++i) pairs[i] = __hadd2(pairs[i], __floats2half2_rn(1.f, 1.f));
  reinterpret_cast<uint4*>(out)[threadIdx.x] = packed;
}

__global__ void bits_of_floats(const float* in, unsigned* out) {
  float value = in[threadIdx.x];
  *reinterpret_cast<unsigned*>(&value) ^= 0x80000000u;  // the sign flipped through the bits
  out[threadIdx.x] = *reinterpret_cast<unsigned*>(&value);
}

int main() {
  constexpr int threads = 8;
  float *in, *out;
  __half *halves_in, *halves_out;
  unsigned* bits;
  cudaMallocManaged(&in, threads * 4 * sizeof(float));
  cudaMallocManaged(&out, threads * 4 * sizeof(float));
  cudaMallocManaged(&halves_in, threads * 8 * sizeof(__half));
  cudaMallocManaged(&halves_out, threads * 8 * sizeof(__half));
  cudaMallocManaged(&bits, threads * sizeof(unsigned));
  for (int i = 0; i < threads * 4; ++i) in[i] = float(i + 1);
  for (int i = 0; i < threads * 8; ++i) halves_in[i] = __float2half(float(i));
  scale_packs<<<1, threads>>>(in, out);
  halves_in_a_pack<<<1, threads>>>(halves_in, halves_out);
  bits_of_floats<<<1, threads>>>(in, bits);
  cudaDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < threads * 4; ++i) wrong += out[i] != 2.f * float(i + 1);
  std::printf("floats written into uint4 packs: %s\n", wrong == 0 ? "right" : "WRONG");
  int wrong_halves = 0;
  for (int i = 0; i < threads * 8; ++i) wrong_halves += __half2float(halves_out[i]) != float(i) + 1.f;
  std::printf("half2 pairs written into uint4 packs: %s\n", wrong_halves == 0 ? "right" : "WRONG");
  int wrong_bits = 0;
  for (int i = 0; i < threads; ++i) {
    const float flipped = -in[i];
    unsigned expected;
    std::memcpy(&expected, &flipped, sizeof expected);
    wrong_bits += bits[i] != expected;
  }
  std::printf("a float's bits written as unsigned: %s\n", wrong_bits == 0 ? "right" : "WRONG");
  std::printf(wrong + wrong_halves + wrong_bits == 0 ? "PASSED\n" : "FAILED\n");
  return wrong + wrong_halves + wrong_bits == 0 ? 0 : 1;
}
