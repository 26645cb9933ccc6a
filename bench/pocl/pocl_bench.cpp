// The five workloads of bench/w*.cu (issue 11) as OpenCL kernels run by PoCL
// (OpenCL on the CPU), so that issue 25's table can set PoCL beside cusim on
// the same machine. Same sizes, work-group shapes, inputs, kernels and native
// loops as the .cu files; each kernel is timed from its enqueue to clFinish,
// the median of --repeat runs after one warm-up run (which also absorbs
// PoCL's compilation of the kernel for its work-group size), and its result
// is checked against the native loop's exactly.
//
//   pocl_bench [--workers N] [--repeat R] [--quick]
//
//   --workers N  PoCL's pthread device threads (default 1: the ratios are per
//                core), set as POCL_MAX_PTHREAD_COUNT before PoCL starts
//   --repeat R   timed runs after the warm-up; the median is reported (default 5)
//   --quick      the .cu files' small sizes and one timed run
//
// Prints bench_common.hpp's lines with "pocl_ms" for "cusim_ms"; exits with 1
// when a result differs from the native loop's, never because of a time.
// Built by the Makefile here, not by CMake: see docs/performance.md,
// "PoCL side by side".
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../bench_timing.hpp"
#include "../native_loops.hpp"

namespace {

// The kernels, OpenCL C 1.2, one per workload; each mirrors its .cu kernel
// line by line (blockIdx.x * blockDim.x + threadIdx.x is get_global_id(0),
// __shared__ is __local, __syncthreads() is barrier(CLK_LOCAL_MEM_FENCE)).
const char* kernel_source = R"CL(
// W1: one element per work-item.
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c, int n) {
  const int i = get_global_id(0);
  if (i < n) c[i] = a[i] + b[i];
}

