// 160 — CUDA graphs: record a few steps of work once, replay them many times.
//
// Every launch costs the host some microseconds to check its arguments and
// hand the kernel to the GPU. An iterative method that runs small kernels
// thousands of times can spend more time launching them than running them.
// A CUDA graph records a piece of work — kernels, copies, sets, and the
// order between them — once; cudaGraphLaunch then submits all of it in one
// call, and the GPU knows the whole piece in advance.
//
// The work here is heat spreading along a rod: a 1D Jacobi (explicit) step
// of the heat equation, u'[i] = u[i] + r*(u[i-1] - 2*u[i] + u[i+1]), with the
// two ends held at their temperature. A step reads one buffer and writes the
// other, so one round is two steps that ping-pong a -> b -> a, plus a
// cudaMemsetAsync that clears the "largest change" the second step records
// (with atomicMax: non-negative floats order like their bits read as
// unsigned integers).
//
// Stream capture builds the graph: between cudaStreamBeginCapture(s) and
// cudaStreamEndCapture(s, &graph), work queued into s is recorded, not run.
// cudaGraphInstantiate checks the graph and prepares it for launching
// (once); cudaGraphLaunch(exec, s) runs it in stream s, as often as wanted.
// A graph holds its kernels' arguments as they were when it was captured:
// here the two buffers' addresses, which stay the same, so each replay
// continues from where the last left off.
//
// The program runs the rounds launched one by one, then as graph replays,
// times both with events, and checks that they agree with each other
// exactly and with the same computation on the host. cusim runs a graph's
// nodes one after another like the launches they were captured from, so
// there both take about the same time; on a GPU compare them.
// Build: cusim-cc graph_replay.cu -o graph_replay (or nvcc).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "../common/check.h"  // CHECK(call): stop with the error's text if a CUDA call fails

const int n = 1 << 12;    // points along the rod
const int rounds = 100;   // graph replays: two steps each
const float rate = 0.25f;  // r, the diffusion number: stable up to 0.5
const int threads_per_block = 256;
const int blocks = (n + threads_per_block - 1) / threads_per_block;

// One Jacobi step from in to out. If max_change is given, also records the
// largest |out[i] - in[i]| there.
__global__ void diffuse(const float* in, float* out, int count, float r, unsigned int* max_change) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count) return;
  if (i == 0 || i == count - 1) {  // the ends keep their temperature
    out[i] = in[i];
    return;
  }
  const float next = in[i] + r * (in[i - 1] - 2.0f * in[i] + in[i + 1]);
  out[i] = next;
  if (max_change != nullptr) atomicMax(max_change, __float_as_uint(fabsf(next - in[i])));
}

// The starting temperatures: cold, with three hot spots.
void initial(float* u) {
  for (int i = 0; i < n; ++i) u[i] = 0.0f;
  for (int i = n / 4 - 8; i < n / 4 + 8; ++i) u[i] = 100.0f;
  for (int i = n / 2 - 2; i < n / 2 + 2; ++i) u[i] = 400.0f;
  u[3 * n / 4] = 1000.0f;
}

// One round, queued into stream s: clear the change, step a -> b, step b -> a.
int queue_round(float* a, float* b, unsigned int* max_change, cudaStream_t s) {
  CHECK(cudaMemsetAsync(max_change, 0, sizeof(unsigned int), s));
  diffuse<<<blocks, threads_per_block, 0, s>>>(a, b, n, rate, nullptr);
  CHECK(cudaGetLastError());
  diffuse<<<blocks, threads_per_block, 0, s>>>(b, a, n, rate, max_change);
  CHECK(cudaGetLastError());
  return 0;
}

const char* node_type_name(cudaGraphNodeType type) {
  switch (type) {
    case cudaGraphNodeTypeKernel: return "kernel";
    case cudaGraphNodeTypeMemcpy: return "memcpy";
    case cudaGraphNodeTypeMemset: return "memset";
    case cudaGraphNodeTypeHost: return "host";
    case cudaGraphNodeTypeEmpty: return "empty";
    default: return "other";
  }
}

