// cudaMemPoolSetAccess and cudaMemPoolGetAccess on one device, and
// cudaGetChannelDesc: what each answers for what a program may ask,
// compared with an H100's answers by diff.memory.pool_access.
#include <cstdio>
#include <cuda_runtime.h>

namespace {

void set(const char* what, cudaMemPool_t pool, cudaMemLocationType type, int id, cudaMemAccessFlags flags) {
  cudaMemAccessDesc access{};
  access.location.type = type;
  access.location.id = id;
  access.flags = flags;
  const cudaError_t e = cudaMemPoolSetAccess(pool, &access, 1);
  std::printf("set %s: %s\n", what, cudaGetErrorName(e));
  cudaGetLastError();
}

void get(const char* what, cudaMemPool_t pool, cudaMemLocationType type, int id) {
  cudaMemLocation location{};
  location.type = type;
  location.id = id;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  const cudaError_t e = cudaMemPoolGetAccess(&flags, pool, &location);
  std::printf("get %s: %s flags %d\n", what, cudaGetErrorName(e), int(flags));
  cudaGetLastError();
}

void probe(const char* name, cudaMemPool_t pool) {
  std::printf("-- %s\n", name);
  get("own device", pool, cudaMemLocationTypeDevice, 0);
  set("own device read-write", pool, cudaMemLocationTypeDevice, 0, cudaMemAccessFlagsProtReadWrite);
  set("own device read", pool, cudaMemLocationTypeDevice, 0, cudaMemAccessFlagsProtRead);
  set("own device none", pool, cudaMemLocationTypeDevice, 0, cudaMemAccessFlagsProtNone);
  get("own device after", pool, cudaMemLocationTypeDevice, 0);
  set("device 1", pool, cudaMemLocationTypeDevice, 1, cudaMemAccessFlagsProtReadWrite);
  set("device -1", pool, cudaMemLocationTypeDevice, -1, cudaMemAccessFlagsProtReadWrite);
  set("host", pool, cudaMemLocationTypeHost, 0, cudaMemAccessFlagsProtReadWrite);
  set("invalid location type", pool, cudaMemLocationTypeInvalid, 0, cudaMemAccessFlagsProtReadWrite);
  set("flags 2", pool, cudaMemLocationTypeDevice, 0, cudaMemAccessFlags(2));
  get("device 1", pool, cudaMemLocationTypeDevice, 1);
  get("host", pool, cudaMemLocationTypeHost, 0);
  std::printf("set none: %s\n", cudaGetErrorName(cudaMemPoolSetAccess(pool, nullptr, 0)));
  cudaGetLastError();
}

}  // namespace

int main() {
  // (Null pointers are left out: the H200's driver dereferences them.)
  std::setvbuf(stdout, nullptr, _IONBF, 0);
  cudaMemPool_t default_pool;
  cudaDeviceGetDefaultMemPool(&default_pool, 0);
  probe("default pool", default_pool);
  cudaMemPoolProps props{};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  std::printf("create: %s\n", cudaGetErrorName(cudaMemPoolCreate(&pool, &props)));
  probe("created pool", pool);
  // An allocation from the pool still works after the calls.
  int* p = nullptr;
  std::printf("alloc: %s\n", cudaGetErrorName(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), 256, pool, 0)));
  std::printf("free: %s\n", cudaGetErrorName(cudaFreeAsync(p, 0)));
  cudaStreamSynchronize(0);
  std::printf("destroy: %s\n", cudaGetErrorName(cudaMemPoolDestroy(pool)));

  std::printf("-- channel descriptors\n");
  const cudaChannelFormatDesc float4_desc = cudaCreateChannelDesc<float4>();
  cudaArray_t array;
  cudaMallocArray(&array, &float4_desc, 16, 8);
  cudaChannelFormatDesc read{};
  const cudaError_t e = cudaGetChannelDesc(&read, array);
  std::printf("array: %s %d %d %d %d kind %d\n", cudaGetErrorName(e), read.x, read.y, read.z, read.w, int(read.f));
  cudaFreeArray(array);
  return 0;
}
