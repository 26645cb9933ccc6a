// Generated differential cases: every atomic on every type, at every offset
// its alignment allows, over edge values.
//   atomics SEED CASES
// 1. Sequences: each case is one thread applying a random sequence of
//    atomics to its own 32 bytes of global or shared memory; it prints each call's old
//    value and the bytes at the end (bit patterns: NaN payloads, -0 and
//    denormals count). One thread per slot, so the result has one order.
// 2. Contention: each block's threads apply one operation per word, with
//    random operands whose result does not depend on the order (integer
//    operations, float additions of small integers, halves of one word
//    added to independently), to global and to shared memory.
// The golden comes from an H100 (tests/differential.txt); random_cases.hpp
// draws the cases from SEED.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "bits.hpp"
#include "random_cases.hpp"

// Each operation names its type; its operand is the low bytes of `a`
// (`b`: a CAS's compare value, unless it compares with what is there).
#define CUSIM_GENERATED_ATOMICS(X)                                                                      \
  X(add_i32, 4) X(sub_i32, 4) X(exch_i32, 4) X(min_i32, 4) X(max_i32, 4) X(and_i32, 4) X(or_i32, 4)     \
  X(xor_i32, 4) X(cas_i32, 4) X(add_u32, 4) X(sub_u32, 4) X(exch_u32, 4) X(min_u32, 4) X(max_u32, 4)    \
  X(inc_u32, 4) X(dec_u32, 4) X(and_u32, 4) X(or_u32, 4) X(xor_u32, 4) X(cas_u32, 4) X(add_u64, 8)      \
  X(exch_u64, 8) X(min_u64, 8) X(max_u64, 8) X(and_u64, 8) X(or_u64, 8) X(xor_u64, 8) X(cas_u64, 8)     \
  X(min_i64, 8) X(max_i64, 8) X(and_i64, 8) X(or_i64, 8) X(xor_i64, 8) X(add_f32, 4) X(exch_f32, 4)     \
  X(add_f64, 8) X(add_f16, 2) X(add_f16x2, 4) X(add_bf16, 2) X(add_bf16x2, 4) X(cas_u16, 2)             \
  X(add_f32x2, 8) X(add_f32x4, 16)

enum atomic_op : unsigned {
#define CUSIM_ENUM(name, size) name,
  CUSIM_GENERATED_ATOMICS(CUSIM_ENUM)
#undef CUSIM_ENUM
  atomic_ops
};
const char* const op_names[] = {
#define CUSIM_NAME(name, size) #name,
    CUSIM_GENERATED_ATOMICS(CUSIM_NAME)
#undef CUSIM_NAME
};
const unsigned op_sizes[] = {
#define CUSIM_SIZE(name, size) size,
    CUSIM_GENERATED_ATOMICS(CUSIM_SIZE)
#undef CUSIM_SIZE
};

constexpr int steps_per_case = 8, slot_bytes = 32;
struct step {
  unsigned op, offset, compare_with_current;
  unsigned long long a, b;
};


