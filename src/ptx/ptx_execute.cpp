// Runs an inline-PTX statement for the calling CUDA thread: its registers
// are 64-bit slots, each instruction reads and writes them at its type's
// width. Warp and block instructions go to the engine as their CUDA
// intrinsics do, so they wait, and are checked, the same way.
#include <cusim/detail/inline_ptx.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#include <cusim/detail/builtins.hpp>
#include <cusim/detail/device_api.hpp>
#include <cusim/detail/half_bits.hpp>
#include <cusim/detail/progress.hpp>
#include <cusim/detail/warp_api.hpp>
#include <cusim/profile.hpp>

#include "memory/runtime_writes.hpp"
#include "ptx/ptx_program.hpp"
#include "support/address_check.hpp"
#include "support/diagnostics.hpp"

namespace cusim::detail::ptx {

namespace {

std::uint64_t mask_of(unsigned int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
std::uint64_t truncate(type t, std::uint64_t v) { return v & mask_of(bits_of(t)); }
std::int64_t sign_extend(std::uint64_t v, unsigned int bits) {
  if (bits >= 64) return static_cast<std::int64_t>(v);
  const std::uint64_t sign = 1ull << (bits - 1);
  v &= mask_of(bits);
  return static_cast<std::int64_t>((v ^ sign) - sign);
}
float as_f32(std::uint64_t v) { return std::bit_cast<float>(static_cast<std::uint32_t>(v)); }
double as_f64(std::uint64_t v) { return std::bit_cast<double>(v); }
std::uint64_t from_f32(float f) { return std::bit_cast<std::uint32_t>(f); }
std::uint64_t from_f64(double d) { return std::bit_cast<std::uint64_t>(d); }

// A float of the instruction's type, widened to double for arithmetic
// (exact: every f32 and f16 is a double).
double real_of(type t, std::uint64_t v) {
  if (t == type::f32) return as_f32(v);
  if (t == type::f16) return half_bits_to_float(static_cast<std::uint16_t>(v));
  return as_f64(v);
}
std::uint64_t bits_of_real(type t, double d) {
  if (t == type::f32) return from_f32(static_cast<float>(d));
  if (t == type::f16) return double_to_half_bits(d);
  return from_f64(d);
}
// f32 arithmetic must round once, in float: do it in float where it matters.
float flush(float f, bool ftz) { return ftz && std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }

// A GPU's arithmetic gives one NaN whatever the operands held (an H100:
// 0x7fffffff for f32), not the operand's payload as a CPU does.
std::uint64_t canonical(type t, std::uint64_t bits) {
  if (t == type::f32 && std::isnan(as_f32(bits))) return 0x7fffffffu;
  if (t == type::f64 && std::isnan(as_f64(bits))) return 0x7fffffffffffffffull;
  return bits;
}

unsigned int linear_tid() { return this_thread_context().linear_tid; }
unsigned int lane_id() { return linear_tid() % 32; }

// The arithmetic of the video instructions (vadd, vabsdiff4, ...), on
// operands already extended by their types; `shift` for vshl and vshr.
std::int64_t video_arithmetic(variant v, std::int64_t x, std::int64_t y, std::uint64_t shift) {
  switch (v) {
    case variant::video_add: return x + y;
    case variant::video_sub: return x - y;
    case variant::video_absdiff: return x > y ? x - y : y - x;
    case variant::video_min: return std::min(x, y);
    case variant::video_max: return std::max(x, y);
    case variant::video_shl: return shift >= 32 ? 0 : static_cast<std::int64_t>((static_cast<std::uint64_t>(x) << shift) & 0xffffffffu);
    case variant::video_shr: return shift >= 32 ? (x < 0 ? -1 : 0) : x >> shift;
    default: return (x + y + 1) >> 1;  // vavrg: rounded up
  }
}

class machine {
 public:
  machine(const program& p, const statement& s, operand_slot* slots, unsigned int count)
      : program_(p), statement_(s), slots_(slots), slot_count_(count), registers_(p.registers.size(), 0) {}

  void run() {
    for (std::size_t pc = 0; pc < program_.instructions.size();) {
      const instruction& ins = program_.instructions[pc];
      current_ = &ins;
      if (ins.guard.k != value_ref::kind::none && (read(ins.guard, type::pred) & 1) == 0) {
        ++pc;
        continue;
      }
      if (ins.op == opcode::bra) {
        // A loop in PTX may wait for another thread (polling a flag): each
        // backward branch is a progress point, as an atomic is.
        if (ins.target <= pc) note_progress_point(progress_kind::atomic);
        pc = ins.target;
        continue;
      }
      execute(ins);
      ++pc;
    }
    for (unsigned int i = 0; i < slot_count_; ++i) {
      if (slots_[i].is_output) slots_[i].store(slots_[i].address, slots_[i].bits, slots_[i].constraint);
    }
  }

 private:
  [[noreturn]] void unsupported(const std::string& what) const {
    trap_with(fmt::format("inline PTX '{}': {}", current_->text, what));
  }
  [[noreturn]] void trap_with(const std::string& message) const {
    report("{}:{}: {}. cusim stops the grid (docs/inline-ptx.md lists what it runs).", statement_.file,
           statement_.line, message);
    trap("inline PTX", statement_.file, statement_.line);
  }

  const operand& op(unsigned int i) const {
    if (i >= current_->operand_count) unsupported("too few operands");
    return current_->operands[i];
  }

  std::uint64_t read(const value_ref& v, type t) const {
    std::uint64_t bits = 0;
    switch (v.k) {
      case value_ref::kind::reg: bits = registers_[v.index]; break;
      case value_ref::kind::asm_operand:
        if (v.index >= slot_count_) unsupported(fmt::format("%{} names no operand of the asm statement", v.index));
        bits = slots_[v.index].bits;
        break;
      case value_ref::kind::immediate:
        bits = v.bits;
        if (v.real_bits == 64 && t == type::f32) bits = from_f32(static_cast<float>(as_f64(bits)));
        if (v.real_bits == 64 && t == type::f16) bits = double_to_half_bits(as_f64(bits));
        break;
      case value_ref::kind::special: bits = special_register(static_cast<special>(v.index)); break;
      case value_ref::kind::sink:
      case value_ref::kind::none: unsupported("an operand without a value");
    }
    if (v.negated) bits = (bits & 1) ^ 1;
    return bits;
  }
  std::uint64_t read(unsigned int i, type t) const { return read(op(i).v, t); }
  std::int64_t read_signed(unsigned int i, type t) const { return sign_extend(read(i, t), bits_of(t)); }

  void write(const value_ref& v, type t, std::uint64_t bits) {
    // A register holds a narrow signed value sign-extended (cvt.s8.s32 of
    // 0xef gives 0xffffffef), an unsigned or untyped one zero-extended.
    if (t == type::pred) bits &= 1;
    else if (is_signed(t)) bits = static_cast<std::uint64_t>(sign_extend(bits, bits_of(t)));
    else bits = truncate(t, bits);
    switch (v.k) {
      case value_ref::kind::reg: registers_[v.index] = bits; break;
      case value_ref::kind::asm_operand:
        if (v.index >= slot_count_) unsupported(fmt::format("%{} names no operand of the asm statement", v.index));
        slots_[v.index].bits = bits;
        break;
      case value_ref::kind::sink: break;
      default: unsupported("a destination that is not a register");
    }
  }
  void write(unsigned int i, type t, std::uint64_t bits) { write(op(i).v, t, bits); }

  std::uint64_t special_register(special s) const {
    const unsigned int lane = lane_id();
    const block_position where = running_block_position();
    const dim3 cluster = cluster_dims();
    switch (s) {
      case special::laneid: return lane;
      case special::warpid: return linear_tid() / 32;
      case special::nwarpid: return static_cast<std::uint64_t>(active_profile().max_threads_per_multiprocessor / 32);
      case special::smid: return where.sm;
      case special::nsmid: return static_cast<std::uint64_t>(active_profile().multiprocessor_count);
      case special::gridid: return where.grid_serial;
      case special::tid_x: return threadIdx.x;
      case special::tid_y: return threadIdx.y;
      case special::tid_z: return threadIdx.z;
      case special::ntid_x: return blockDim.x;
      case special::ntid_y: return blockDim.y;
      case special::ntid_z: return blockDim.z;
      case special::ctaid_x: return blockIdx.x;
      case special::ctaid_y: return blockIdx.y;
      case special::ctaid_z: return blockIdx.z;
      case special::nctaid_x: return gridDim.x;
      case special::nctaid_y: return gridDim.y;
      case special::nctaid_z: return gridDim.z;
      case special::lanemask_eq: return 1u << lane;
      case special::lanemask_lt: return (1u << lane) - 1;
      case special::lanemask_le: return static_cast<std::uint32_t>((2ull << lane) - 1);
      case special::lanemask_gt: return ~static_cast<std::uint32_t>((2ull << lane) - 1);
      case special::lanemask_ge: return ~((1u << lane) - 1);
      case special::clock: return static_cast<std::uint32_t>(device_clock_cycles());
      case special::clock_hi: return static_cast<std::uint32_t>(static_cast<std::uint64_t>(device_clock_cycles()) >> 32);
      case special::clock64: return static_cast<std::uint64_t>(device_clock_cycles());
      case special::globaltimer: return static_cast<std::uint64_t>(wall_clock_nanoseconds());
      case special::globaltimer_lo: return static_cast<std::uint32_t>(wall_clock_nanoseconds());
      case special::globaltimer_hi: return static_cast<std::uint32_t>(static_cast<std::uint64_t>(wall_clock_nanoseconds()) >> 32);
      case special::dynamic_smem_size: return where.dynamic_shared_bytes;
      case special::total_smem_size: return where.dynamic_shared_bytes + where.static_shared_bytes;
      case special::cluster_ctarank: return where.cluster_rank;
      case special::cluster_nctarank: return static_cast<std::uint64_t>(cluster.x) * cluster.y * cluster.z;
      case special::clusterid_x: return blockIdx.x / cluster.x;
      case special::clusterid_y: return blockIdx.y / cluster.y;
      case special::clusterid_z: return blockIdx.z / cluster.z;
      case special::nclusterid_x: return gridDim.x / cluster.x;
      case special::nclusterid_y: return gridDim.y / cluster.y;
      case special::nclusterid_z: return gridDim.z / cluster.z;
      case special::cluster_ctaid_x: return blockIdx.x % cluster.x;
      case special::cluster_ctaid_y: return blockIdx.y % cluster.y;
      case special::cluster_ctaid_z: return blockIdx.z % cluster.z;
      case special::cluster_nctaid_x: return cluster.x;
      case special::cluster_nctaid_y: return cluster.y;
      case special::cluster_nctaid_z: return cluster.z;
    }
    return 0;
  }

  void execute(const instruction& ins) {
    const type t = ins.t;
    switch (ins.op) {
      case opcode::mov: return move(ins);
      case opcode::add: case opcode::sub: return add_or_subtract(ins);
      case opcode::mul: case opcode::mad: return multiply(ins);
      case opcode::fma: return write(0, t, real_op3(ins, [](auto a, auto b, auto c) { return std::fma(a, b, c); },
                                                    [](float a, float b, float c) { return std::fma(a, b, c); }));
      case opcode::div: case opcode::rem: return divide(ins);
      case opcode::abs: case opcode::neg: case opcode::min: case opcode::max: return compare_arithmetic(ins);
      case opcode::and_: return write(0, t, read(1, t) & read(2, t));
      case opcode::or_: return write(0, t, read(1, t) | read(2, t));
      case opcode::xor_: return write(0, t, read(1, t) ^ read(2, t));
      case opcode::not_: return write(0, t, t == type::pred ? (read(1, t) & 1) ^ 1 : ~read(1, t));
      case opcode::cnot: return write(0, t, truncate(t, read(1, t)) == 0 ? 1 : 0);
      case opcode::shl: case opcode::shr: return shift(ins);
      case opcode::popc: return write(0, type::u32, std::popcount(truncate(t, read(1, t))));
      case opcode::clz: return write(0, type::u32, std::countl_zero(truncate(t, read(1, t))) - (64 - bits_of(t)));
      case opcode::brev: return write(0, t, bit_reverse(read(1, t), bits_of(t)));
      case opcode::bfind: return find_bit(ins);
      case opcode::bfe: return extract_bits(ins);
      case opcode::bfi: return insert_bits(ins);
      case opcode::prmt: return permute(ins);
      case opcode::lop3: return logic3(ins);
      case opcode::shf: return funnel_shift(ins);
      case opcode::setp: return set_predicate(ins);
      case opcode::selp: return write(0, t, (read(3, type::pred) & 1) ? read(1, t) : read(2, t));
      case opcode::cvt: return convert(ins);
      case opcode::cvta: return write(0, t, read(1, t));  // one flat address space: generic and specific agree
      case opcode::rcp: case opcode::sqrt: case opcode::rsqrt: case opcode::ex2: case opcode::lg2:
      case opcode::sin: case opcode::cos: return real_function(ins);
      case opcode::copysign:
        return write(0, t, bits_of_real(t, std::copysign(real_of(t, read(2, t)), real_of(t, read(1, t)))));
      case opcode::ld: return load(ins);
      case opcode::st: return store(ins);
      case opcode::atom: case opcode::red: return atomic(ins);
      case opcode::bar: return barrier(ins);
      case opcode::membar: case opcode::fence:
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        note_progress_point(progress_kind::fence);
        return;
      case opcode::shfl: return shuffle(ins);
      case opcode::vote: return vote(ins);
      case opcode::activemask: return write(0, type::b32, collective(warp_op::active_mask, 0, 0).lanes);
      case opcode::match: return match(ins);
      case opcode::redux: return reduce(ins);
      case opcode::nanosleep: return spin_point();
      case opcode::trap: trap_with("trap instruction");
      case opcode::brkpt: trap("brkpt (inline PTX)", statement_.file, statement_.line);
      case opcode::exit: exit_thread();
      case opcode::bra: return;
      case opcode::simd2: return video(ins, 2);
      case opcode::simd4: return video(ins, 4);
      case opcode::video: return scalar_video(ins);
    }
  }

  // vadd, vshr & co (32-bit operands): the operation, saturated to the
  // destination type (.sat), then combined with c (.add, .min, .max).
  void scalar_video(const instruction& ins) {
    // Each operand extends by its own type (atype, btype); c only where a
    // secondary operation reads it.
    const auto operand_at = [&](unsigned int i, type t) {
      const std::uint64_t bits = read(i, type::b32) & 0xffffffffu;
      return t == type::s32 ? sign_extend(bits, 32) : static_cast<std::int64_t>(bits);
    };
    const std::int64_t a = operand_at(1, ins.from), b = operand_at(2, ins.from_b);
    const std::int64_t c = ins.mode == 0 ? 0 : operand_at(3, ins.t);
    const std::uint64_t shift = static_cast<std::uint64_t>(b) & 0xffffffffu;
    const std::uint64_t amount = ins.clamp ? std::min<std::uint64_t>(shift, 32) : shift & 31;
    std::int64_t r = video_arithmetic(ins.v, a, b, amount);
    if (ins.sat) {
      r = ins.t == type::s32 ? std::clamp<std::int64_t>(r, INT32_MIN, INT32_MAX) : std::clamp<std::int64_t>(r, 0, UINT32_MAX);
    }
    if (ins.mode == 1) r += c;
    if (ins.mode == 2) r = std::min(r, c);
    if (ins.mode == 3) r = std::max(r, c);
    write(0, type::b32, static_cast<std::uint64_t>(r));
  }

  // vabsdiff4 & co: the operation lane by lane (4 bytes or 2 halves), each
  // lane's result saturated to the lane (.sat) or truncated to it; with
  // .add their sum plus c instead.
  void video(const instruction& ins, unsigned int lanes) {
    const unsigned int width = 32 / lanes;
    const bool is_signed_lane = ins.from == type::s32;
    const std::uint32_t a = static_cast<std::uint32_t>(read(1, type::b32));
    const std::uint32_t b = static_cast<std::uint32_t>(read(2, type::b32));
    const std::uint32_t c = ins.operand_count > 3 ? static_cast<std::uint32_t>(read(3, type::b32)) : 0;
    const auto lane_of = [&](std::uint32_t v, unsigned int i, bool signed_lane) -> std::int64_t {
      const std::uint64_t bits = (v >> (i * width)) & mask_of(width);
      return signed_lane ? sign_extend(bits, width) : static_cast<std::int64_t>(bits);
    };
    std::int64_t sum = 0;
    std::uint32_t packed = 0;
    for (unsigned int i = 0; i < lanes; ++i) {
      const std::int64_t x = lane_of(a, i, is_signed_lane), y = lane_of(b, i, ins.from_b == type::s32);
      std::int64_t r = video_arithmetic(ins.v, x, y, 0);
      sum += r;
      if (ins.sat) {
        const std::int64_t lo = is_signed_lane ? -(1ll << (width - 1)) : 0;
        const std::int64_t hi = is_signed_lane ? (1ll << (width - 1)) - 1 : static_cast<std::int64_t>(mask_of(width));
        r = std::clamp(r, lo, hi);
      }
      packed |= static_cast<std::uint32_t>(static_cast<std::uint64_t>(r) & mask_of(width)) << (i * width);
    }
    write(0, type::b32, ins.mode == 1 ? static_cast<std::uint64_t>(sum + c) : packed);
  }

  // mov d, a; mov.b64 d, {lo, hi} (pack); mov.b64 {lo, hi}, a (unpack).
  void move(const instruction& ins) {
    const operand& d = op(0);
    const operand& a = op(1);
    if (a.s == operand::shape::vector) {
      const unsigned int width = bits_of(ins.t) / a.count;
      std::uint64_t packed = 0;
      for (unsigned int i = 0; i < a.count; ++i) packed |= (read(a.elements[i], ins.t) & mask_of(width)) << (i * width);
      return write(d.v, ins.t, packed);
    }
    if (d.s == operand::shape::vector) {
      const unsigned int width = bits_of(ins.t) / d.count;
      const std::uint64_t packed = read(a.v, ins.t);
      for (unsigned int i = 0; i < d.count; ++i) write(d.elements[i], ins.t, (packed >> (i * width)) & mask_of(width));
      return;
    }
    write(d.v, ins.t, read(a.v, ins.t));
  }

  void add_or_subtract(const instruction& ins) {
    const type t = ins.t;
    const bool subtract = ins.op == opcode::sub;
    if (is_float(t)) {
      const auto f = [subtract](auto a, auto b) { return subtract ? a - b : a + b; };
      const auto g = [subtract](float a, float b) { return subtract ? a - b : a + b; };
      return write(0, t, real_op2(ins, f, g));
    }
    const unsigned int bits = bits_of(t);
    const std::uint64_t a = truncate(t, read(1, t)), b = truncate(t, read(2, t));
    const std::uint64_t carry = ins.carry_in ? carry_ : 0;
    if (ins.sat && is_signed(t)) {
      const __int128 wide = subtract ? static_cast<__int128>(sign_extend(a, bits)) - sign_extend(b, bits)
                                     : static_cast<__int128>(sign_extend(a, bits)) + sign_extend(b, bits);
      const __int128 lo = -(static_cast<__int128>(1) << (bits - 1)), hi = (static_cast<__int128>(1) << (bits - 1)) - 1;
      return write(0, t, static_cast<std::uint64_t>(wide < lo ? lo : wide > hi ? hi : wide));
    }
    const unsigned __int128 wide = subtract ? static_cast<unsigned __int128>(a) - b - carry
                                            : static_cast<unsigned __int128>(a) + b + carry;
    if (ins.carry_out) carry_ = static_cast<std::uint64_t>(wide >> bits) & 1;
    write(0, t, static_cast<std::uint64_t>(wide));
  }

  void multiply(const instruction& ins) {
    const type t = ins.t;
    const bool add = ins.op == opcode::mad;
    if (is_float(t)) {
      if (add) return write(0, t, real_op3(ins, [](auto a, auto b, auto c) { return std::fma(a, b, c); },
                                           [](float a, float b, float c) { return std::fma(a, b, c); }));
      return write(0, t, real_op2(ins, [](auto a, auto b) { return a * b; }, [](float a, float b) { return a * b; }));
    }
    const unsigned int bits = bits_of(t);
    __int128 product;
    if (is_signed(t)) product = static_cast<__int128>(read_signed(1, t)) * read_signed(2, t);
    else product = static_cast<__int128>(static_cast<unsigned __int128>(truncate(t, read(1, t))) * truncate(t, read(2, t)));
    type result_type = t;
    std::uint64_t result;
    if (ins.v == variant::hi) {
      result = static_cast<std::uint64_t>(product >> bits);
    } else if (ins.v == variant::wide) {
      result_type = bits == 16 ? type::b32 : type::b64;
      result = static_cast<std::uint64_t>(product);
    } else {
      result = static_cast<std::uint64_t>(product);
    }
    if (add) {
      const unsigned __int128 sum = static_cast<unsigned __int128>(truncate(result_type, result)) +
                                    truncate(result_type, read(3, result_type)) + (ins.carry_in ? carry_ : 0);
      if (ins.carry_out) carry_ = static_cast<std::uint64_t>(sum >> bits_of(result_type)) & 1;
      result = static_cast<std::uint64_t>(sum);
    }
    write(0, result_type, result);
  }

  void divide(const instruction& ins) {
    const type t = ins.t;
    if (is_float(t)) {
      return write(0, t, real_op2(ins, [](auto a, auto b) { return a / b; }, [](float a, float b) { return a / b; }));
    }
    const bool remainder = ins.op == opcode::rem;
    if (is_signed(t)) {
      const std::int64_t a = read_signed(1, t), b = read_signed(2, t);
      if (b == 0) return write(0, t, remainder ? static_cast<std::uint64_t>(a) : ~0ull);  // as the GPU gives
      if (b == -1) return write(0, t, remainder ? 0 : static_cast<std::uint64_t>(-static_cast<__int128>(a)));
      return write(0, t, static_cast<std::uint64_t>(remainder ? a % b : a / b));
    }
    const std::uint64_t a = truncate(t, read(1, t)), b = truncate(t, read(2, t));
    if (b == 0) return write(0, t, remainder ? a : ~0ull);
    write(0, t, remainder ? a % b : a / b);
  }

  void compare_arithmetic(const instruction& ins) {
    const type t = ins.t;
    if (is_float(t)) {
      // (abs and neg of a NaN give the canonical NaN too, on an H100.)
      const double a = real_of(t, read(1, t));
      switch (ins.op) {
        case opcode::abs: return write(0, t, canonical(t, bits_of_real(t, std::fabs(a))));
        case opcode::neg: return write(0, t, canonical(t, read(1, t) ^ (1ull << (bits_of(t) - 1))));
        case opcode::min: return write(0, t, canonical(t, bits_of_real(t, std::fmin(a, real_of(t, read(2, t))))));
        default: return write(0, t, canonical(t, bits_of_real(t, std::fmax(a, real_of(t, read(2, t))))));
      }
    }
    if (is_signed(t) || ins.op == opcode::abs || ins.op == opcode::neg) {
      const std::int64_t a = read_signed(1, t);
      const std::uint64_t negated = 0 - static_cast<std::uint64_t>(a);  // wraps, as the GPU's does
      switch (ins.op) {
        case opcode::abs: return write(0, t, a < 0 ? negated : static_cast<std::uint64_t>(a));
        case opcode::neg: return write(0, t, negated);
        case opcode::min: return write(0, t, static_cast<std::uint64_t>(std::min(a, read_signed(2, t))));
        default: return write(0, t, static_cast<std::uint64_t>(std::max(a, read_signed(2, t))));
      }
    }
    const std::uint64_t a = truncate(t, read(1, t)), b = truncate(t, read(2, t));
    write(0, t, ins.op == opcode::min ? std::min(a, b) : std::max(a, b));
  }

  void shift(const instruction& ins) {
    const type t = ins.t;
    const unsigned int bits = bits_of(t);
    const std::uint64_t amount = truncate(type::u32, read(2, type::u32));
    if (ins.op == opcode::shl) return write(0, t, amount >= bits ? 0 : read(1, t) << amount);
    if (is_signed(t)) {
      const std::int64_t a = read_signed(1, t);
      return write(0, t, static_cast<std::uint64_t>(a >> (amount >= bits ? bits - 1 : amount)));
    }
    write(0, t, amount >= bits ? 0 : truncate(t, read(1, t)) >> amount);
  }

  static std::uint64_t bit_reverse(std::uint64_t v, unsigned int bits) {
    std::uint64_t r = 0;
    for (unsigned int i = 0; i < bits; ++i) r |= ((v >> i) & 1) << (bits - 1 - i);
    return r;
  }

  // bfind: the position of the most significant bit that differs from the
  // sign (signed) or is set (unsigned); 0xffffffff when there is none.
  void find_bit(const instruction& ins) {
    const type t = ins.t;
    const unsigned int bits = bits_of(t);
    std::uint64_t v = truncate(t, read(1, t));
    if (is_signed(t) && sign_extend(v, bits) < 0) v = truncate(t, ~v);
    if (v == 0) return write(0, type::u32, 0xffffffffu);
    const unsigned int position = 63 - std::countl_zero(v);
    write(0, type::u32, ins.clamp ? bits - 1 - position : position);
  }

  void extract_bits(const instruction& ins) {
    const type t = ins.t;
    const unsigned int bits = bits_of(t);
    const std::uint64_t a = truncate(t, read(1, t));
    const unsigned int position = static_cast<unsigned int>(read(2, type::u32) & 0xff);
    const unsigned int length = static_cast<unsigned int>(read(3, type::u32) & 0xff);
    std::uint64_t result = 0;
    for (unsigned int i = 0; i < bits; ++i) {
      std::uint64_t bit;
      if (i < length && position + i < bits) bit = (a >> (position + i)) & 1;
      else if (is_signed(t)) bit = length == 0 ? 0 : (a >> std::min(position + length - 1, bits - 1)) & 1;  // the field's sign
      else bit = 0;
      result |= bit << i;
    }
    write(0, t, result);
  }

  void insert_bits(const instruction& ins) {
    const type t = ins.t;
    const unsigned int bits = bits_of(t);
    const std::uint64_t a = read(1, t), b = truncate(t, read(2, t));
    const unsigned int position = static_cast<unsigned int>(read(3, type::u32) & 0xff);
    const unsigned int length = static_cast<unsigned int>(read(4, type::u32) & 0xff);
    std::uint64_t result = b;
    for (unsigned int i = 0; i < length && position + i < bits; ++i) {
      result = (result & ~(1ull << (position + i))) | (((a >> i) & 1) << (position + i));
    }
    write(0, t, result);
  }

  // prmt.b32 d, a, b, c: four bytes chosen from the eight of {b, a}.
  void permute(const instruction& ins) {
    const std::uint64_t source = (truncate(type::b32, read(2, type::b32)) << 32) | truncate(type::b32, read(1, type::b32));
    const std::uint32_t c = static_cast<std::uint32_t>(read(3, type::b32));
    const auto byte = [source](unsigned int i) { return static_cast<std::uint32_t>((source >> (8 * (i & 7))) & 0xff); };
    std::uint32_t result = 0;
    if (ins.mode == 0) {
      for (unsigned int i = 0; i < 4; ++i) {
        const unsigned int selector = (c >> (4 * i)) & 0xf;
        std::uint32_t value = byte(selector & 7);
        if (selector & 8) value = (value & 0x80) ? 0xff : 0;  // replicate the byte's sign
        result |= value << (8 * i);
      }
      return write(0, type::b32, result);
    }
    // The other modes, by c's two low bits: bytes for d.b0 .. d.b3.
    static const unsigned char modes[6][4][4] = {
        {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},  // f4e
        {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},  // b4e
        {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},  // rc8
        {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},  // ecl
        {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},  // ecr
        {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},  // rc16
    };
    const unsigned char* picks = modes[ins.mode - 1][c & 3];
    for (unsigned int i = 0; i < 4; ++i) result |= byte(picks[i]) << (8 * i);
    write(0, type::b32, result);
  }

  void logic3(const instruction& ins) {
    const std::uint64_t a = read(1, ins.t), b = read(2, ins.t), c = read(3, ins.t);
    const unsigned int table = static_cast<unsigned int>(read(4, type::b32) & 0xff);
    std::uint64_t result = 0;
    for (unsigned int i = 0; i < bits_of(ins.t); ++i) {
      const unsigned int index = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1);
      result |= static_cast<std::uint64_t>((table >> index) & 1) << i;
    }
    write(0, ins.t, result);
  }

  // shf.{l,r}.{wrap,clamp}.b32 d, a, b, c: the 64 bits b:a shifted by c.
  void funnel_shift(const instruction& ins) {
    const std::uint64_t joined = (truncate(type::b32, read(2, type::b32)) << 32) | truncate(type::b32, read(1, type::b32));
    std::uint32_t n = static_cast<std::uint32_t>(read(3, type::u32));
    n = ins.clamp ? std::min(n, 32u) : n & 31;
    const std::uint64_t result = ins.v == variant::shift_left ? (joined << n) >> 32 : joined >> n;
    write(0, type::b32, result);
  }

  void set_predicate(const instruction& ins) {
    const type t = ins.t;
    bool result;
    if (is_float(t)) {
      const double a = real_of(t, read(1, t)), b = real_of(t, read(2, t));
      const bool unordered = std::isnan(a) || std::isnan(b);
      switch (ins.cmp) {
        case compare::eq: result = !unordered && a == b; break;
        case compare::ne: result = !unordered && a != b; break;
        case compare::lt: result = !unordered && a < b; break;
        case compare::le: result = !unordered && a <= b; break;
        case compare::gt: result = !unordered && a > b; break;
        case compare::ge: result = !unordered && a >= b; break;
        case compare::equ: result = unordered || a == b; break;
        case compare::neu: result = unordered || a != b; break;
        case compare::ltu: result = unordered || a < b; break;
        case compare::leu: result = unordered || a <= b; break;
        case compare::gtu: result = unordered || a > b; break;
        case compare::geu: result = unordered || a >= b; break;
        case compare::num: result = !unordered; break;
        case compare::nan: result = unordered; break;
        default: unsupported("an integer comparison on floating-point operands");
      }
    } else {
      const bool signed_compare = is_signed(t) && ins.cmp != compare::lo && ins.cmp != compare::ls &&
                                  ins.cmp != compare::hi && ins.cmp != compare::hs;
      const auto order = [&]() -> int {
        if (signed_compare) {
          const std::int64_t a = read_signed(1, t), b = read_signed(2, t);
          return a < b ? -1 : a > b ? 1 : 0;
        }
        const std::uint64_t a = truncate(t, read(1, t)), b = truncate(t, read(2, t));
        return a < b ? -1 : a > b ? 1 : 0;
      }();
      switch (ins.cmp) {
        case compare::eq: result = order == 0; break;
        case compare::ne: result = order != 0; break;
        case compare::lt: case compare::lo: result = order < 0; break;
        case compare::le: case compare::ls: result = order <= 0; break;
        case compare::gt: case compare::hi: result = order > 0; break;
        case compare::ge: case compare::hs: result = order >= 0; break;
        default: unsupported("a floating-point comparison on integer operands");
      }
    }
    write(op(0).v, type::pred, result);
    if (op(0).second.k != value_ref::kind::none) write(op(0).second, type::pred, !result);
  }

  void convert(const instruction& ins) {
    const type to = ins.t, from = ins.from;
    const std::uint64_t a = read(1, from);
    if (!is_float(to) && !is_float(from)) {
      // Integers: extend by the source's signedness (a u64 stays positive),
      // then truncate (or saturate).
      const __int128 value = is_signed(from) ? static_cast<__int128>(sign_extend(a, bits_of(from)))
                                             : static_cast<__int128>(truncate(from, a));
      return write(0, to, ins.sat ? saturate_integer(value, to) : static_cast<std::uint64_t>(value));
    }
    if (is_float(from) && is_float(to)) {
      double value = real_of(from, a);
      if (ins.round == rounding::rni || ins.round == rounding::rzi || ins.round == rounding::rmi || ins.round == rounding::rpi) {
        value = round_integral(value, ins.round);
      }
      if (ins.sat) value = std::isnan(value) ? 0.0 : std::clamp(value, 0.0, 1.0);
      if (to == type::f16 && from == type::f32) {
        return write(0, to, float_to_half_bits(as_f32(a), half_rounding_of(ins.round)));
      }
      if (to == type::f32 && from == type::f64) return write(0, to, from_f32(to_f32(value, ins.round)));
      return write(0, to, bits_of_real(to, value));
    }
    if (is_float(from)) {
      // Float to integer: round as told, saturate to the type's range, NaN to 0.
      const double value = real_of(from, a);
      if (std::isnan(value)) return write(0, to, 0);
      const double rounded = round_integral(value, ins.round == rounding::none ? rounding::rzi : ins.round);
      const double lo = is_signed(to) ? -std::ldexp(1.0, bits_of(to) - 1) : 0.0;
      const double hi = is_signed(to) ? std::ldexp(1.0, bits_of(to) - 1) - 1 : std::ldexp(1.0, bits_of(to)) - 1;
      if (rounded <= lo) return write(0, to, static_cast<std::uint64_t>(static_cast<std::int64_t>(lo)));
      if (rounded >= hi) {
        return write(0, to, is_signed(to) ? static_cast<std::uint64_t>(static_cast<std::int64_t>(hi)) : mask_of(bits_of(to)));
      }
      return write(0, to, is_signed(to) ? static_cast<std::uint64_t>(static_cast<std::int64_t>(rounded))
                                        : static_cast<std::uint64_t>(rounded));
    }
    // Integer to float.
    const long double value = is_signed(from) ? static_cast<long double>(sign_extend(a, bits_of(from)))
                                              : static_cast<long double>(truncate(from, a));
    if (to == type::f32) return write(0, to, from_f32(to_f32(value, ins.round)));
    if (to == type::f16) return write(0, to, float_to_half_bits(static_cast<float>(value)));
    write(0, to, from_f64(to_f64(value, ins.round)));
  }

  static half_rounding half_rounding_of(rounding r) {
    switch (r) {
      case rounding::rz: return half_rounding::toward_zero;
      case rounding::rm: return half_rounding::down;
      case rounding::rp: return half_rounding::up;
      default: return half_rounding::nearest_even;
    }
  }

  // Rounded as `r` says (nearest even when none): rounded to nearest, then
  // stepped back where that went the wrong way. `value` is exact (a long
  // double holds every 64-bit integer and every double).
  template <class Float>
  static Float rounded_to(long double value, rounding r) {
    Float f = static_cast<Float>(value);
    const auto wide = static_cast<long double>(f);
    if (r == rounding::rz && std::fabs(wide) > std::fabs(value)) f = std::nextafter(f, Float(0));
    if (r == rounding::rm && wide > value) f = std::nextafter(f, -std::numeric_limits<Float>::infinity());
    if (r == rounding::rp && wide < value) f = std::nextafter(f, std::numeric_limits<Float>::infinity());
    return f;
  }
  static float to_f32(long double value, rounding r) { return rounded_to<float>(value, r); }
  static double to_f64(long double value, rounding r) { return rounded_to<double>(value, r); }

  static double round_integral(double value, rounding r) {
    switch (r) {
      case rounding::rni: return std::nearbyint(value);  // the default mode: to nearest, ties to even
      case rounding::rmi: return std::floor(value);
      case rounding::rpi: return std::ceil(value);
      default: return std::trunc(value);
    }
  }

  static std::uint64_t saturate_integer(__int128 value, type to) {
    const unsigned int bits = bits_of(to);
    const __int128 lo = is_signed(to) ? -(static_cast<__int128>(1) << (bits - 1)) : 0;
    const __int128 hi = is_signed(to) ? (static_cast<__int128>(1) << (bits - 1)) - 1 : (static_cast<__int128>(1) << bits) - 1;
    return static_cast<std::uint64_t>(value < lo ? lo : value > hi ? hi : value);
  }

  static bool directed(rounding r) { return r == rounding::rz || r == rounding::rm || r == rounding::rp; }

  // f32 add, sub, mul, fma with .rz, .rm or .rp: the exact result as a
  // long double and what it left out (products of floats are exact in a
  // long double's 64 bits, a sum's error comes from TwoSum), rounded to
  // nearest and then stepped the way the mode and the exact result ask.
  std::uint64_t directed_f32(const instruction& ins) const {
    const auto operand = [&](unsigned int i) {
      return static_cast<long double>(flush(as_f32(read(i, type::f32)), ins.ftz));
    };
    const auto two_sum = [](long double x, long double y, long double& error) {
      const long double sum = x + y, y_part = sum - x;
      error = (x - (sum - y_part)) + (y - y_part);
      return sum;
    };
    long double error = 0, value;
    switch (ins.op) {
      case opcode::add: value = two_sum(operand(1), operand(2), error); break;
      case opcode::sub: value = two_sum(operand(1), -operand(2), error); break;
      case opcode::mul: value = operand(1) * operand(2); break;
      default: value = two_sum(operand(1) * operand(2), operand(3), error); break;  // fma, mad
    }
    float f = static_cast<float>(value);
    if (!std::isfinite(f) && std::isfinite(value)) {
      // Past the largest float: the modes that round toward it stop there.
      const bool keep_largest = ins.round == rounding::rz || (ins.round == rounding::rm) == (value > 0);
      if (keep_largest) f = std::copysign(std::numeric_limits<float>::max(), static_cast<float>(value));
      return canonical(type::f32, from_f32(saturate_real(f, ins.sat)));
    }
    const long double below_exact = (value - static_cast<long double>(f)) + error;  // exact minus f
    if (std::isfinite(f) && below_exact != 0) {
      const bool too_far_out = (f > 0 && below_exact < 0) || (f < 0 && below_exact > 0);
      if (ins.round == rounding::rz && too_far_out) f = std::nextafter(f, 0.0f);
      if (ins.round == rounding::rm && below_exact < 0) f = std::nextafter(f, -INFINITY);
      if (ins.round == rounding::rp && below_exact > 0) f = std::nextafter(f, INFINITY);
    }
    return canonical(type::f32, from_f32(saturate_real(flush(f, ins.ftz), ins.sat)));
  }

  template <class Double, class Float>
  std::uint64_t real_op2(const instruction& ins, Double on_doubles, Float on_floats) const {
    const type t = ins.t;
    if (t == type::f32 && directed(ins.round)) return directed_f32(ins);
    if (t == type::f32) {
      const float r = on_floats(flush(as_f32(read(1, t)), ins.ftz), flush(as_f32(read(2, t)), ins.ftz));
      return canonical(t, from_f32(saturate_real(flush(r, ins.ftz), ins.sat)));
    }
    if (t == type::f64) return canonical(t, from_f64(on_doubles(as_f64(read(1, t)), as_f64(read(2, t)))));
    unsupported("arithmetic on this type");
  }
  template <class Double, class Float>
  std::uint64_t real_op3(const instruction& ins, Double on_doubles, Float on_floats) const {
    const type t = ins.t;
    if (t == type::f32 && directed(ins.round)) return directed_f32(ins);
    if (t == type::f32) {
      const float r = on_floats(flush(as_f32(read(1, t)), ins.ftz), flush(as_f32(read(2, t)), ins.ftz),
                                flush(as_f32(read(3, t)), ins.ftz));
      return canonical(t, from_f32(saturate_real(flush(r, ins.ftz), ins.sat)));
    }
    if (t == type::f64) {
      return canonical(t, from_f64(on_doubles(as_f64(read(1, t)), as_f64(read(2, t)), as_f64(read(3, t)))));
    }
    unsupported("arithmetic on this type");
  }
  static float saturate_real(float f, bool sat) { return !sat ? f : std::isnan(f) ? 0.0f : std::clamp(f, 0.0f, 1.0f); }

  void real_function(const instruction& ins) {
    const type t = ins.t;
    const double a = real_of(t, read(1, t));
    double r = 0;
    switch (ins.op) {
      case opcode::rcp: r = 1.0 / a; break;
      case opcode::sqrt: r = std::sqrt(a); break;
      case opcode::rsqrt: r = 1.0 / std::sqrt(a); break;
      case opcode::ex2: r = std::exp2(a); break;
      case opcode::lg2: r = std::log2(a); break;
      case opcode::sin: r = std::sin(a); break;
      default: r = std::cos(a); break;
    }
    if (t == type::f32) {
      // Exactly rounded for rcp.rn and sqrt.rn (computed from the float's
      // double, rounded once); the approximations are close, not the GPU's bits.
      write(0, t, canonical(t, from_f32(saturate_real(flush(static_cast<float>(r), ins.ftz), ins.sat))));
    } else {
      write(0, t, canonical(t, bits_of_real(t, r)));
    }
  }

  std::uint64_t address_of(const operand& o) const {
    if (o.s != operand::shape::address) unsupported("a memory operand that is not [address]");
    const std::uint64_t base = o.v.k == value_ref::kind::none ? 0 : read(o.v, type::u64);
    return base + static_cast<std::uint64_t>(o.offset);
  }

  void check_space(const instruction& ins) const {
    if (ins.where == space::param) unsupported("the .param state space");
  }

  void load(const instruction& ins) {
    check_space(ins);
    const unsigned int width = bits_of(ins.t) / 8;
    const auto* p = reinterpret_cast<const unsigned char*>(address_of(op(1)));
    const operand& d = op(0);
    const unsigned int count = d.s == operand::shape::vector ? d.count : 1;
    address_check::check_access(p, std::size_t{width} * count, /*write=*/false);
    for (unsigned int i = 0; i < count; ++i) {
      std::uint64_t bits = 0;
      std::memcpy(&bits, p + i * width, width);
      if (is_signed(ins.t)) bits = static_cast<std::uint64_t>(sign_extend(bits, width * 8));
      write(count == 1 ? d.v : d.elements[i], ins.t, bits);
    }
  }

  void store(const instruction& ins) {
    check_space(ins);
    const unsigned int width = bits_of(ins.t) / 8;
    auto* p = reinterpret_cast<unsigned char*>(address_of(op(0)));
    const operand& a = op(1);
    const unsigned int count = a.s == operand::shape::vector ? a.count : 1;
    address_check::check_access(p, std::size_t{width} * count, /*write=*/true);
    for (unsigned int i = 0; i < count; ++i) {
      const std::uint64_t bits = read(count == 1 ? a.v : a.elements[i], ins.t);
      std::memcpy(p + i * width, &bits, width);
    }
    note_written(p, std::size_t{width} * count);  // the interpreter's stores, unseen by instrumentation
  }

  // atom.op.type d, [a], b (, c for cas); red.op.type [a], b.
  void atomic(const instruction& ins) {
    const type t = ins.t;
    const bool returns = ins.op == opcode::atom;
    const unsigned int first = returns ? 1 : 0;
    const std::uint64_t address = address_of(op(first));
    const std::uint64_t b = read(first + 1, t);
    std::uint64_t old;
    if (bits_of(t) == 32) old = atomic_update<std::uint32_t>(ins, address, b, first);
    else if (bits_of(t) == 64) old = atomic_update<std::uint64_t>(ins, address, b, first);
    else unsupported("an atomic of this width");
    note_progress_point(progress_kind::atomic);
    if (returns) write(0, t, old);
  }

  template <class Word>
  std::uint64_t atomic_update(const instruction& ins, std::uint64_t address, std::uint64_t b, unsigned int first) {
    Word* p = reinterpret_cast<Word*>(address);
    address_check::check_access(p, sizeof(Word), /*write=*/true);
    note_written(p, sizeof(Word));
    Word expected = __atomic_load_n(p, __ATOMIC_RELAXED);
    const type t = ins.t;
    for (;;) {
      Word desired;
      const std::uint64_t old = expected;
      switch (ins.v) {
        case variant::atom_add:
          desired = static_cast<Word>(is_float(t) ? bits_of_real(t, real_of(t, old) + real_of(t, b)) : old + b);
          break;
        case variant::atom_min: case variant::atom_max: {
          const bool less = is_float(t) ? real_of(t, b) < real_of(t, old)
                            : is_signed(t) ? sign_extend(b, bits_of(t)) < sign_extend(old, bits_of(t))
                                           : truncate(t, b) < old;
          const bool take = ins.v == variant::atom_min ? less : !less && truncate(t, b) != old;
          desired = static_cast<Word>(take ? b : old);
          break;
        }
        case variant::atom_inc: desired = static_cast<Word>(old >= truncate(t, b) ? 0 : old + 1); break;
        case variant::atom_dec: desired = static_cast<Word>(old == 0 || old > truncate(t, b) ? b : old - 1); break;
        case variant::atom_and: desired = static_cast<Word>(old & b); break;
        case variant::atom_or: desired = static_cast<Word>(old | b); break;
        case variant::atom_xor: desired = static_cast<Word>(old ^ b); break;
        case variant::atom_exch: desired = static_cast<Word>(b); break;
        case variant::atom_cas:
          if (static_cast<Word>(old) != static_cast<Word>(b)) return old;
          desired = static_cast<Word>(read(first + 2, t));
          break;
        default: unsupported("this atomic operation");
      }
      if (__atomic_compare_exchange_n(p, &expected, desired, false, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) return old;
    }
  }

  // bar.sync / barrier.sync a{, b}; bar.red.popc.u32 d, a{, b}, p; bar.warp.sync mask.
  void barrier(const instruction& ins) {
    if (ins.v == variant::bar_warp_sync) {
      collective(warp_op::sync, static_cast<unsigned int>(read(0, type::b32)), 0);
      return;
    }
    if (ins.v == variant::bar_arrive) unsupported("bar.arrive (named barriers)");
    const bool reduces =
        ins.v == variant::bar_red_popc || ins.v == variant::bar_red_and || ins.v == variant::bar_red_or;
    const unsigned int first = reduces ? 1 : 0;
    if (read(first, type::u32) != 0) unsupported("a named barrier other than 0");
    const unsigned int threads = blockDim.x * blockDim.y * blockDim.z;
    const unsigned int operands_left = ins.operand_count - first - (reduces ? 1 : 0);
    if (operands_left > 1 && read(first + 1, type::u32) != threads) {
      unsupported("a barrier for fewer threads than the block's");
    }
    const int predicate = reduces ? static_cast<int>(read(ins.operand_count - 1, type::pred) & 1) : 1;
    const barrier_outcome outcome = block_barrier(predicate, statement_.file, statement_.line);
    if (ins.v == variant::bar_red_popc) write(0, ins.t, outcome.true_count);
    if (ins.v == variant::bar_red_and) write(0, type::pred, outcome.true_count == outcome.arrived);
    if (ins.v == variant::bar_red_or) write(0, type::pred, outcome.true_count != 0);
  }

  warp_result collective(warp_op o, unsigned int mask, std::uint64_t value, unsigned int operand = 0,
                         unsigned int width = 32) const {
    return warp_collective(warp_call{o, mask, value, operand, width, statement_.file, statement_.line});
  }

  // shfl.sync.mode.b32 d[|p], a, b, c, membermask. c packs the segment mask
  // (bits 8-12) and the clamp lane (0-4). CUDA's __shfl_*_sync write
  // ((32 - width) << 8 | clamp), with clamp 0 for up and 31 otherwise; CUB's
  // warp reductions clamp at the last valid lane. Any c follows the PTX
  // ISA's rule: the source lane j, and p (j within the clamp), where a lane
  // whose j is out of range reads its own value.
  void shuffle(const instruction& ins) {
    const std::uint32_t a = static_cast<std::uint32_t>(read(1, type::b32));
    const unsigned int b = static_cast<unsigned int>(read(2, type::b32)) & 31;
    const unsigned int c = static_cast<unsigned int>(read(3, type::b32));
    const unsigned int mask = static_cast<unsigned int>(read(4, type::b32));
    const unsigned int segment_mask = (c >> 8) & 31, clamp = c & 31;
    const unsigned int lane = lane_id();
    const unsigned int max_lane = (lane & segment_mask) | (clamp & ~segment_mask);
    const unsigned int min_lane = lane & segment_mask;
    unsigned int source = lane;
    switch (ins.v) {
      case variant::shfl_up: source = lane >= b ? lane - b : 32; break;  // 32: below lane 0, out of range
      case variant::shfl_down: source = lane + b; break;
      case variant::shfl_bfly: source = lane ^ b; break;
      default: source = min_lane | (b & ~segment_mask); break;
    }
    const bool in_range = ins.v == variant::shfl_up ? source >= max_lane && source < 32 : source <= max_lane;
    // One exchange for every mode and every c: each lane reads its source
    // lane's value, as an indexed shuffle. c may differ from lane to lane
    // (a segmented reduction clamps each lane at its segment's end).
    const warp_result r = collective(warp_op::shfl_idx, mask, a, in_range ? source : lane, 32);
    write(op(0).v, type::b32, r.value);
    if (op(0).second.k != value_ref::kind::none) write(op(0).second, type::pred, in_range);
  }

  // vote.sync.{all,any,uni}.pred d, a, membermask; vote.sync.ballot.b32 d, a, membermask.
  void vote(const instruction& ins) {
    const std::uint64_t a = read(1, type::pred) & 1;
    const unsigned int mask = static_cast<unsigned int>(read(2, type::b32));
    switch (ins.v) {
      case variant::vote_all: return write(0, type::pred, collective(warp_op::vote_all, mask, a).value != 0);
      case variant::vote_any: return write(0, type::pred, collective(warp_op::vote_any, mask, a).value != 0);
      case variant::vote_ballot: return write(0, type::b32, collective(warp_op::ballot, mask, a).lanes);
      case variant::vote_uni: {
        const bool all = collective(warp_op::vote_all, mask, a).value != 0;
        const bool any = collective(warp_op::vote_any, mask, a).value != 0;
        return write(0, type::pred, all || !any);
      }
      default: unsupported("this vote mode");
    }
  }

  void match(const instruction& ins) {
    const std::uint64_t a = read(1, ins.t);
    const unsigned int mask = static_cast<unsigned int>(read(2, type::b32));
    const warp_result r = collective(ins.v == variant::match_all ? warp_op::match_all : warp_op::match_any, mask, a);
    write(op(0).v, type::b32, r.lanes);
    if (op(0).second.k != value_ref::kind::none) write(op(0).second, type::pred, r.predicate);
  }

  void reduce(const instruction& ins) {
    const bool is_signed_type = is_signed(ins.t);
    warp_op o = warp_op::reduce_add;
    switch (ins.v) {
      case variant::redux_add: o = warp_op::reduce_add; break;
      case variant::redux_min: o = is_signed_type ? warp_op::reduce_min_signed : warp_op::reduce_min_unsigned; break;
      case variant::redux_max: o = is_signed_type ? warp_op::reduce_max_signed : warp_op::reduce_max_unsigned; break;
      case variant::redux_and: o = warp_op::reduce_and; break;
      case variant::redux_or: o = warp_op::reduce_or; break;
      case variant::redux_xor: o = warp_op::reduce_xor; break;
      default: unsupported("this redux operation");
    }
    const warp_result r = collective(o, static_cast<unsigned int>(read(2, type::b32)), truncate(type::b32, read(1, ins.t)));
    write(0, ins.t, r.value);
  }

  const program& program_;
  const statement& statement_;
  operand_slot* slots_;
  unsigned int slot_count_;
  std::vector<std::uint64_t> registers_;
  std::uint64_t carry_ = 0;  // the carry flag of add.cc / addc chains
  const instruction* current_ = nullptr;
};

const program& parsed(statement& s) {
  if (const void* p = __atomic_load_n(&s.parsed, __ATOMIC_ACQUIRE)) return *static_cast<const program*>(p);
  auto* fresh = new program(parse(s.text));  // one per statement, for the program's life
  const void* expected = nullptr;
  if (!__atomic_compare_exchange_n(&s.parsed, &expected, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    delete fresh;  // another thread parsed it first
    return *static_cast<const program*>(expected);
  }
  return *fresh;
}

}  // namespace

void run(statement& s, operand_slot* operands, unsigned int count) {
  const program& p = parsed(s);
  if (!p.error.empty()) {
    // cusim-cc refuses these at compile time; a file built another way may still hold one.
    report("{}:{}: inline PTX cusim cannot run: {}. cusim stops the grid (docs/inline-ptx.md).", s.file, s.line,
           p.error);
    trap("inline PTX", s.file, s.line);
  }
  machine(p, s, operands, count).run();
}

}  // namespace cusim::detail::ptx