int main() {
  float *host_u, *direct_u, *graph_u, *a, *b;
  unsigned int *max_change, *changes;  // changes: the last step's largest change, copied back after each way
  CHECK(cudaMallocHost(&host_u, n * sizeof(float)));
  CHECK(cudaMallocHost(&direct_u, n * sizeof(float)));
  CHECK(cudaMallocHost(&graph_u, n * sizeof(float)));
  CHECK(cudaMallocHost(&changes, 2 * sizeof(unsigned int)));
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&max_change, sizeof(unsigned int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  float direct_ms = 0.0f, graph_ms = 0.0f;

  // 1. The rounds launched one by one: 3 calls each. (The first launch pays
  // one-time setup on a GPU: an untimed step a -> b first, which leaves a as
  // it is.)
  initial(host_u);
  CHECK(cudaMemcpyAsync(a, host_u, n * sizeof(float), cudaMemcpyHostToDevice, s));
  diffuse<<<blocks, threads_per_block, 0, s>>>(a, b, n, rate, nullptr);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(start, s));
  for (int k = 0; k < rounds; ++k)
    if (queue_round(a, b, max_change, s)) return 1;
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaMemcpyAsync(direct_u, a, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaMemcpyAsync(&changes[0], max_change, sizeof(unsigned int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventElapsedTime(&direct_ms, start, stop));

  // 2. Back to the start, then one round captured into a graph. Nothing runs
  // while capturing (else the replays below would start a round ahead).
  CHECK(cudaMemcpyAsync(a, host_u, n * sizeof(float), cudaMemcpyHostToDevice, s));
  cudaGraph_t graph;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  if (queue_round(a, b, max_change, s)) return 1;
  CHECK(cudaStreamEndCapture(s, &graph));
  size_t node_count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &node_count));  // first ask how many
  cudaGraphNode_t nodes[8];
  if (node_count > 8) node_count = 8;
  CHECK(cudaGraphGetNodes(graph, nodes, &node_count));
  std::printf("captured graph: %d nodes (", (int)node_count);
  for (size_t i = 0; i < node_count; ++i) {
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(nodes[i], &type));
    std::printf("%s%s", i ? ", " : "", node_type_name(type));
  }
  std::printf(")\n");
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  // The same rounds as graph replays: 1 call each.
  CHECK(cudaEventRecord(start, s));
  for (int k = 0; k < rounds; ++k) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaMemcpyAsync(graph_u, a, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CHECK(cudaMemcpyAsync(&changes[1], max_change, sizeof(unsigned int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  CHECK(cudaEventElapsedTime(&graph_ms, start, stop));

  // 3. The host's computation of the same steps.
  float* next = new float[n];
  float host_change = 0.0f;
  for (int step = 0; step < 2 * rounds; ++step) {
    host_change = 0.0f;
    next[0] = host_u[0];
    next[n - 1] = host_u[n - 1];
    for (int i = 1; i < n - 1; ++i) {
      next[i] = host_u[i] + rate * (host_u[i - 1] - 2.0f * host_u[i] + host_u[i + 1]);
      host_change = std::fmax(host_change, std::fabs(next[i] - host_u[i]));
    }
    std::memcpy(host_u, next, n * sizeof(float));
  }
  delete[] next;

  // The device computes in float like the host, but may fuse a*b+c into one
  // rounding (an FMA): allow a small difference from the host, none between
  // the two ways of launching the same kernels.
  int differ = 0, far = 0;
  float largest = 0.0f;
  for (int i = 0; i < n; ++i) {
    differ += std::memcmp(&direct_u[i], &graph_u[i], sizeof(float)) != 0;
    const float error = std::fabs(graph_u[i] - host_u[i]);
    largest = std::fmax(largest, error);
    far += error > 1e-4f * (1.0f + std::fabs(host_u[i]));
  }
  float direct_change_f, graph_change_f;
  std::memcpy(&direct_change_f, &changes[0], sizeof(float));
  std::memcpy(&graph_change_f, &changes[1], sizeof(float));
  const bool change_ok = changes[0] == changes[1] && std::fabs(graph_change_f - host_change) <= 1e-3f;

  std::printf("%d points, %d rounds of 2 steps: temperature at the middle hot spot %.3f (started at 400), "
              "8 points away %.3f\n",
              n, rounds, graph_u[n / 2], graph_u[n / 2 + 8]);
  std::printf("largest change in the last step: launched %.5f, graph %.5f, host %.5f\n", direct_change_f,
              graph_change_f, host_change);
  std::printf("launched one by one: %.3f ms (%d calls); graph replays: %.3f ms (%d calls)\n", direct_ms, 3 * rounds,
              graph_ms, rounds);
  std::printf("%d points differ between the two; largest difference from the host %.2g (%d beyond 1e-4 relative)\n",
              differ, largest, far);
  std::printf("On a GPU a graph saves the launch cost of each node; compare the two times there.\n");

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(host_u));
  CHECK(cudaFreeHost(direct_u));
  CHECK(cudaFreeHost(graph_u));
  CHECK(cudaFreeHost(changes));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(max_change));
  const bool ok = node_count == 3 && differ == 0 && far == 0 && change_ok;
  std::printf("%s\n", ok ? "PASSED" : "FAILED");
  return ok ? 0 : 1;
}
