__global__ void k(float* out) {
  __shared__ float cache[256];
  __shared__ int a[4], *b, c;
  static __shared__ volatile int v[4];
  const __shared__ int ci;
  __shared__ float tile[16][17];
  __shared__ unsigned long long counter;
  __shared__ std::array<int, 4> arr;
  __shared__ struct { int x; } anon;
  __shared__ float
    multi_line[32];
  __shared__ int two_d[2][2] , three;
  __shared__ float* ptrs[8];
}
