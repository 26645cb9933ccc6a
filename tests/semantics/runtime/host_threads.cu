// The runtime under concurrent use, and a short soak: several host threads
// at once, each with streams of its own on alternating devices, launch
// kernels of random shapes (seeded), copy in and out asynchronously, record
// and time events, queue host callbacks and synchronise, round after round.
// Every result is checked, every callback counted, and the process's peak
// memory must not grow much after the first quarter of the rounds. Under
// ThreadSanitizer (the sanitizer builds of the test suite) it checks the
// runtime's own locking.
//   host_threads [threads] [rounds]      (default 4 threads, 40 rounds)
// Run with CUSIM_DEVICES=2 to spread the threads over two devices.
#include <sys/resource.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

namespace {

__global__ void scale_add(const int* in, int* out, int n, int factor, int offset) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    out[i] = in[i] * factor + offset;
  }
}

std::atomic<int> callbacks{0};
std::atomic<int> failures{0};

void CUDART_CB count_callback(void* data) {
  static_cast<std::atomic<int>*>(data)->fetch_add(1);
}

long peak_kib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

void fail(int thread, int round, const char* what, cudaError_t e) {
  std::printf("thread %d round %d: %s: %s\n", thread, round, what, cudaGetErrorName(e));
  failures.fetch_add(1);
}

// One host thread's rounds on device `device`.
void work(int thread, int device, int rounds) {
  if (cudaError_t e = cudaSetDevice(device)) return fail(thread, -1, "cudaSetDevice", e);
  std::mt19937 random(1234u + static_cast<unsigned>(thread));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  for (int round = 0; round < rounds; ++round) {
    const int n = 1 + static_cast<int>(random() % 5000);
    const int blocks = 1 + static_cast<int>(random() % 8);
    const int threads = 32 * (1 + static_cast<int>(random() % 8));
    const int factor = static_cast<int>(random() % 7) - 3, offset = static_cast<int>(random() % 100);
    std::vector<int> in(n), out(n, 0);
    for (int i = 0; i < n; ++i) in[i] = i ^ thread;
    int *d_in = nullptr, *d_out = nullptr;
    if (cudaError_t e = cudaMalloc(&d_in, n * sizeof(int))) return fail(thread, round, "cudaMalloc", e);
    if (cudaError_t e = cudaMalloc(&d_out, n * sizeof(int))) return fail(thread, round, "cudaMalloc", e);
    cudaMemcpyAsync(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice, stream);
    cudaEventRecord(start, stream);
    scale_add<<<blocks, threads, 0, stream>>>(d_in, d_out, n, factor, offset);
    if (cudaError_t e = cudaGetLastError()) fail(thread, round, "launch", e);
    cudaEventRecord(stop, stream);
    cudaLaunchHostFunc(stream, count_callback, &callbacks);
    cudaMemcpyAsync(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost, stream);
    if (cudaError_t e = cudaStreamSynchronize(stream)) fail(thread, round, "cudaStreamSynchronize", e);
    float ms = -1;
    if (cudaError_t e = cudaEventElapsedTime(&ms, start, stop); e != cudaSuccess || ms < 0) {
      fail(thread, round, "cudaEventElapsedTime", e);
    }
    for (int i = 0; i < n; ++i) {
      if (out[i] != in[i] * factor + offset) {
        std::printf("thread %d round %d: out[%d] = %d, expected %d\n", thread, round, i, out[i], in[i] * factor + offset);
        failures.fetch_add(1);
        break;
      }
    }
    cudaFree(d_in);
    cudaFree(d_out);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
}

}  // namespace

int main(int argc, char** argv) {
  const int thread_count = argc > 1 ? std::atoi(argv[1]) : 4;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 40;
  int devices = 1;
  cudaGetDeviceCount(&devices);
  // The first rounds make what the runtime keeps (pools, device threads);
  // the rest must not add to the peak.
  const auto run_all = [&](int count) {
    std::vector<std::thread> threads;
    for (int t = 0; t < thread_count; ++t) threads.emplace_back(work, t, t % devices, count);
    for (auto& t : threads) t.join();
  };
  run_all(rounds / 4);
  const long warm = peak_kib();
  run_all(rounds - rounds / 4);
  const long after = peak_kib();
  const int expected = thread_count * rounds;
  std::printf("%d threads, %d rounds each, on %d device(s): %d failures, %d of %d callbacks\n", thread_count, rounds,
              devices, failures.load(), callbacks.load(), expected);
  // Sanitizer builds keep growing a little on their own (ASan: a few MiB);
  // ThreadSanitizer's shadow and history grow with how the threads happened
  // to interleave (by half under a loaded CI machine), so there the bound
  // says nothing about cusim and is not checked.
#if defined(__SANITIZE_THREAD__)
  constexpr bool check_bound = false;
#else
  constexpr bool check_bound = true;
#endif
  const bool bounded = !check_bound || after <= warm + warm / 2 + 8192;
  std::printf("peak memory %s (%ld KiB after the first quarter, %ld KiB at the end)\n",
              !check_bound ? "not checked under ThreadSanitizer" : bounded ? "bounded" : "GROWS", warm, after);
  const bool passed = failures.load() == 0 && callbacks.load() == expected && bounded;
  std::printf("%s\n", passed ? "PASSED" : "FAILED");
  return passed ? 0 : 1;
}
