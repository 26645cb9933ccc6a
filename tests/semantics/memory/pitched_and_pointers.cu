// Pitched 2D/3D memory and copies, symbol copies in a stream, stream-ordered
// allocation, pointer attributes, registered host memory, peers and device
// flags. Prints what the runtime answers (compared with an H100) and checks
// the data.
#include <cstdio>
#include <cstdlib>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

__device__ int symbol[4];

__global__ void add_row_index(float* data, size_t pitch, int width, int height) {
  const int x = threadIdx.x, y = blockIdx.x;
  if (x < width && y < height) {
    float* row = reinterpret_cast<float*>(reinterpret_cast<char*>(data) + y * pitch);
    row[x] += float(y);
  }
}

int failures = 0;
void expect(const char* what, long long got, long long want) {
  if (got == want) return;
  if (++failures <= 20) std::printf("  %s: got %lld, expected %lld\n", what, got, want);
}

int main() {
  expect("profiler start", cudaProfilerStart(), cudaSuccess);
  // 2D: 100 floats by 8 rows.
  const int width = 100, height = 8;
  float* pitched;
  size_t pitch = 0;
  expect("cudaMallocPitch", cudaMallocPitch((void**)&pitched, &pitch, width * sizeof(float), height), cudaSuccess);
  std::printf("pitch of a %zu-byte row: %zu\n", width * sizeof(float), pitch);
  float host[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) host[y][x] = float(x);
  expect("2D to device", cudaMemcpy2D(pitched, pitch, host, width * sizeof(float), width * sizeof(float), height,
                                      cudaMemcpyHostToDevice), cudaSuccess);
  add_row_index<<<height, 128>>>(pitched, pitch, width, height);
  expect("2D back", cudaMemcpy2D(host, width * sizeof(float), pitched, pitch, width * sizeof(float), height,
                                 cudaMemcpyDeviceToHost), cudaSuccess);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) expect("2D element", (long long)host[y][x], x + y);
  expect("2D set", cudaMemset2D(pitched, pitch, 0, width * sizeof(float), 2), cudaSuccess);
  expect("2D back", cudaMemcpy2DAsync(host, width * sizeof(float), pitched, pitch, width * sizeof(float), height,
                                      cudaMemcpyDeviceToHost, 0), cudaSuccess);
  cudaDeviceSynchronize();
  expect("set rows are zero", (long long)host[1][50], 0);
  expect("others are not", (long long)host[2][50], 52);
  std::printf("2D copy with a pitch narrower than the row: %s\n",
              cudaGetErrorName(cudaMemcpy2D(pitched, 16, host, width * sizeof(float), width * sizeof(float), height,
                                            cudaMemcpyHostToDevice)));
  cudaGetLastError();

  // 3D: 16 x 4 x 3 bytes.
  cudaExtent extent = make_cudaExtent(16, 4, 3);
  cudaPitchedPtr volume;
  expect("cudaMalloc3D", cudaMalloc3D(&volume, extent), cudaSuccess);
  std::printf("3D pitch %zu, xsize %zu, ysize %zu\n", volume.pitch, volume.xsize, volume.ysize);
  unsigned char cube[3][4][16];
  for (int z = 0; z < 3; ++z)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 16; ++x) cube[z][y][x] = (unsigned char)(x + 16 * y + 64 * z);
  cudaMemcpy3DParms to{};
  to.srcPtr = make_cudaPitchedPtr(cube, 16, 16, 4);
  to.dstPtr = volume;
  to.extent = extent;
  to.kind = cudaMemcpyHostToDevice;
  expect("3D to device", cudaMemcpy3D(&to), cudaSuccess);
  expect("3D set", cudaMemset3D(volume, 7, make_cudaExtent(16, 1, 1)), cudaSuccess);
  unsigned char back[3][4][16] = {};
  cudaMemcpy3DParms from{};
  from.srcPtr = volume;
  from.dstPtr = make_cudaPitchedPtr(back, 16, 16, 4);
  from.extent = extent;
  from.kind = cudaMemcpyDeviceToHost;
  expect("3D back", cudaMemcpy3D(&from), cudaSuccess);
  expect("3D set row", back[0][0][5], 7);
  expect("3D element", back[2][3][15], (unsigned char)(15 + 48 + 128));

  // Symbols in a stream, and stream-ordered allocation.
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int* pinned;
  cudaMallocHost(&pinned, 4 * sizeof(int));
  for (int i = 0; i < 4; ++i) pinned[i] = 10 + i;
  expect("to symbol async", cudaMemcpyToSymbolAsync(symbol, pinned, sizeof(symbol), 0, cudaMemcpyHostToDevice, stream),
         cudaSuccess);
  int* scratch = nullptr;
  expect("malloc async", cudaMallocAsync((void**)&scratch, 4 * sizeof(int), stream), cudaSuccess);
  expect("copy into it", cudaMemcpyAsync(scratch, pinned, 4 * sizeof(int), cudaMemcpyHostToDevice, stream),
         cudaSuccess);
  expect("free async", cudaFreeAsync(scratch, stream), cudaSuccess);
  // The copies read `pinned` asynchronously: the host may write it only
  // after the stream has run them (ThreadSanitizer builds catch a write
  // before, as a race with the device thread).
  expect("synchronize", cudaStreamSynchronize(stream), cudaSuccess);
  for (int i = 0; i < 4; ++i) pinned[i] = 0;
  expect("from symbol async", cudaMemcpyFromSymbolAsync(pinned, symbol, sizeof(symbol), 0, cudaMemcpyDeviceToHost,
                                                        stream), cudaSuccess);
  cudaStreamSynchronize(stream);
  expect("symbol round trip", pinned[3], 13);

  // Pointer attributes.
  int* device;
  int* managed;
  cudaMalloc(&device, 64);
  cudaMallocManaged(&managed, 64);
  int* plain = static_cast<int*>(std::malloc(4096));
  const void* pointers[] = {device, managed, pinned, plain};
  const char* names[] = {"cudaMalloc", "cudaMallocManaged", "cudaMallocHost", "malloc"};
  for (int i = 0; i < 4; ++i) {
    cudaPointerAttributes a{};
    const cudaError_t e = cudaPointerGetAttributes(&a, pointers[i]);
    std::printf("%-18s %s type %d device %d device pointer %s host pointer %s\n", names[i], cudaGetErrorName(e),
                int(a.type), a.device, a.devicePointer == pointers[i] ? "same" : a.devicePointer ? "other" : "null",
                a.hostPointer == pointers[i] ? "same" : a.hostPointer ? "other" : "null");
  }
  expect("register", cudaHostRegister(plain, 4096, cudaHostRegisterDefault), cudaSuccess);
  std::printf("register twice: %s\n", cudaGetErrorName(cudaHostRegister(plain, 4096, cudaHostRegisterDefault)));
  cudaGetLastError();
  cudaPointerAttributes registered{};
  cudaPointerGetAttributes(&registered, plain);
  std::printf("registered host memory: type %d\n", int(registered.type));
  void* mapped = nullptr;
  expect("device pointer of registered memory", cudaHostGetDevicePointer(&mapped, plain, 0), cudaSuccess);
  expect("same address", mapped == plain, 1);
  expect("unregister", cudaHostUnregister(plain), cudaSuccess);
  std::printf("unregister again: %s\n", cudaGetErrorName(cudaHostUnregister(plain)));
  cudaGetLastError();

  // One device: no peers.
  int can = -1;
  const cudaError_t peer = cudaDeviceCanAccessPeer(&can, 0, 0);
  std::printf("can access peer 0 -> 0: %s, %d\n", cudaGetErrorName(peer), can);
  std::printf("enable peer access to itself: %s\n", cudaGetErrorName(cudaDeviceEnablePeerAccess(0, 0)));
  cudaGetLastError();
  std::printf("disable peer access to itself: %s\n", cudaGetErrorName(cudaDeviceDisablePeerAccess(0)));
  cudaGetLastError();
  expect("peer copy", cudaMemcpyPeer(managed, 0, device, 0, 64), cudaSuccess);
  unsigned int flags = 0;
  cudaGetDeviceFlags(&flags);
  std::printf("device flags: %#x\n", flags);

  expect("profiler stop", cudaProfilerStop(), cudaSuccess);
  std::free(plain);
  cudaFree(device);
  cudaFree(managed);
  cudaFree(pitched);
  cudaFree(volume.ptr);
  cudaFreeHost(pinned);
  cudaStreamDestroy(stream);
  std::printf("pitched memory and pointers: %d failures: %s\n", failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