// Applies `s` to the slot; returns the old value's bits (a 16-byte type's
// low 8 bytes in the result, its high 8 in `high`).
__device__ unsigned long long apply(unsigned char* slot, const step& s, unsigned long long& high) {
  void* p = slot + s.offset;
  high = 0;
  switch (s.op) {
#define CUSIM_INTEGER(name, T, call) \
  case name: return bits_of<T>(call(static_cast<T*>(p), from_bits<T>(s.a)));
    CUSIM_INTEGER(add_i32, int, atomicAdd) CUSIM_INTEGER(sub_i32, int, atomicSub)
    CUSIM_INTEGER(exch_i32, int, atomicExch) CUSIM_INTEGER(min_i32, int, atomicMin)
    CUSIM_INTEGER(max_i32, int, atomicMax) CUSIM_INTEGER(and_i32, int, atomicAnd)
    CUSIM_INTEGER(or_i32, int, atomicOr) CUSIM_INTEGER(xor_i32, int, atomicXor)
    CUSIM_INTEGER(add_u32, unsigned, atomicAdd) CUSIM_INTEGER(sub_u32, unsigned, atomicSub)
    CUSIM_INTEGER(exch_u32, unsigned, atomicExch) CUSIM_INTEGER(min_u32, unsigned, atomicMin)
    CUSIM_INTEGER(max_u32, unsigned, atomicMax) CUSIM_INTEGER(inc_u32, unsigned, atomicInc)
    CUSIM_INTEGER(dec_u32, unsigned, atomicDec) CUSIM_INTEGER(and_u32, unsigned, atomicAnd)
    CUSIM_INTEGER(or_u32, unsigned, atomicOr) CUSIM_INTEGER(xor_u32, unsigned, atomicXor)
    CUSIM_INTEGER(add_u64, unsigned long long, atomicAdd) CUSIM_INTEGER(exch_u64, unsigned long long, atomicExch)
    CUSIM_INTEGER(min_u64, unsigned long long, atomicMin) CUSIM_INTEGER(max_u64, unsigned long long, atomicMax)
    CUSIM_INTEGER(and_u64, unsigned long long, atomicAnd) CUSIM_INTEGER(or_u64, unsigned long long, atomicOr)
    CUSIM_INTEGER(xor_u64, unsigned long long, atomicXor) CUSIM_INTEGER(min_i64, long long, atomicMin)
    CUSIM_INTEGER(max_i64, long long, atomicMax) CUSIM_INTEGER(and_i64, long long, atomicAnd)
    CUSIM_INTEGER(or_i64, long long, atomicOr) CUSIM_INTEGER(xor_i64, long long, atomicXor)
    CUSIM_INTEGER(add_f32, float, atomicAdd) CUSIM_INTEGER(exch_f32, float, atomicExch)
    CUSIM_INTEGER(add_f64, double, atomicAdd) CUSIM_INTEGER(add_f16, __half, atomicAdd)
    CUSIM_INTEGER(add_f16x2, __half2, atomicAdd) CUSIM_INTEGER(add_bf16, __nv_bfloat16, atomicAdd)
    CUSIM_INTEGER(add_bf16x2, __nv_bfloat162, atomicAdd) CUSIM_INTEGER(add_f32x2, float2, atomicAdd)
#undef CUSIM_INTEGER
#define CUSIM_CAS(name, T)                                                               \
  case name: {                                                                           \
    T* address = static_cast<T*>(p);                                                     \
    const T compare = s.compare_with_current ? *(volatile T*)address : from_bits<T>(s.b); \
    return bits_of<T>(atomicCAS(address, compare, from_bits<T>(s.a)));                   \
  }
    CUSIM_CAS(cas_i32, int) CUSIM_CAS(cas_u32, unsigned) CUSIM_CAS(cas_u64, unsigned long long)
    CUSIM_CAS(cas_u16, unsigned short)
#undef CUSIM_CAS
    case add_f32x4: {
      const float4 value = make_float4(from_bits<float>(s.a), from_bits<float>(s.a >> 32), from_bits<float>(s.b),
                                       from_bits<float>(s.b >> 32));
      const float4 old = atomicAdd(static_cast<float4*>(p), value);
      high = bits_of(make_float2(old.z, old.w));
      return bits_of(make_float2(old.x, old.y));
    }
  }
  return 0;
}

// A case runs on its slot in global memory, or, where `in_shared`, on a
// copy in shared memory (the rules differ by space on some GPUs), which is
// then copied back.
__global__ void run_sequences(const step* steps, const unsigned* in_shared, unsigned count, unsigned char* slots,
                              unsigned long long* old_values) {
  __shared__ unsigned long long shared_slots[64 * slot_bytes / 8];
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= count) return;
  unsigned char* slot = slots + size_t(c) * slot_bytes;
  if (in_shared[c]) {
    unsigned char* copy = reinterpret_cast<unsigned char*>(shared_slots) + threadIdx.x * slot_bytes;
    for (int i = 0; i < slot_bytes; ++i) copy[i] = slot[i];
    slot = copy;
  }
  for (int k = 0; k < steps_per_case; ++k) {
    const unsigned i = c * steps_per_case + k;
    old_values[2 * i] = apply(slot, steps[i], old_values[2 * i + 1]);
  }
  if (in_shared[c]) {
    for (int i = 0; i < slot_bytes; ++i) slots[size_t(c) * slot_bytes + i] = slot[i];
  }
}

// Contention: word w of the block's region gets operation ops[w] from every
// thread, with operand operands[thread * words + w].
constexpr int contended_words = 16;
enum contended_op : unsigned { c_add_i32, c_and_u32, c_or_u32, c_xor_u32, c_min_i32, c_max_u32, c_inc_u32,
                               c_add_f32, c_add_f16x2, c_add_f16_high, c_contended_ops };
const char* const contended_names[] = {"add_i32", "and_u32", "or_u32", "xor_u32", "min_i32", "max_u32",
                                       "inc_u32", "add_f32", "add_f16x2", "add_f16_high_half"};

