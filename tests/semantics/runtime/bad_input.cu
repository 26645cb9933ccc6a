// Bad input to the runtime API: each case makes one bad call and prints
// what it returned, what cudaGetLastError says after it, and whether the
// context still works (a cudaMalloc and a synchronize).
//   bad_input <case>      one case (no argument: lists them)
//   bad_input all         every case whose outcome CUDA defines, in order
// The answers an H100 gave to `all` are tests/golden/bad_input.all.txt. The
// cases marked undefined crashed the H100's runtime (a segmentation fault):
// cusim answers them with an error instead.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

namespace {

__global__ void touch(int* p) { p[threadIdx.x] = 1; }

int* device_int() {
  int* p = nullptr;
  cudaMalloc(&p, sizeof(int));
  return p;
}

struct bad_call {
  const char* name;
  cudaError_t (*call)();
  bool undefined = false;  // CUDA's runtime may crash: not in `all`
};

int host_value = 0;

const bad_call cases[] = {
    {"memcpy_null_destination", [] { return cudaMemcpy(nullptr, device_int(), 4, cudaMemcpyDeviceToHost); }},
    {"memcpy_null_source", [] { return cudaMemcpy(device_int(), nullptr, 4, cudaMemcpyHostToDevice); }},
    {"memcpy_bad_kind", [] { return cudaMemcpy(&host_value, device_int(), 4, static_cast<cudaMemcpyKind>(7)); }},
    {"memcpy_past_the_end", [] {
       static char host[1024];
       return cudaMemcpy(host, device_int(), sizeof host, cudaMemcpyDeviceToHost);
     }},
    {"memcpy_zero_bytes_null", [] { return cudaMemcpy(nullptr, nullptr, 0, cudaMemcpyDeviceToHost); }},
    {"memset_host_pointer", [] { return cudaMemset(&host_value, 0, sizeof host_value); }},
    {"memset_past_the_end", [] { return cudaMemset(device_int(), 0, 1 << 20); }},
    {"malloc_null_result", [] { return cudaMalloc(nullptr, 4); }},
    {"malloc_more_than_memory", [] {
       void* p = nullptr;
       return cudaMalloc(&p, std::size_t{1} << 50);
     }},
    {"malloc_size_max", [] {
       void* p = nullptr;
       return cudaMalloc(&p, SIZE_MAX);
     }},
    {"malloc_zero_bytes", [] {
       void* p = &host_value;
       const cudaError_t e = cudaMalloc(&p, 0);
       std::printf("(pointer %s) ", p == nullptr ? "null" : "set");
       return e;
     }},
    {"free_null", [] { return cudaFree(nullptr); }},
    {"free_twice", [] {
       int* p = device_int();
       cudaFree(p);
       return cudaFree(p);
     }},
    {"free_host_pointer", [] { return cudaFree(&host_value); }},
    {"free_inside_allocation", [] {
       char* p = nullptr;
       cudaMalloc(&p, 1024);
       return cudaFree(p + 16);
     }},
    {"free_host_with_cudaFreeHost", [] { return cudaFreeHost(&host_value); }},
    {"set_device_out_of_range", [] { return cudaSetDevice(99); }},
    {"device_properties_null", [] { return cudaGetDeviceProperties(nullptr, 0); }},
    {"stream_create_null", [] { return cudaStreamCreate(nullptr); }},
    {"event_elapsed_unrecorded", [] {
       cudaEvent_t a, b;
       cudaEventCreate(&a);
       cudaEventCreate(&b);
       float ms = 0;
       return cudaEventElapsedTime(&ms, a, b);
     }},
    {"event_query_unrecorded", [] {
       cudaEvent_t e;
       cudaEventCreate(&e);
       return cudaEventQuery(e);
     }},
    {"event_elapsed_without_timing", [] {
       cudaEvent_t a, b;
       cudaEventCreateWithFlags(&a, cudaEventDisableTiming);
       cudaEventCreateWithFlags(&b, cudaEventDisableTiming);
       cudaEventRecord(a);
       cudaEventRecord(b);
       cudaEventSynchronize(b);
       float ms = 0;
       return cudaEventElapsedTime(&ms, a, b);
     }},
    {"stream_used_after_destroy", [] {
       cudaStream_t s;
       cudaStreamCreate(&s);
       cudaStreamDestroy(s);
       return cudaStreamSynchronize(s);
     }, true},
    {"event_used_after_destroy", [] {
       cudaEvent_t e;
       cudaEventCreate(&e);
       cudaEventDestroy(e);
       return cudaEventRecord(e);
     }, true},
    {"launch_block_too_large", [] {
       touch<<<1, 2048>>>(device_int());
       return cudaGetLastError();
     }},
    {"launch_zero_blocks", [] {
       touch<<<0, 32>>>(device_int());
       return cudaGetLastError();
     }},
    {"launch_shared_too_large", [] {
       touch<<<1, 32, 1 << 20>>>(device_int());
       return cudaGetLastError();
     }},
};

void run(const bad_call& c) {
  std::printf("%s: ", c.name);
  const cudaError_t result = c.call();
  const cudaError_t last = cudaGetLastError();
  std::printf("returns %s, last error %s", cudaGetErrorName(result), cudaGetErrorName(last));
  int* p = nullptr;
  const cudaError_t malloc_after = cudaMalloc(&p, sizeof(int));
  std::printf(", then cudaMalloc %s, synchronize %s\n", cudaGetErrorName(malloc_after),
              cudaGetErrorName(cudaDeviceSynchronize()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    for (const bad_call& c : cases) std::printf("%s%s\n", c.name, c.undefined ? " (undefined in CUDA)" : "");
    return 0;
  }
  const bool all = std::strcmp(argv[1], "all") == 0;
  bool found = false;
  for (const bad_call& c : cases) {
    if (all ? c.undefined : std::strcmp(c.name, argv[1]) != 0) continue;
    run(c);
    found = true;
  }
  if (!found) std::printf("no case %s\n", argv[1]);
  return found ? 0 : 2;
}