// W2 (dot_product: `dot` is an OpenCL C built-in): grid-stride partial sums,
// then a local-memory tree with a barrier per level (9 per work-item).
#define W2_GROUP 256
__kernel void dot_product(__global const float* a, __global const float* b, __global float* group_sums, int n) {
  __local float partial[W2_GROUP];
  const int lid = get_local_id(0);
  float sum = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) sum += a[i] * b[i];
  partial[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  // (The .cu file's `half` is a type name in OpenCL C: `width` here.)
  for (int width = get_local_size(0) / 2; width > 0; width /= 2) {
    if (lid < width) partial[lid] += partial[lid + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) group_sums[get_group_id(0)] = partial[0];
}

// W3: OpenCL 1.2 has no shuffles and PoCL 3.1's CPU device offers no
// sub-groups (no cl_khr_subgroups), so each 32-lane "warp" of a group does
// __shfl_down_sync's five steps through local memory: a lane publishes its
// value, a barrier, then it reads lane + delta's (its own past the warp's
// end, as a shuffle returns). Two buffers take turns, so one barrier per
// step suffices: a buffer is written again only two steps later, after every
// work-item passed the barrier in between and so finished reading it.
#define W3_GROUP 256
#define WARP 32
// A float atomicAdd: OpenCL 1.2 has integer atomics only, so a
// compare-and-swap loop on the float's bits.
void add_float(volatile __global float* p, float x) {
  volatile __global int* bits = (volatile __global int*)p;
  int old = *bits, seen;
  while ((seen = atomic_cmpxchg(bits, old, as_int(as_float(old) + x))) != old) old = seen;
}
__kernel void warp_reduce(__global const float* in, volatile __global float* total, int n) {
  __local float lanes[2][W3_GROUP];
  const int lid = get_local_id(0), lane = lid % WARP;
  const int i = get_global_id(0);
  float v = i < n ? in[i] : 0.0f;
  int turn = 0;
  for (int delta = 16; delta > 0; delta /= 2) {
    lanes[turn][lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    v += lane + delta < WARP ? lanes[turn][lid + delta] : v;
    turn ^= 1;
  }
  if (lane == 0) add_float(total, v);
}

// W4: 16x16 tiles of A and B staged in local memory per step, a barrier
// after loading and one after using them.
#define TILE 16
__kernel void matmul(__global const float* a, __global const float* b, __global float* c, int n) {
  __local float a_tile[TILE][TILE];
  __local float b_tile[TILE][TILE];
  const int tx = get_local_id(0), ty = get_local_id(1);
  const int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    a_tile[ty][tx] = a[row * n + t * TILE + tx];
    b_tile[ty][tx] = b[(t * TILE + ty) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  c[row * n + col] = sum;
}

// W5: one byte per work-item, an atomic increment of its global bin.
__kernel void histogram(__global const uchar* data, volatile __global uint* counts, int n) {
  const int i = get_global_id(0);
  if (i < n) atomic_inc(&counts[data[i]]);
}
)CL";

// The native loops: the same as the .cu files' (a host function compiled
// with the same flags, run in the same process).

// Stops the program with the call's name if an OpenCL call fails (status 3:
// not a disagreement, which is 1).
void check(cl_int err, const char* what) {
  if (err == CL_SUCCESS) return;
  std::fprintf(stderr, "pocl_bench: %s failed: OpenCL error %d\n", what, int(err));
  std::exit(3);
}

// bench_common.hpp's print_workload, with PoCL's column.
bool print_workload(const char* workload, double native_seconds, double kernel_seconds, bool agree) {
  std::printf("%-8s %-40s %10s %10s %8s  %s\n", "#", "workload", "native_ms", "pocl_ms", "ratio", "check");
  std::printf("%-49s %10.3f %10.3f %8.2f  %s\n", workload, native_seconds * 1e3, kernel_seconds * 1e3,
              kernel_seconds / native_seconds, agree ? "agree" : "DIFFER");
  return agree;
}

// The OpenCL objects every workload uses: PoCL's CPU device, one in-order
// queue and the built program.
struct opencl {
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_program program = nullptr;

  std::string device_info(cl_device_info what) const {
    std::size_t size = 0;
    check(clGetDeviceInfo(device, what, 0, nullptr, &size), "clGetDeviceInfo");
    std::string s(size, '\0');
    check(clGetDeviceInfo(device, what, size, s.data(), nullptr), "clGetDeviceInfo");
    if (!s.empty() && s.back() == '\0') s.pop_back();
    return s;
  }

  // A buffer holding `bytes` from `host` (or uninitialised when host is null).
  cl_mem buffer(std::size_t bytes, const void* host) const {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              const_cast<void*>(host), &err);
    check(err, "clCreateBuffer");
    return m;
  }

  void read(cl_mem m, std::size_t bytes, void* host) const {
    check(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, bytes, host, 0, nullptr, nullptr), "clEnqueueReadBuffer");
  }

  // Sets a buffer's bytes to zero, enqueued before the kernel that counts in
  // it (the .cu files' cudaMemset and `*total = 0`, inside the timed body).
  void zero(cl_mem m, std::size_t bytes) const {
    const cl_uint zero = 0;
    check(clEnqueueFillBuffer(queue, m, &zero, sizeof zero, 0, bytes, 0, nullptr, nullptr), "clEnqueueFillBuffer");
  }

  cl_kernel kernel(const char* name) const {
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(program, name, &err);
    check(err, name);
    return k;
  }

  // Enqueues `k` over `global` work-items in groups of `local` (1 or 2
  // dimensions) and waits for it: what every timed body does.
  void run(cl_kernel k, cl_uint dims, const std::size_t* global, const std::size_t* local) const {
    check(clEnqueueNDRangeKernel(queue, k, dims, nullptr, global, local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    check(clFinish(queue), "clFinish");
  }
};

template <class T>
void set_args(cl_kernel k, cl_uint index, const T& value) {
  check(clSetKernelArg(k, index, sizeof value, &value), "clSetKernelArg");
}
template <class T, class... Rest>
void set_args(cl_kernel k, cl_uint index, const T& value, const Rest&... rest) {
  set_args(k, index, value);
  set_args(k, index + 1, rest...);
}

// Finds PoCL's platform (another ICD may be installed beside it), its CPU
// device, and builds the kernels.
opencl open_pocl() {
  cl_uint count = 0;
  check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs (is PoCL installed? see bench/pocl/run.sh)");
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs");
  opencl cl;
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    check(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr), "clGetPlatformInfo");
    if (std::strstr(name, "Portable Computing Language") &&
        clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &cl.device, nullptr) == CL_SUCCESS)
      break;
    cl.device = nullptr;
  }
  if (!cl.device) {
    std::fprintf(stderr, "pocl_bench: no PoCL CPU device (install pocl-opencl-icd: see bench/pocl/run.sh)\n");
    std::exit(3);
  }
  cl_int err = CL_SUCCESS;
  cl.context = clCreateContext(nullptr, 1, &cl.device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl.queue = clCreateCommandQueue(cl.context, cl.device, 0, &err);
  check(err, "clCreateCommandQueue");
  cl.program = clCreateProgramWithSource(cl.context, 1, &kernel_source, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  if (clBuildProgram(cl.program, 1, &cl.device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::size_t size = 0;
    clGetProgramBuildInfo(cl.program, cl.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(cl.program, cl.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    std::fprintf(stderr, "pocl_bench: the kernels did not build:\n%s\n", log.c_str());
    std::exit(3);
  }
  return cl;
}

const std::size_t group = 256;  // W1, W2, W3 and W5's work-items per group (threads per block)

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

bool w1_vector_add(const opencl& cl, const bench_options& o) {
  const int n = o.quick ? 1 << 16 : 1 << 24;
  std::vector<float> a(n), b(n), c(n), native_c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 1000) * 0.5f;
    b[i] = float(i % 7);
  }
  cl_mem da = cl.buffer(n * sizeof(float), a.data()), db = cl.buffer(n * sizeof(float), b.data());
  cl_mem dc = cl.buffer(n * sizeof(float), nullptr);
  cl_kernel k = cl.kernel("vector_add");
  set_args(k, 0, da, db, dc, n);

  const double native = median_seconds(o.repeat, [&] { native_vector_add(a.data(), b.data(), native_c.data(), n); });
  const std::size_t global = round_up(n, group);
  const double kernel = median_seconds(o.repeat, [&] { cl.run(k, 1, &global, &group); });

  cl.read(dc, n * sizeof(float), c.data());
  const bool agree = std::memcmp(c.data(), native_c.data(), n * sizeof(float)) == 0;
  clReleaseKernel(k);
  for (cl_mem m : {da, db, dc}) clReleaseMemObject(m);
  return print_workload(o.quick ? "W1 vector add, 2^16 floats" : "W1 vector add, 2^24 floats", native, kernel, agree);
}

bool w2_dot_product(const opencl& cl, const bench_options& o) {
  const int n = o.quick ? 1 << 16 : 1 << 24;
  const int groups = 256;
  std::vector<float> a(n), b(n), group_sums(groups);
  // Small integers: every partial sum is exact in float (as in the .cu file).
  for (int i = 0; i < n; ++i) {
    a[i] = float(i % 3);
    b[i] = float((i / 3) % 2);
  }
  cl_mem da = cl.buffer(n * sizeof(float), a.data()), db = cl.buffer(n * sizeof(float), b.data());
  cl_mem dsums = cl.buffer(groups * sizeof(float), nullptr);
  cl_kernel k = cl.kernel("dot_product");
  set_args(k, 0, da, db, dsums, n);

  float native_total = 0.0f;
  const double native = median_seconds(o.repeat, [&] { native_total = native_dot(a.data(), b.data(), n); });
  const std::size_t global = groups * group;
  const double kernel = median_seconds(o.repeat, [&] { cl.run(k, 1, &global, &group); });

  cl.read(dsums, groups * sizeof(float), group_sums.data());
  float kernel_total = 0.0f;
  for (float s : group_sums) kernel_total += s;
  const bool agree = kernel_total == native_total;
  if (!agree) std::fprintf(stderr, "W2: kernel %.1f, native %.1f\n", kernel_total, native_total);
  clReleaseKernel(k);
  for (cl_mem m : {da, db, dsums}) clReleaseMemObject(m);
  return print_workload(o.quick ? "W2 dot product, 2^16, 256x256 grid-stride" : "W2 dot product, 2^24, 256x256 grid-stride",
                        native, kernel, agree);
}

bool w3_warp_reduce(const opencl& cl, const bench_options& o) {
  const int n = o.quick ? 1 << 16 : 1 << 22;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i % 3);  // exact in float in any order
  cl_mem din = cl.buffer(n * sizeof(float), in.data()), dtotal = cl.buffer(sizeof(float), nullptr);
  cl_kernel k = cl.kernel("warp_reduce");
  set_args(k, 0, din, dtotal, n);

  float native_total = 0.0f;
  const double native = median_seconds(o.repeat, [&] { native_total = native_sum(in.data(), n); });
  const std::size_t global = round_up(n, group);
  const double kernel = median_seconds(o.repeat, [&] {
    cl.zero(dtotal, sizeof(float));
    cl.run(k, 1, &global, &group);
  });

  float kernel_total = 0.0f;
  cl.read(dtotal, sizeof(float), &kernel_total);
  const bool agree = kernel_total == native_total;
  if (!agree) std::fprintf(stderr, "W3: kernel %.1f, native %.1f\n", kernel_total, native_total);
  clReleaseKernel(k);
  for (cl_mem m : {din, dtotal}) clReleaseMemObject(m);
  return print_workload(o.quick ? "W3 warp-shuffle reduction, 2^16" : "W3 warp-shuffle reduction, 2^22", native,
                        kernel, agree);
}

bool w4_matmul(const opencl& cl, const bench_options& o) {
  const int n = o.quick ? 64 : 512;  // a multiple of the tile
  const std::size_t tile = 16, elements = std::size_t(n) * n;
  std::vector<float> a(elements), b(elements), c(elements), native_c(elements);
  for (std::size_t i = 0; i < elements; ++i) {
    a[i] = float(int(i % 7) - 3);
    b[i] = float(int(i % 5) - 2);
  }
  cl_mem da = cl.buffer(elements * sizeof(float), a.data()), db = cl.buffer(elements * sizeof(float), b.data());
  cl_mem dc = cl.buffer(elements * sizeof(float), nullptr);
  cl_kernel k = cl.kernel("matmul");
  set_args(k, 0, da, db, dc, n);

  const double native = median_seconds(o.repeat, [&] { native_matmul(a.data(), b.data(), native_c.data(), n); });
  const std::size_t global[2] = {std::size_t(n), std::size_t(n)}, local[2] = {tile, tile};
  const double kernel = median_seconds(o.repeat, [&] { cl.run(k, 2, global, local); });

  cl.read(dc, elements * sizeof(float), c.data());
  const bool agree = std::memcmp(c.data(), native_c.data(), elements * sizeof(float)) == 0;
  clReleaseKernel(k);
  for (cl_mem m : {da, db, dc}) clReleaseMemObject(m);
  return print_workload(o.quick ? "W4 tiled matmul 16x16, N=64" : "W4 tiled matmul 16x16, N=512", native, kernel,
                        agree);
}

bool w5_histogram(const opencl& cl, const bench_options& o) {
  const int n = o.quick ? 1 << 16 : 1 << 24;
  const int bins = 256;
  std::vector<unsigned char> data(n);
  unsigned int counts[bins], native_counts[bins];
  unsigned int state = 12345;  // the .cu file's generator: the same bytes
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = (unsigned char)(state >> 24);
  }
  cl_mem ddata = cl.buffer(n, data.data()), dcounts = cl.buffer(sizeof counts, nullptr);
  cl_kernel k = cl.kernel("histogram");
  set_args(k, 0, ddata, dcounts, n);

  const double native = median_seconds(o.repeat, [&] {
    std::memset(native_counts, 0, sizeof native_counts);
    native_histogram(data.data(), native_counts, n);
  });
  const std::size_t global = round_up(n, group);
  const double kernel = median_seconds(o.repeat, [&] {
    cl.zero(dcounts, sizeof counts);
    cl.run(k, 1, &global, &group);
  });

  cl.read(dcounts, sizeof counts, counts);
  const bool agree = std::memcmp(counts, native_counts, sizeof counts) == 0;
  clReleaseKernel(k);
  for (cl_mem m : {ddata, dcounts}) clReleaseMemObject(m);
  return print_workload(o.quick ? "W5 histogram, 256 bins, 2^16 bytes" : "W5 histogram, 256 bins, 2^24 bytes",
                        native, kernel, agree);
}

}  // namespace