__device__ void contend(unsigned* word, unsigned op, unsigned operand) {
  switch (op) {
    case c_add_i32: atomicAdd(reinterpret_cast<int*>(word), int(operand)); break;
    case c_and_u32: atomicAnd(word, operand); break;
    case c_or_u32: atomicOr(word, operand); break;
    case c_xor_u32: atomicXor(word, operand); break;
    case c_min_i32: atomicMin(reinterpret_cast<int*>(word), int(operand)); break;
    case c_max_u32: atomicMax(word, operand); break;
    case c_inc_u32: atomicInc(word, operand | 0x100u); break;  // one limit per word: the high bits
    case c_add_f32: atomicAdd(reinterpret_cast<float*>(word), float(operand % 64)); break;
    case c_add_f16x2:
      atomicAdd(reinterpret_cast<__half2*>(word), __halves2half2(__int2half_rn(operand % 4), __int2half_rn(operand % 3)));
      break;
    default: atomicAdd(reinterpret_cast<__half*>(word) + 1, __int2half_rn(operand % 4)); break;
  }
}

__global__ void run_contention(const unsigned* ops, const unsigned* operands, unsigned* global_words,
                               unsigned* shared_results) {
  __shared__ unsigned words[contended_words];
  const unsigned region = blockIdx.x * contended_words;
  if (threadIdx.x < contended_words) words[threadIdx.x] = global_words[region + threadIdx.x];
  __syncthreads();
  for (int w = 0; w < contended_words; ++w) {
    const unsigned operand = operands[(blockIdx.x * blockDim.x + threadIdx.x) * contended_words + w];
    contend(&global_words[region + w], ops[region + w], operand);
    contend(&words[w], ops[region + w], operand);
  }
  __syncthreads();
  if (threadIdx.x < contended_words) shared_results[region + threadIdx.x] = words[threadIdx.x];
}

static unsigned long long operand_for(generated::random_source& r, unsigned op) {
  switch (op) {
    case add_f32: case exch_f32: return generated::edge_bits(r, generated::binary32);
    case add_f64: return generated::edge_bits(r, generated::binary64);
    case add_f16: return generated::edge_bits(r, generated::binary16);
    case add_bf16: return generated::edge_bits(r, generated::bfloat16);
    case add_f16x2: return generated::edge_bits(r, generated::binary16) << 16 | generated::edge_bits(r, generated::binary16);
    case add_bf16x2: return generated::edge_bits(r, generated::bfloat16) << 16 | generated::edge_bits(r, generated::bfloat16);
    case add_f32x2: case add_f32x4:
      return generated::edge_bits(r, generated::binary32) << 32 | generated::edge_bits(r, generated::binary32);
    default: return generated::edge_integer(r, op_sizes[op] * 8);
  }
}

static void initial_slot(generated::random_source& r, unsigned char* slot) {
  // Edge values of one format for the whole slot, so that float operations
  // meet floats (and the rest any bits).
  const unsigned shape = r.below(4);
  for (int i = 0; i < slot_bytes; i += 8) {
    unsigned long long v;
    switch (shape) {
      case 0: v = generated::edge_bits(r, generated::binary32) << 32 | generated::edge_bits(r, generated::binary32); break;
      case 1: v = generated::edge_bits(r, generated::binary64); break;
      case 2: {
        v = 0;
        for (int h = 0; h < 4; ++h) v = v << 16 | generated::edge_bits(r, generated::binary16);
        break;
      }
      default: v = generated::edge_integer(r, 64); break;
    }
    std::memcpy(slot + i, &v, 8);
  }
}

