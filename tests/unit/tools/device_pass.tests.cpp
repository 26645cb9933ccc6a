#include <catch2/catch.hpp>

#include "device_pass.hpp"
#include "sequence_diff.hpp"

using cusim::cc::diff_sequences;
using cusim::cc::merge_device_pass;

namespace {
bool holds(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }
std::size_t occurrences(const std::string& text, const std::string& piece) {
  std::size_t n = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("cusim-cc device pass: the shortest diff of two sequences, as hunks", "[tools][device_pass][quick]") {
  const auto hunks = diff_sequences({1, 2, 3, 4, 5, 6}, {1, 2, 9, 4, 6, 7}, 100);
  REQUIRE(hunks);
  REQUIRE(hunks->size() == 3);
  CHECK(((*hunks)[0].a_begin == 2 && (*hunks)[0].a_end == 3 && (*hunks)[0].b_begin == 2 && (*hunks)[0].b_end == 3));
  CHECK(((*hunks)[1].a_begin == 4 && (*hunks)[1].a_end == 5 && (*hunks)[1].b_begin == 4 && (*hunks)[1].b_end == 4));
  CHECK(((*hunks)[2].a_begin == 6 && (*hunks)[2].a_end == 6 && (*hunks)[2].b_begin == 5 && (*hunks)[2].b_end == 6));
  CHECK(diff_sequences({1, 2, 3}, {1, 2, 3}, 0)->empty());
  CHECK_FALSE(diff_sequences({1, 2, 3, 4}, {5, 6, 7, 8}, 3));  // 8 edits needed
}

TEST_CASE("cusim-cc device pass: kernels and device functions take the device pass's body",
          "[tools][device_pass][quick]") {
  const std::string host = "# 1 \"k.cu\"\n__cusim_global__ void k(int* p) {\n  p[0] = -1;\n}\nvoid h() {\n  x = 1;\n}\n";
  const std::string device = "# 1 \"k.cu\"\n__cusim_global__ void k(int* p) {\n  p[0] = 900;\n}\nvoid h() {\n  x = 2;\n}\n";
  const auto merged = merge_device_pass(host, device);
  CHECK(merged.warnings.empty());
  CHECK(holds(merged.text, "p[0] = 900;"));
  CHECK_FALSE(holds(merged.text, "p[0] = -1;"));
  CHECK(holds(merged.text, "x = 1;"));  // h is host code
  CHECK_FALSE(holds(merged.text, "x = 2;"));
  // The device body is named after its own lines, and the host text after it
  // after the host's: diagnostics point at the user's file.
  CHECK(holds(merged.text, "\n# 1 \"k.cu\"\n{\n  p[0] = 900;\n}\n# 3 \"k.cu\"\n"));
}

TEST_CASE("cusim-cc device pass: __host__ __device__ bodies keep both passes and pick at run time",
          "[tools][device_pass][quick]") {
  const std::string host = "__cusim_host__ __cusim_device__ int f() { return 0; }\nint g() { return f(); }\n";
  const std::string device = "__cusim_host__ __cusim_device__ int f() { return 900; }\nint g() { return f(); }\n";
  const auto merged = merge_device_pass(host, device);
  CHECK(merged.warnings.empty());
  CHECK(holds(merged.text, "{ if (::cusim::detail::in_device_code())"));
  CHECK(holds(merged.text, "return 900;"));
  CHECK(holds(merged.text, "return 0;"));
  CHECK(occurrences(merged.text, "int g() { return f(); }") == 1);

  // Only the device marker: device code, one body.
  const auto device_only = merge_device_pass("__cusim_device__ int f() { return 0; }",
                                             "__cusim_device__ int f() { return 900; }");
  CHECK_FALSE(holds(device_only.text, "in_device_code"));
  CHECK(holds(device_only.text, "return 900;"));
}

TEST_CASE("cusim-cc device pass: a lambda follows the function around it, a marked one its own marker",
          "[tools][device_pass][quick]") {
  const std::string host_kernel = "__cusim_global__ void k() {\n  auto l = [](int v) {\n    return -v;\n  };\n}\n";
  const std::string device_kernel = "__cusim_global__ void k() {\n  auto l = [](int v) {\n    return v;\n  };\n}\n";
  CHECK(holds(merge_device_pass(host_kernel, device_kernel).text, "return v;"));

  const std::string host_fn = "void h() {\n  auto l = [] __cusim_device__ (int v) {\n    return -v;\n  };\n}\n";
  const std::string device_fn = "void h() {\n  auto l = [] __cusim_device__ (int v) {\n    return v;\n  };\n}\n";
  const auto merged = merge_device_pass(host_fn, device_fn);
  CHECK(holds(merged.text, "return v;"));
  CHECK_FALSE(holds(merged.text, "return -v;"));
}

TEST_CASE("cusim-cc device pass: declarations only the device pass has are added, whole",
          "[tools][device_pass][quick]") {
  // The added function ends with the same line as the one before it: the
  // run is placed where it is whole, not inside the first function.
  const std::string host = "__cusim_device__ int a() {\n  return 1;\n}\nint main() {\n}\n";
  const std::string device =
      "__cusim_device__ int a() {\n  return 1;\n}\n__cusim_device__ int b() {\n  return 1;\n}\nint main() {\n}\n";
  const auto merged = merge_device_pass(host, device);
  CHECK(merged.warnings.empty());
  CHECK(holds(merged.text, "__cusim_device__ int b() {\n  return 1;\n}"));
  CHECK(occurrences(merged.text, "return 1;") == 2);

  // Host-only declarations stay.
  const auto host_only = merge_device_pass("int x;\nint host_only;\nint y;\n", "int x;\nint y;\n");
  CHECK(holds(host_only.text, "int host_only;"));

  // A header only the device pass includes (Thrust's terminate.h under
  // __CUDA_ARCH__), reopening the namespace the next declaration opens: the
  // shortest edit pairs its `namespace detail {` with the host's, which
  // splits the run in two runs that are not whole; they are one.
  const std::string next = "namespace lib {\nnamespace detail\n{\nint f();\n}\n}\n";
  const std::string added = "namespace lib {\nnamespace system\n{\nnamespace detail\n{\nint g();\n}\n}\n}\n";
  const auto reopened = merge_device_pass(next, added + next);
  CHECK(reopened.warnings.empty());
  CHECK(holds(reopened.text, "namespace system\n{\nnamespace detail\n{\nint g();\n}\n}\n}"));
  CHECK(occurrences(reopened.text, "int f();") == 1);
}

TEST_CASE("cusim-cc device pass: declarations that differ outside function bodies keep the host's, with a warning",
          "[tools][device_pass][quick]") {
  const auto merged = merge_device_pass("# 3 \"t.cu\"\ntypedef long T;\n", "# 3 \"t.cu\"\ntypedef int T;\n");
  CHECK(holds(merged.text, "typedef long T;"));
  REQUIRE(merged.warnings.size() == 1);
  CHECK(holds(merged.warnings[0], "t.cu:3: warning:"));
  // In a system header (Thrust's), the same difference is not the user's to fix: no warning.
  const auto system = merge_device_pass("# 3 \"/usr/include/x.h\" 3\ntypedef long T;\n",
                                        "# 3 \"/usr/include/x.h\" 3\ntypedef int T;\n");
  CHECK(holds(system.text, "typedef long T;"));
  CHECK(system.warnings.empty());
  // g++ marks the tokens of a macro defined outside system headers (cusim's
  // __host__, in CUB's CUB_RUNTIME_FUNCTION) with a marker that has no flag:
  // the line is still the system header's.
  const std::string unflagged = "# 1 \"/usr/include/cub.cuh\" 1 3\n\n# 120 \"/usr/include/cub.cuh\"\n";
  const auto macro = merge_device_pass(unflagged + "__cusim_host__ __cusim_device__\nint f(int a) { return a; }\n",
                                       unflagged + "__cusim_host__\nint f(int b) { return b; }\n");
  CHECK(macro.warnings.empty());
}

TEST_CASE("cusim-cc device pass: control statements and class bodies are not function bodies",
          "[tools][device_pass][quick]") {
  // The difference is in an if's block inside a device function: the whole
  // function body is the device pass's.
  const std::string host = "struct S {\n  __cusim_device__ void f() {\n    if (c) {\n      a = 1;\n    }\n  }\n};\n";
  const std::string device = "struct S {\n  __cusim_device__ void f() {\n    if (c) {\n      a = 2;\n    }\n  }\n};\n";
  const auto merged = merge_device_pass(host, device);
  CHECK(merged.warnings.empty());
  CHECK(holds(merged.text, "a = 2;"));
  CHECK(holds(merged.text, "struct S {"));
}

TEST_CASE("cusim-cc device pass: differences are paired where they are whole", "[tools][device_pass][quick]") {
  // A body that differs, then a function only the device pass has, whose
  // last line "}" is also the first function's: neither the earliest nor the
  // latest pairing of the "}" lines keeps both differences whole.
  const std::string host = "__cusim_device__ int f() {\n  return -1;\n}\nnamespace n {\n}\n";
  const std::string device =
      "__cusim_device__ int f() {\n  return 1;\n}\nnamespace n {\n__cusim_device__ int g() {\n  return 2;\n}\n}\n";
  const auto merged = merge_device_pass(host, device);
  CHECK(merged.warnings.empty());
  CHECK(holds(merged.text, "return 1;"));
  CHECK(holds(merged.text, "__cusim_device__ int g() {\n  return 2;\n}"));
  CHECK(occurrences(merged.text, "namespace n {") == 1);

  // A class the device pass adds before two closing lines both passes have.
  const std::string host2 = "namespace a {\nstruct s {\n  int x;\n};\n}\nint main() {\n}\n";
  const std::string device2 =
      "namespace a {\nstruct s {\n  int x;\n};\nstruct t\n{\n  int y;\n};\n}\nint main() {\n}\n";
  const auto merged2 = merge_device_pass(host2, device2);
  CHECK(merged2.warnings.empty());
  CHECK(holds(merged2.text, "struct t\n{\n  int y;\n};"));
}

TEST_CASE("cusim-cc device pass: constructors, operators and inline PTX", "[tools][device_pass][quick]") {
  // Member initializers in braces, operator[] and operator-> are functions.
  const auto ctor = merge_device_pass("struct d {\n  __cusim_device__ d() : w{5} {\n    w = 0;\n  }\n};\n",
                                      "struct d {\n  __cusim_device__ d() : w{5} {\n    w = 1;\n  }\n};\n");
  CHECK(holds(ctor.text, "w = 1;"));
  const auto index = merge_device_pass("__cusim_device__ int& operator[](int i) {\n  return a[i];\n}\n",
                                       "__cusim_device__ int& operator[](int i) {\n  return a[i & 7];\n}\n");
  CHECK(holds(index.text, "return a[i & 7];"));
  const auto arrow = merge_device_pass("__cusim_device__ p* operator->() const {\n  return 0;\n}\n",
                                       "__cusim_device__ p* operator->() const {\n  return q;\n}\n");
  CHECK(holds(arrow.text, "return q;"));

  // A device body that is inline PTX runs (cusim runs PTX) in the user's
  // code; in a system header the library's host fallback is kept, silently.
  const std::string host = "__cusim_device__ void c(int* d, int* s) {\n  *d = *s;\n}\n";
  const std::string device = "__cusim_device__ void c(int* d, int* s) {\n  asm volatile(\"membar.gl;\");\n}\n";
  const auto ptx = merge_device_pass(host, device);
  CHECK(holds(ptx.text, "membar.gl"));
  CHECK(ptx.warnings.empty());
  const std::string system_header = "# 1 \"/usr/include/lib.h\" 1 3\n";
  const auto library = merge_device_pass(system_header + host, system_header + device);
  CHECK(holds(library.text, "*d = *s;"));
  CHECK_FALSE(holds(library.text, "membar.gl"));
  CHECK(library.warnings.empty());
}

TEST_CASE("cusim-cc device pass: a device function declared otherwise in each pass is the device pass's, whole",
          "[tools][device_pass][quick]") {
  // HeCBench bitcracker: the same function under #if __CUDA_ARCH__ >= 500
  // and #else, with its parameters named otherwise. Mixing the host pass's
  // head with the device pass's body named parameters that do not exist.
  const std::string host =
      "static __cusim_device__ unsigned f(unsigned g, unsigned e) {\n  return g ^ e;\n}\nint after;\n";
  const std::string device =
      "static __cusim_device__ unsigned f(unsigned a, unsigned b) {\n  return a & b;\n}\nint after;\n";
  const auto merged = merge_device_pass(host, device);
  CHECK(merged.warnings.empty());
  CHECK(holds(merged.text, "f(unsigned a, unsigned b) {\n  return a & b;\n}"));
  CHECK_FALSE(holds(merged.text, "unsigned g"));
  CHECK(occurrences(merged.text, "int after;") == 1);

  // A __host__ __device__ one needs the host pass's head for its host body:
  // the host pass's definition, with a warning.
  const auto both = merge_device_pass("__cusim_host__ __cusim_device__ int h(int g) { return g; }\n",
                                      "__cusim_host__ __cusim_device__ int h(int a) { return -a; }\n");
  CHECK(both.warnings.size() == 1);
  CHECK(holds(both.text, "int h(int g) { return g; }"));
  CHECK_FALSE(holds(both.text, "return -a;"));
}
