# 1 "dot.cu"
# 1 "<built-in>"
# 1 "dot.cu"
__constant__ float scale[1] = {2.0f};
template <int threads>
__global__ void dot(const float* a, const float* b, float* c, int n) {
  __shared__ float cache[threads];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  float temp = 0;
  while (tid < n) { temp += a[tid] * b[tid] * scale[0]; tid += blockDim.x * gridDim.x; }
  cache[threadIdx.x] = temp;
  __syncthreads();
  for (int i = blockDim.x / 2; i != 0; i >>= 1) {
    if (threadIdx.x < i) cache[threadIdx.x] += cache[threadIdx.x + i];
    __syncthreads();
  }
  if (threadIdx.x == 0) c[blockIdx.x] = cache[0];
}
int main() {
  float *a, *b, *c;
  cudaMalloc(&a, 1024);
  dot<256><<<32, 256>>>(a, b, c, 1024);
  cudaDeviceSynchronize();
}
