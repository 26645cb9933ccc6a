// Access patterns with known costs, for cusim-cc --check=banks:
// a 32x32 tile transposed through shared memory without padding (column
// reads: 32-way bank conflicts) and with it (none), a strided global read
// (4 sectors where 1 would do... per 8 lanes) and a coalesced one.
#include <cstdio>

constexpr int tile = 32;

__global__ void transpose_naive(const float* in, float* out) {
  __shared__ float t[tile][tile];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * tile + threadIdx.x];   // row write: no conflicts
  __syncthreads();
  out[threadIdx.y * tile + threadIdx.x] = t[threadIdx.x][threadIdx.y];  // column read: 32-way conflicts
}

__global__ void transpose_padded(const float* in, float* out) {
  __shared__ float t[tile][tile + 1];
  t[threadIdx.y][threadIdx.x] = in[threadIdx.y * tile + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * tile + threadIdx.x] = t[threadIdx.x][threadIdx.y];  // padded: no conflicts
}

__global__ void strided(const float* in, float* out) {
  const int i = threadIdx.x;
  out[i] = in[i * 8];  // each lane its own sector: 32 sectors for 128 bytes
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1024 * 8 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  cudaMemset(in, 0, 1024 * 8 * sizeof(float));
  transpose_naive<<<1, dim3(tile, tile)>>>(in, out);
  transpose_padded<<<1, dim3(tile, tile)>>>(in, out);
  strided<<<1, 32>>>(in, out);
  cudaDeviceSynchronize();
  std::printf("done\n");
  return 0;
}
