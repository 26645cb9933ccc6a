// An asm statement in device code becomes a call that runs its PTX for the
// calling thread; its operands travel by constraint letter (outputs "=",
// read-and-written "+", inputs), the statement's lines stay where they were,
// and host code's asm is left alone.
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned lane_and_sum(unsigned a, unsigned& total) {
  unsigned lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
  // CHECK: { static ::cusim::detail::ptx::statement __cusim_asm{"mov.u32 %0, %%laneid;", 
  // CHECK: inline_ptx.cu", 10}; ::cusim::detail::ptx::operand_slot __cusim_asm_operands[] = {::cusim::detail::ptx::output<'r'>(lane)}; ::cusim::detail::ptx::run(__cusim_asm, __cusim_asm_operands, 1); }
  // CHECK: {::cusim::detail::ptx::in_out<'r'>(total), ::cusim::detail::ptx::input<'r'>(a)}; ::cusim::detail::ptx::run(__cusim_asm, __cusim_asm_operands, 2); }
  asm("add.u32 %0, %0, %1;"
      : "+" "r"(total)  // adjacent literals: one constraint, as in C++ (moderngpu pastes them)
      : "r"(a));
  return lane;
}

__global__ void kernel(unsigned* out) {
  unsigned total = 100;
  const unsigned lane = lane_and_sum(threadIdx.x * 2, total);
  out[threadIdx.x] = lane * 1000 + total;
  asm("membar.gl;");
  // CHECK: inline_ptx.cu", 24}; ::cusim::detail::ptx::run(__cusim_asm, nullptr, 0); }
  // Operands side by side without their comma, which nvcc takes (GCC does not).
  if (threadIdx.x == 0) asm volatile("st.u32 [%1], %0;" ::"r"(total + 7) "l"(out + 64) : "memory");
  // CHECK: {::cusim::detail::ptx::input<'r'>(total + 7), ::cusim::detail::ptx::input<'l'>(out + 64)}
}

int host_side() {
  asm volatile("" ::: "memory");
  // CHECK: asm volatile("" ::: "memory");
  return __LINE__;
}

// A body written in PTX for the device pass and in C++ for the host's:
// cusim runs the device pass's, as a GPU does.
__device__ unsigned lane_or_zero() {
#ifdef __CUDA_ARCH__
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  return lane + 1000;
#else
  return 0;
#endif
}

__global__ void lanes(unsigned* out) { out[threadIdx.x] = lane_or_zero(); }

int main() {
  unsigned* out;
  cudaMallocManaged(&out, 65 * sizeof(unsigned));
  kernel<<<1, 64>>>(out);
  cudaDeviceSynchronize();
  std::printf("%u %u %u %u, line %d\n", out[0], out[33], out[63], out[64], host_side());
  // OUTPUT: 100 1166 31226 107, line 34
  lanes<<<1, 40>>>(out);
  cudaDeviceSynchronize();
  std::printf("%u %u\n", out[5], out[37]);
  // OUTPUT: 1005 1005
  return 0;
}
