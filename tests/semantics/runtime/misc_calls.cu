// Runtime calls around the device: shared memory bank configuration, device
// choice, PCI bus ids, a kernel's name. Prints the answers (compared with an
// H100's) and checks what must hold anywhere.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void named_kernel(int* p) { *p = 1; }

int main() {
  bool ok = true;
  cudaSharedMemConfig config = cudaSharedMemBankSizeDefault;
  std::printf("set bank size: %s\n", cudaGetErrorName(cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte)));
  cudaDeviceGetSharedMemConfig(&config);
  std::printf("bank size config: %d\n", int(config));
  cudaDeviceProp wish{};
  wish.major = 7;
  int chosen = -1;
  ok &= cudaChooseDevice(&chosen, &wish) == cudaSuccess && chosen == 0;
  char bus[32] = {};
  ok &= cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess;
  std::printf("PCI bus id has %zu characters, domain %.8s\n", std::strlen(bus), bus);
  ok &= std::strlen(bus) == 12 && bus[4] == ':' && bus[7] == ':';  // dddd:bb:dd.f, as an H100 prints it
  int found = -1;
  ok &= cudaDeviceGetByPCIBusId(&found, bus) == cudaSuccess && found == 0;
  const char* name = nullptr;
  // CUDA gives the mangled name (_Z12named_kernelPi), cusim the source name.
  const cudaError_t e = cudaFuncGetName(&name, named_kernel);
  std::printf("kernel name: %s %s\n", cudaGetErrorName(e), name != nullptr ? name : "(null)");
  ok &= e == cudaSuccess && name != nullptr && std::strstr(name, "named_kernel") != nullptr;
  std::printf("runtime calls: %s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
