// The inline-PTX parser (src/ptx/ptx_parse.cpp) runs on user text at
// compile time: what it takes, and that odd input is an error naming the
// problem, never a crash.
#include <catch2/catch.hpp>

#include "ptx/ptx_program.hpp"

using cusim::detail::ptx::opcode;
using cusim::detail::ptx::parse;

TEST_CASE("ptx parser: statements, registers, labels and operands", "[ptx][quick]") {
  const auto p = parse(
      "{\n\t.reg .u32 t<2>;\n\t.reg .pred p;\n"
      "L: setp.eq.u32 p, %1, 0; // a comment\n"
      "\t@!p add.cc.u32 t0, %1, 0x10;\n\t/* block */ addc.u32 %0, t1, -1;\n\t@p bra L;\n}");
  REQUIRE(p.error.empty());
  REQUIRE(p.instructions.size() == 4);
  CHECK(p.registers.size() == 3);
  CHECK(p.asm_operands == 2);
  CHECK(p.instructions[1].carry_out);
  CHECK(p.instructions[2].carry_in);
  CHECK(p.instructions[3].op == opcode::bra);
  CHECK(p.instructions[3].target == 0);
  // Scopes and orderings on memory instructions (libcu++ writes them).
  CHECK(parse("atom.relaxed.gpu.global.add.u32 %0, [%1], 1;").error.empty());
  CHECK(parse("ld.acquire.sys.global.u32 %0, [%1+8];").error.empty());
  CHECK(parse("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];").error.empty());
}

TEST_CASE("ptx parser: malformed input is an error, not a crash", "[ptx][quick]") {
  const char* const bad[] = {
      "mov.b64 %0, {};",          // an empty vector
      "mov.b64 %0, {%1, %2, %3};",  // three elements
      "mov.u32 %0,,%1;",          // an empty operand
      "ld.u32 %0, [%1+];",        // an offset without a number
      "ld.u32 %0, [%1;",          // an address without ']'
      "vadd.u32.u32.u32 %0, %1.b0, %2, %3;",  // a byte selector
      "mov.u32 %0, 99999999999999999999999;",  // past 64 bits
      "mov.u32 %0, !!p;",
      "mov.u32 %0, %123;",
      ".reg .u32 r<99999999>;",
      ".reg .u32 r<;",
      "mov.u32 %0, %%nosuchregister;",
      "bra NOWHERE;",
      "wgmma.fence.sync.aligned;",
      "/* unterminated",
      "add.u32.u32.u32 %0, %1, %2;",  // two types
      "%",
      "@",
  };
  for (const char* text : bad) {
    INFO(text);
    CHECK_FALSE(parse(text).error.empty());
  }
  CHECK(parse("").error.empty());
  CHECK(parse(";;{ } ;").instructions.empty());
}
