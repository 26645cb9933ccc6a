// Two devices (cusim: CUSIM_DEVICES=2): the current device per host thread,
// memory counted per device, each device's own legacy default stream and
// synchronisation, streams and events bound to their device, peer access and
// peer copies. The output was recorded on two H200s
// (tests/data/h200x2-runtime-multi_device.txt) and cusim must print the same.
#include <cstdio>
#include <thread>
#include <cuda_runtime.h>

__global__ void wait_until(volatile int* flag, int value) {
  while (*flag < value) __nanosleep(1000);
}
__global__ void fill(int* data, int value) { data[threadIdx.x] = value + threadIdx.x; }

// The host releases a kernel that polls the flag: on a GPU (and on cusim) a
// volatile store does it. ThreadSanitizer, in cusim's own TSan test build,
// would call that a race: the store is kept out of its sight.
__attribute__((no_sanitize_thread)) void release_flag(volatile int* flag) { *flag = 1; }

#define SHOW(call) std::printf("%s: %s\n", #call, cudaGetErrorName(call))

int main() {
  std::setvbuf(stdout, nullptr, _IONBF, 0);  // all of it, whatever happens
  int count = 0;
  SHOW(cudaGetDeviceCount(&count));
  std::printf("devices: %d\n", count < 2 ? count : 2);
  if (count < 2) return 1;
  // Load the kernels on both devices first (lazy loading would wait for running kernels).
  cudaFuncAttributes attributes;
  for (int d = 0; d < 2; ++d) {
    cudaSetDevice(d);
    cudaFuncGetAttributes(&attributes, wait_until);
    cudaFuncGetAttributes(&attributes, fill);
  }
  SHOW(cudaSetDevice(2));
  cudaGetLastError();
  SHOW(cudaSetDevice(-1));
  cudaGetLastError();
  SHOW(cudaSetDevice(1));
  int current = -1;
  cudaGetDevice(&current);
  std::printf("current after cudaSetDevice(1): %d\n", current);
  std::thread([] {
    int other = -1;
    cudaGetDevice(&other);
    std::printf("a new host thread starts on device %d\n", other);
  }).join();

  // Memory is counted per device.
  size_t free0_before, free1_before, free0_after, free1_after, total;
  cudaSetDevice(0);
  cudaMemGetInfo(&free0_before, &total);
  cudaSetDevice(1);
  cudaMemGetInfo(&free1_before, &total);
  int* on1;
  SHOW(cudaMalloc(&on1, 64 << 20));
  cudaMemGetInfo(&free1_after, &total);
  cudaSetDevice(0);
  cudaMemGetInfo(&free0_after, &total);
  std::printf("device 1 lost at least 64 MiB: %d; device 0 lost none: %d\n",
              free1_before - free1_after >= (64u << 20), free0_before - free0_after < (2u << 20));
  cudaPointerAttributes where{};
  SHOW(cudaPointerGetAttributes(&where, on1));
  std::printf("allocation made on device 1 reports device %d, type %d\n", where.device, int(where.type));
  int* on0;
  cudaMalloc(&on0, 256 * sizeof(int));

  // Peer access.
  int can = -1;
  SHOW(cudaDeviceCanAccessPeer(&can, 0, 1));
  std::printf("0 can access 1: %d\n", can);
  SHOW(cudaDeviceCanAccessPeer(&can, 0, 0));
  std::printf("0 can access 0: %d\n", can);
  SHOW(cudaDeviceDisablePeerAccess(1));
  cudaGetLastError();
  SHOW(cudaDeviceEnablePeerAccess(1, 0));
  SHOW(cudaDeviceEnablePeerAccess(1, 0));
  cudaGetLastError();
  SHOW(cudaDeviceEnablePeerAccess(0, 0));
  cudaGetLastError();
  SHOW(cudaDeviceDisablePeerAccess(1));

  // Peer copies: device 1's buffer filled there, copied to device 0.
  cudaSetDevice(1);
  fill<<<1, 256>>>(on1, 1000);
  SHOW(cudaMemcpyPeer(on0, 0, on1, 1, 256 * sizeof(int)));
  int host[256];
  cudaSetDevice(0);
  SHOW(cudaMemcpy(host, on0, sizeof host, cudaMemcpyDeviceToHost));
  std::printf("peer copy: %d %d %d\n", host[0], host[1], host[255]);

  // Streams belong to the device current at their creation; a launch into
  // another device's stream runs there (measured on the H200s: CUDA 13 takes it).
  cudaStream_t stream1;
  cudaSetDevice(1);
  cudaStreamCreate(&stream1);
  cudaSetDevice(0);
  fill<<<1, 32, 0, stream1>>>(on1, 5);
  std::printf("launch on device 0 into a device 1 stream: %s\n", cudaGetErrorName(cudaGetLastError()));
  SHOW(cudaMemcpyAsync(host, on1, sizeof(int), cudaMemcpyDeviceToHost, stream1));
  SHOW(cudaStreamSynchronize(stream1));
  std::printf("the launch ran on device 1: %d\n", host[0]);
  cudaEvent_t event0;
  cudaEventCreate(&event0);
  SHOW(cudaEventRecord(event0, stream1));
  cudaGetLastError();

  // Each device has its own legacy default stream, and cudaDeviceSynchronize
  // waits for its own device only.
  int* flag;
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable);
  *flag = 0;
  cudaSetDevice(0);
  wait_until<<<1, 1>>>(flag, 1);
  cudaSetDevice(1);
  fill<<<1, 32>>>(on1, 7);
  SHOW(cudaDeviceSynchronize());
  SHOW(cudaStreamQuery(0));
  cudaSetDevice(0);
  SHOW(cudaStreamQuery(0));
  release_flag(flag);
  SHOW(cudaDeviceSynchronize());
  SHOW(cudaStreamQuery(0));

  cudaEventDestroy(event0);
  cudaStreamDestroy(stream1);
  cudaFree(on0);
  cudaSetDevice(1);
  cudaFree(on1);
  cudaFreeHost(flag);
  std::printf("done\n");
  return 0;
}
