// Inline PTX: the text of an `asm` statement in device code, parsed into a
// program of decoded instructions. cusim-cc parses each statement when it
// compiles the file (an instruction outside the subset is a compile error at
// the statement's line); the runtime parses it again the first time a thread
// runs the statement and then runs the program for each thread
// (ptx_execute.cpp). Both use this parser, so they cannot disagree.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cusim::detail::ptx {

enum class type : std::uint8_t {
  none, b8, b16, b32, b64, u8, u16, u32, u64, s8, s16, s32, s64, f16, f32, f64, pred,
};
unsigned int bits_of(type t);
bool is_signed(type t);
bool is_float(type t);

enum class opcode : std::uint8_t {
  mov, add, sub, mul, mad, fma, div, rem, abs, neg, min, max,
  and_, or_, xor_, not_, cnot, shl, shr, popc, clz, brev, bfind, bfe, bfi, prmt, lop3, shf,
  setp, selp, cvt, cvta,
  rcp, sqrt, rsqrt, ex2, lg2, sin, cos, copysign,
  ld, st, atom, red,
  bar, membar, fence,
  shfl, vote, activemask, match, redux,
  nanosleep, trap, brkpt, exit, bra,
  simd2, simd4,  // vadd4, vabsdiff2, ...: per-lane video arithmetic (variant says which)
  video,         // vadd, vshr, ...: the scalar video instructions
};

// The special registers PTX code reads with mov (%laneid, %tid.x, ...).
enum class special : std::uint8_t {
  laneid, warpid, nwarpid, smid, nsmid, gridid,
  tid_x, tid_y, tid_z, ntid_x, ntid_y, ntid_z, ctaid_x, ctaid_y, ctaid_z, nctaid_x, nctaid_y, nctaid_z,
  lanemask_eq, lanemask_lt, lanemask_le, lanemask_gt, lanemask_ge,
  clock, clock_hi, clock64, globaltimer, globaltimer_lo, globaltimer_hi,
  dynamic_smem_size, total_smem_size,
  cluster_ctarank, cluster_nctarank,
  clusterid_x, clusterid_y, clusterid_z, nclusterid_x, nclusterid_y, nclusterid_z,
  cluster_ctaid_x, cluster_ctaid_y, cluster_ctaid_z, cluster_nctaid_x, cluster_nctaid_y, cluster_nctaid_z,
};

// Where an operand's value comes from or goes to.
struct value_ref {
  enum class kind : std::uint8_t { none, reg, asm_operand, immediate, special, sink };
  kind k = kind::none;
  bool negated = false;     // a predicate source written `!p`
  std::uint8_t real_bits = 0;  // an immediate written as a float: 32 (0f...) or 64 (0d..., 1.5)
  std::uint32_t index = 0;  // register, asm operand number (%0, %1, ...) or special register
  std::uint64_t bits = 0;   // an immediate's bits
};

struct operand {
  enum class shape : std::uint8_t { value, address, vector };
  shape s = shape::value;
  value_ref v;                // a value, or an address's base (none: an absolute address)
  std::int64_t offset = 0;    // an address: [base+offset]
  std::uint8_t count = 0;     // a vector {a, b, c, d}: its elements
  value_ref elements[4];
  value_ref second;           // `d|p`: the predicate a shfl or setp also writes
};

// Modifiers, each a field only the opcodes that take it read.
enum class compare : std::uint8_t { eq, ne, lt, le, gt, ge, lo, ls, hi, hs, equ, neu, ltu, leu, gtu, geu, num, nan };
enum class rounding : std::uint8_t { none, rn, rz, rm, rp, rni, rzi, rmi, rpi };
enum class space : std::uint8_t { generic, global, shared, local, constant, param };
enum class variant : std::uint8_t {
  none, lo, hi, wide,                          // mul, mad
  shfl_up, shfl_down, shfl_bfly, shfl_idx,     // shfl
  vote_all, vote_any, vote_uni, vote_ballot,   // vote
  match_any, match_all,                        // match
  shift_left, shift_right,                     // shf
  atom_add, atom_min, atom_max, atom_inc, atom_dec, atom_and, atom_or, atom_xor, atom_exch, atom_cas,
  redux_add, redux_min, redux_max, redux_and, redux_or, redux_xor,
  bar_sync, bar_arrive, bar_red_popc, bar_red_and, bar_red_or, bar_warp_sync,
  scope_gpu,                                   // membar.gl
  cvta_to, cvta_from,
  video_add, video_sub, video_absdiff, video_min, video_max, video_average,  // simd2 / simd4 / video
  video_shl, video_shr,                                                      // video
};

struct instruction {
  opcode op{};
  type t = type::none;        // the instruction type (.u32, .f32, ...)
  type from = type::none;     // cvt's source type; the video instructions' a operand
  type from_b = type::none;   // the video instructions' b operand
  variant v = variant::none;
  compare cmp = compare::eq;  // setp
  rounding round = rounding::none;
  space where = space::generic;
  bool ftz = false, sat = false, approx = false, carry_out = false, carry_in = false;
  bool clamp = false;         // shf.clamp, bfind.shiftamt
  std::uint8_t mode = 0;      // prmt: 0 default, then f4e b4e rc8 ecl ecr rc16; video: 1 .add, 2 .min, 3 .max
  std::uint8_t vector = 1;    // ld/st .v2/.v4
  std::uint8_t operand_count = 0;
  operand operands[5];
  value_ref guard;            // @p / @!p: none when unguarded
  std::uint32_t target = 0;   // bra: the instruction to go on at
  std::uint32_t line = 0;     // the line within the asm text, for messages
  std::string text;           // the instruction as written, for messages
};

// A parsed asm statement. `error` is empty when every instruction parsed;
// otherwise it says which one could not be and why.
struct program {
  std::vector<instruction> instructions;
  std::vector<type> registers;  // declared with .reg, in order
  unsigned int asm_operands = 0;  // the highest %N used, plus one
  std::string error;
};

// `text` is the asm template as the compiler sees it (escapes already
// decoded): `%N` names the statement's operands, `%%` a literal '%'.
program parse(std::string_view text);

// What running the program may do, for the front end's kernel facts: wait
// for other threads (barriers, warp collectives) or step aside (fences,
// atomics, nanosleep).
struct effects {
  bool waits = false;
  bool spins = false;
};
effects effects_of(const program& p);

}  // namespace cusim::detail::ptx
