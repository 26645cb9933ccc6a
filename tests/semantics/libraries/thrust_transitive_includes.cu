// Names that nvcc's Thrust (CCCL) declares through headers the program did
// not include, as programs written against it use them: thrust::device and
// thrust::minmax_element after <thrust/sort.h> (HeCBench's logic-rewrite,
// tsne-cuda), thrust::sequence after <thrust/partition.h>. cusim's Thrust
// is Debian's 1.17, whose headers bring fewer; include/cuda/thrust/ adds
// what CCCL's bring (scripts/thrust-transitive-includes.sh). nvcc builds it.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/partition.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

struct is_even {
  __host__ __device__ bool operator()(int x) const { return x % 2 == 0; }
};

int main() {
  thrust::device_vector<int> v(6);
  thrust::sequence(v.begin(), v.end(), 1);
  thrust::inclusive_scan(thrust::device, v.begin(), v.end(), v.begin());
  const auto extremes = thrust::minmax_element(v.begin(), v.end());
  const auto evens = thrust::count_if(thrust::device, v.begin(), v.end(), is_even());
  std::printf("scan of 1..6: min %d, max %d, %d even\n", static_cast<int>(*extremes.first),
              static_cast<int>(*extremes.second), static_cast<int>(evens));
  const bool passed = *extremes.first == 1 && *extremes.second == 21 && evens == 2;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