int main(int argc, char** argv) {
  std::uint64_t seed;
  unsigned count;
  if (!generated::read_arguments(argc, argv, seed, count)) return 2;
  generated::random_source r(seed);

  std::vector<step> steps(size_t(count) * steps_per_case);
  std::vector<unsigned char> slots(size_t(count) * slot_bytes);
  std::vector<unsigned> in_shared(count);
  for (unsigned c = 0; c < count; ++c) {
    initial_slot(r, &slots[size_t(c) * slot_bytes]);
    in_shared[c] = r.chance(30);
    for (int k = 0; k < steps_per_case; ++k) {
      step& s = steps[c * steps_per_case + k];
      // The vector adds are for global memory only.
      do s.op = r.below(atomic_ops);
      while (in_shared[c] && (s.op == add_f32x2 || s.op == add_f32x4));
      s.offset = r.below(slot_bytes / op_sizes[s.op]) * op_sizes[s.op];
      s.compare_with_current = r.chance(50);
      s.a = operand_for(r, s.op);
      s.b = s.op == add_f32x4 ? operand_for(r, s.op) : generated::edge_integer(r, 64);
      if (s.op == inc_u32 || s.op == dec_u32) s.a = r.chance(50) ? r.below(8) : s.a;  // small limits wrap
    }
  }
  step* device_steps;
  unsigned* device_in_shared;
  unsigned char* device_slots;
  unsigned long long* device_old;
  cudaMalloc(&device_steps, steps.size() * sizeof(step));
  cudaMalloc(&device_in_shared, count * sizeof(unsigned));
  cudaMalloc(&device_slots, slots.size());
  cudaMalloc(&device_old, steps.size() * 2 * sizeof(unsigned long long));
  cudaMemcpy(device_steps, steps.data(), steps.size() * sizeof(step), cudaMemcpyHostToDevice);
  cudaMemcpy(device_in_shared, in_shared.data(), count * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(device_slots, slots.data(), slots.size(), cudaMemcpyHostToDevice);
  run_sequences<<<(count + 63) / 64, 64>>>(device_steps, device_in_shared, count, device_slots, device_old);
  std::vector<unsigned long long> old_values(steps.size() * 2);
  std::vector<unsigned char> final_slots(slots.size());
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t copied = cudaMemcpy(old_values.data(), device_old, old_values.size() * 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(final_slots.data(), device_slots, final_slots.size(), cudaMemcpyDeviceToHost);
  std::printf("atomic sequences, seed %s, %u cases: launch %s, copy %s\n", argv[1], count, cudaGetErrorName(launched),
              cudaGetErrorName(copied));
  for (unsigned c = 0; c < count; ++c) {
    std::printf("case %u%s:", c, in_shared[c] ? " (shared)" : "");
    for (int i = 0; i < slot_bytes; ++i) std::printf("%s%02x", i % 8 ? "" : " ", slots[size_t(c) * slot_bytes + i]);
    std::printf("\n");
    for (int k = 0; k < steps_per_case; ++k) {
      const size_t i = size_t(c) * steps_per_case + k;
      const step& s = steps[i];
      std::printf("  %s @%u %llx", op_names[s.op], s.offset, s.a);
      if (s.op == add_f32x4) std::printf(" %llx", s.b);
      if (s.op == cas_i32 || s.op == cas_u32 || s.op == cas_u64 || s.op == cas_u16) {
        if (s.compare_with_current) std::printf(" if unchanged");
        else std::printf(" if %llx", s.b & (op_sizes[s.op] == 8 ? ~0ull : (1ull << op_sizes[s.op] * 8) - 1));
      }
      std::printf(" -> old %llx", old_values[2 * i]);
      if (s.op == add_f32x4) std::printf(" %llx", old_values[2 * i + 1]);
      std::printf("\n");
    }
    std::printf("  final:");
    for (int i = 0; i < slot_bytes; ++i) std::printf("%s%02x", i % 8 ? "" : " ", final_slots[size_t(c) * slot_bytes + i]);
    std::printf("\n");
  }

  // Contention: 8 blocks of 256 threads.
  const unsigned blocks = 8, threads = 256, words = blocks * contended_words;
  std::vector<unsigned> ops(words), initial(words), operands(size_t(blocks) * threads * contended_words);
  for (unsigned w = 0; w < words; ++w) {
    ops[w] = r.below(c_contended_ops);
    initial[w] = ops[w] == c_add_f32 ? 0x3f800000u : ops[w] == c_add_f16x2 || ops[w] == c_add_f16_high ? 0 : r.next32();
    if (ops[w] == c_inc_u32) initial[w] &= 0xff;
  }
  for (unsigned& operand : operands) operand = unsigned(generated::edge_integer(r, 32));
  for (unsigned t = 0; t < blocks * threads; ++t)  // atomicInc's limit: the same for every thread of a word
    for (unsigned w = 0; w < contended_words; ++w)
      if (ops[t / threads * contended_words + w] == c_inc_u32) operands[t * contended_words + w] = 0x1000u | (t / threads);
  unsigned *device_ops, *device_operands, *device_words, *device_shared;
  cudaMalloc(&device_ops, words * sizeof(unsigned));
  cudaMalloc(&device_operands, operands.size() * sizeof(unsigned));
  cudaMalloc(&device_words, words * sizeof(unsigned));
  cudaMalloc(&device_shared, words * sizeof(unsigned));
  cudaMemcpy(device_ops, ops.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(device_operands, operands.data(), operands.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemcpy(device_words, initial.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice);
  run_contention<<<blocks, threads>>>(device_ops, device_operands, device_words, device_shared);
  std::vector<unsigned> global_result(words), shared_result(words);
  const cudaError_t contended = cudaMemcpy(global_result.data(), device_words, words * sizeof(unsigned), cudaMemcpyDeviceToHost);
  cudaMemcpy(shared_result.data(), device_shared, words * sizeof(unsigned), cudaMemcpyDeviceToHost);
  std::printf("contention: %s\n", cudaGetErrorName(contended));
  for (unsigned w = 0; w < words; ++w)
    std::printf("word %u %s from %x: global %x shared %x\n", w, contended_names[ops[w]], initial[w], global_result[w],
                shared_result[w]);
  return 0;
}
