// clang's marks on __shared__ uses in a file whose kernel bodies come from
// the device pass (it mentions __CUDA_ARCH__): the marks come from clang's
// parse of that pass, and meet the merged text by file and line.
#include <cstdio>

__global__ void sums(int* out) {
#if __CUDA_ARCH__ >= 700
  __shared__ int total;
  // CHECK: static constexpr ::cusim::detail::local_shared_view<::std::type_identity_t<int>> total{&cusim_shared_site_0};
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  auto add = [](int v) { atomicAdd(&total, v); };
  // CHECK: auto add = [](int v) { atomicAdd(&total.get(), v); };
  add(static_cast<int>(threadIdx.x));
  __syncthreads();
  if (threadIdx.x == 0) *out = total;
#else
  *out = -1;
#endif
}

int main() {
  int* d;
  cudaMallocManaged(&d, sizeof(int));
  sums<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  printf("total %d\n", *d);
  // OUTPUT: total 2016
}