int main(int argc, char** argv) {
  bench_options o = parse_bench_options(argc, argv);
  o.workers = std::max(1u, o.workers);
  // PoCL reads these once, when the ICD loader first starts it: the pthread
  // device's thread count (its compute units), and that device rather than
  // the single-threaded "basic" one (a POCL_DEVICES already set is kept).
  setenv("POCL_MAX_PTHREAD_COUNT", std::to_string(o.workers).c_str(), 1);
  setenv("POCL_DEVICES", "pthread", 0);
  const opencl cl = open_pocl();

  cl_uint units = 0;
  check(clGetDeviceInfo(cl.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, nullptr), "clGetDeviceInfo");
  const bool subgroups = cl.device_info(CL_DEVICE_EXTENSIONS).find("cl_khr_subgroups") != std::string::npos;
  std::printf("# PoCL %s: %s, %u compute unit(s) (--workers %u), median of %d after a warm-up%s\n",
              cl.device_info(CL_DRIVER_VERSION).c_str(), cl.device_info(CL_DEVICE_NAME).c_str(), units, o.workers,
              o.repeat, o.quick ? " (quick: small sizes)" : "");
  std::printf("# W3: cl_khr_subgroups %s; every build of this program emulates the warp's five shuffle-down steps\n"
              "#     with __local memory and one barrier per step, and atomicAdd(float) with an atomic_cmpxchg loop\n",
              subgroups ? "present (not used)" : "absent");

  bool all_agree = true;
  all_agree &= w1_vector_add(cl, o);
  all_agree &= w2_dot_product(cl, o);
  all_agree &= w3_warp_reduce(cl, o);
  all_agree &= w4_matmul(cl, o);
  all_agree &= w5_histogram(cl, o);

  clReleaseProgram(cl.program);
  clReleaseCommandQueue(cl.queue);
  clReleaseContext(cl.context);
  return all_agree ? 0 : 1;
}
