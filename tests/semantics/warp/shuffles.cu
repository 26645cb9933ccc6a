// Warp shuffles for every type CUDA's overloads take, every width, and
// operands inside and outside the lane's segment, in full warps and in a
// partial last warp. The expected values come from the rules of the CUDA
// programming guide and PTX's shfl.sync, computed on the host: a lane whose
// source lies outside its segment of `width` lanes gets its own value
// (shfl_up/down), shfl_xor may read earlier segments but not later ones, and
// __shfl_sync reads srcLane modulo width within the segment.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

enum { op_idx, op_up, op_down, op_xor, op_count };
const int width_count = 6;  // 1, 2, 4, ..., 32
const int operand_count = 15;
const int configs = op_count * width_count * operand_count;

// Source lanes, deltas and lane masks: inside and outside segments, past the warp, negative.
__host__ __device__ int operand_at(int index) {
  const int operands[operand_count] = {0, 1, 2, 3, 5, 7, 8, 15, 16, 17, 31, 32, 33, -1, -5};
  return operands[index];
}
__host__ __device__ int width_at(int index) { return 1 << index; }

// The value thread `tid` contributes: every tested type holds it exactly.
__host__ __device__ double lane_value(int tid) { return 2.0 * tid + 1.0; }

template <class T>
__device__ T shuffle(int op, T v, int operand, int width) {
  switch (op) {
    case op_idx: return __shfl_sync(0xffffffff, v, operand, width);
    case op_up: return __shfl_up_sync(0xffffffff, v, static_cast<unsigned>(operand), width);
    case op_down: return __shfl_down_sync(0xffffffff, v, static_cast<unsigned>(operand), width);
    default: return __shfl_xor_sync(0xffffffff, v, operand, width);
  }
}

// Every lane runs every configuration (the same sequence: the warp stays converged).
template <class T>
__global__ void shuffle_all(double* out, int max_width) {
  const int tid = threadIdx.x;
  const T mine = T(lane_value(tid));
  for (int op = 0; op < op_count; ++op) {
    for (int w = 0; w < width_count && width_at(w) <= max_width; ++w) {
      for (int o = 0; o < operand_count; ++o) {
        const T got = shuffle(op, mine, operand_at(o), width_at(w));
        out[((op * width_count + w) * operand_count + o) * blockDim.x + tid] = double(got);
      }
    }
  }
}

// __half2 carries two halves: both must travel together.
__global__ void shuffle_half2(double* out) {
  const int tid = threadIdx.x;
  const __half2 mine = __floats2half2_rn(float(lane_value(tid)), float(-lane_value(tid)));
  const __half2 got = __shfl_xor_sync(0xffffffff, mine, 5);
  out[tid] = double(__low2float(got));
  out[blockDim.x + tid] = double(__high2float(got));
}

// The lane a shuffle reads, by PTX's shfl.sync rules.
int source_lane(int op, int lane, int operand, int width) {
  const int first = lane & ~(width - 1), last = first | (width - 1);
  const int b = operand & 31;
  switch (op) {
    case op_idx: return first | (operand & (width - 1));
    case op_up: return lane - b >= first ? lane - b : lane;
    case op_down: return lane + b <= last ? lane + b : lane;
    default: return (lane ^ b) <= last ? (lane ^ b) : lane;
  }
}

int failures = 0, checks = 0;

void expect(const char* what, int op, int width, int operand, int tid, double got, double want) {
  ++checks;
  if (got == want) return;
  if (++failures <= 10) {
    std::printf("  %s op %d width %d operand %d thread %d: got %g, expected %g\n", what, op, width, operand, tid, got,
                want);
  }
}

template <class T>
void check_type(const char* name, int threads, int max_width) {
  double* out;
  cudaMallocManaged(&out, sizeof(double) * configs * threads);
  for (int i = 0; i < configs * threads; ++i) out[i] = -12345.0;
  shuffle_all<T><<<1, threads>>>(out, max_width);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    std::printf("%s: %s\n", name, cudaGetErrorString(e));
    ++failures;
    return;
  }
  for (int op = 0; op < op_count; ++op) {
    for (int w = 0; w < width_count && width_at(w) <= max_width; ++w) {
      for (int o = 0; o < operand_count; ++o) {
        for (int tid = 0; tid < threads; ++tid) {
          const int lane = tid % 32, warp_base = tid - lane;
          const int source = warp_base + source_lane(op, lane, operand_at(o), width_at(w));
          const double got = out[((op * width_count + w) * operand_count + o) * threads + tid];
          expect(name, op, width_at(w), operand_at(o), tid, got, lane_value(source));
        }
      }
    }
  }
  cudaFree(out);
}

int main() {
  // Two full warps, then a block of 48 threads whose second warp has 16
  // lanes: there, widths up to 16 keep every source inside the warp.
  for (int threads : {64, 48}) {
    const int max_width = threads % 32 == 0 ? 32 : 16;
    check_type<int>("int", threads, max_width);
    check_type<unsigned int>("unsigned int", threads, max_width);
    check_type<long>("long", threads, max_width);
    check_type<unsigned long>("unsigned long", threads, max_width);
    check_type<long long>("long long", threads, max_width);
    check_type<unsigned long long>("unsigned long long", threads, max_width);
    check_type<float>("float", threads, max_width);
    check_type<double>("double", threads, max_width);
    check_type<__half>("__half", threads, max_width);
  }
  double* out;
  cudaMallocManaged(&out, sizeof(double) * 64);
  shuffle_half2<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  for (int tid = 0; tid < 32; ++tid) {
    expect("__half2 low", op_xor, 32, 5, tid, out[tid], lane_value(tid ^ 5));
    expect("__half2 high", op_xor, 32, 5, tid, out[32 + tid], -lane_value(tid ^ 5));
  }
  cudaFree(out);
  std::printf("shuffles: %d checks, %d failures: %s\n", checks, failures, failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
