// cusim-cc's clang front end: what it learns about each kernel of a file.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "facts_source.hpp"
#include "kernel_facts.hpp"
#include "front_end_marks.hpp"

using cusim::cc::kernel_fact;
using cusim::cc::kernel_facts;

namespace {

// Parses `code` as a .cu file with cusim's headers, as cusim-cc does;
// `path`: where the file was, as the marks of __shared__ uses name it.
kernel_facts facts_of(const std::string& code, std::string* path = nullptr) {
  char pattern[] = "/tmp/cusim-kernel-facts-XXXXXX.cu";
  const int fd = mkstemps(pattern, 3);
  REQUIRE(fd >= 0);
  close(fd);
  std::ofstream(pattern) << code;
  const std::string cuda = std::string(CUSIM_TEST_INCLUDE) + "/cuda";
  const std::string cusim = std::string(CUSIM_TEST_INCLUDE) + "/cusim";
  kernel_facts facts = cusim::cc::read_kernel_facts(
      pattern, {"-std=c++20", "-I" + cuda, std::string("-I") + CUSIM_TEST_INCLUDE, "-D__CUSIM_CC__=1", "-D__CUDACC__=1",
                "-include", "cuda_runtime.h"},
      {cuda, cusim});
  if (path != nullptr) *path = cusim::cc::canonical_source_path(pattern);
  std::filesystem::remove(pattern);
  return facts;
}

const kernel_fact& kernel(const kernel_facts& facts, const std::string& name) {
  for (const kernel_fact& k : facts.kernels) {
    if (k.name == name) return k;
  }
  FAIL("no facts for kernel " << name << (facts.parsed ? "" : " (not parsed: " + facts.first_error + ")"));
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("cusim-cc kernel facts: which kernels wait, spin, launch or use dynamic shared memory",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of(R"(
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void plain(float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i] * 2.0f;
}
__device__ void bottom() { __syncthreads(); }
__device__ void middle() { bottom(); }
__global__ void deep(float* a) { middle(); a[0] = 1; }
__global__ void shuffles(int* a) { a[threadIdx.x] = __shfl_down_sync(0xffffffffu, a[threadIdx.x], 1); }
__global__ void grid_wide(int* a) { cg::this_grid().sync(); a[0] = 1; }
__global__ void counts(int* a) { atomicAdd(a, 1); }
__global__ void reads_clock(long long* a) { a[0] = clock(); }
__global__ void reads_clock64(long long* a) { a[0] = clock64(); }
__global__ void sleeps(int* a) { __nanosleep(10); a[0] = 1; }
struct timer { long long start = clock64(); };
__global__ void member_default(long long* a) { timer t; a[0] = t.start; }
__device__ unsigned lanes(unsigned mask = __activemask()) { return mask; }
__global__ void argument_default(unsigned* a) { a[0] = lanes(); }
__global__ void fences(int* a) { a[0] = 1; __threadfence(); }
__global__ void child(int* a) { a[0] = 1; }
__global__ void parent(int* a) { if (threadIdx.x == 0) child<<<1, 1>>>(a); }
__global__ void dynamic(float* a) {
  extern __shared__ float f[];
  extern __shared__ double d[];
  f[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = d[0];
}
__global__ void lambda_waits(int* a) {
  auto step = [&](int v) { __syncwarp(); return v + 1; };
  a[threadIdx.x] = step(a[threadIdx.x]);
}
__device__ int factorial(int n) { return n <= 1 ? 1 : n * factorial(n - 1); }
__global__ void recursive(int* a) { a[0] = factorial(a[1]); }
)");
  REQUIRE(facts.parsed);
  const kernel_fact& plain = kernel(facts, "plain");
  CHECK_FALSE((plain.waits || plain.spins || plain.launches || plain.dynamic_shared || plain.opaque_calls));
  CHECK(plain.static_shared_bytes == 0);
  CHECK(kernel(facts, "deep").waits);
  CHECK(kernel(facts, "shuffles").waits);
  CHECK(kernel(facts, "grid_wide").waits);
  CHECK(kernel(facts, "counts").spins);
  CHECK_FALSE(kernel(facts, "counts").waits);
  // Threads that read the clock, sleep or fence step aside: they may wait
  // for another thread of their block (the runtime's clock(), C's in host code).
  CHECK(kernel(facts, "reads_clock").spins);
  CHECK(kernel(facts, "reads_clock64").spins);
  CHECK(kernel(facts, "sleeps").spins);
  CHECK(kernel(facts, "fences").spins);
  // What a default member initializer or a default argument calls runs where it is used.
  CHECK(kernel(facts, "member_default").spins);
  CHECK(kernel(facts, "argument_default").waits);
  CHECK(kernel(facts, "parent").launches);
  CHECK_FALSE(kernel(facts, "child").launches);
  CHECK(kernel(facts, "dynamic").dynamic_shared);
  CHECK(kernel(facts, "dynamic").static_shared_bytes == 0);
  CHECK(kernel(facts, "lambda_waits").waits);
  const kernel_fact& recursive = kernel(facts, "recursive");
  CHECK_FALSE((recursive.waits || recursive.opaque_calls));
}

TEST_CASE("cusim-cc kernel facts: calls the front end cannot follow count as doing everything",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of(R"(
__device__ int elsewhere(int);  // defined in another file (-rdc)
__global__ void external(int* a) { a[0] = elsewhere(a[1]); }
__device__ int twice(int v) { return 2 * v; }
__global__ void through_pointer(int* a) {
  int (*f)(int) = twice;
  a[0] = f(a[1]);
}
struct shape { __device__ virtual int area() const { return 0; } };
__global__ void virtual_call(const shape* s, int* a) { a[0] = s->area(); }
)");
  REQUIRE(facts.parsed);
  for (const char* name : {"external", "through_pointer", "virtual_call"}) {
    const kernel_fact& k = kernel(facts, name);
    INFO(name);
    CHECK((k.opaque_calls && k.waits && k.spins && k.launches && k.dynamic_shared));
  }
}

TEST_CASE("cusim-cc kernel facts: a kernel template launched from device code (clang 14 has no such launches)",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  // clang refuses the launch ("call to __global__ function from __global__
  // function"); nvcc takes it. The file keeps its facts; the function that
  // holds the launch counts as doing everything, and so does its caller.
  const kernel_facts facts = facts_of(R"(
template <int N> __global__ void child(int* out) { out[0] = N; }
template <int N> __device__ void spawn(int* out) { child<N><<<1, N>>>(out); }
template <int N> __global__ void parent(int* out) { spawn<N>(out); }
__global__ void plain(int* out) { out[0] = 1; }
void host(int* out) { parent<4><<<1, 1>>>(out); plain<<<1, 1>>>(out); }
)");
  REQUIRE(facts.parsed);
  const kernel_fact& parent = kernel(facts, "parent<4>");
  CHECK((parent.opaque_calls && parent.launches && parent.waits));
  const kernel_fact& plain = kernel(facts, "plain");
  CHECK_FALSE((plain.opaque_calls || plain.launches || plain.waits));
  // Any other error still costs the file its facts.
  const kernel_facts broken = facts_of(R"(
template <int N> __global__ void child(int* out) { out[0] = N; }
template <int N> __global__ void parent(int* out) { child<N><<<1, N>>>(out); }
__global__ void k(int* a) { a[0] = undeclared; }
void host(int* out) { parent<4><<<1, 1>>>(out); }
)");
  CHECK_FALSE(broken.parsed);
  CHECK(broken.first_error.find("undeclared") != std::string::npos);
}

TEST_CASE("cusim-cc kernel facts: files that use Thrust and __half arrays in shared memory",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of(R"(
#include <cuda_fp16.h>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
__global__ void halves(half2* out) {
  __shared__ half2 cache[64];
  cache[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = cache[63 - threadIdx.x];
}
void host() {
  thrust::device_vector<int> v(4);
  thrust::sort(v.begin(), v.end());
}
)");
  INFO(facts.first_error);
  REQUIRE(facts.parsed);
  CHECK(kernel(facts, "halves").static_shared_bytes == 64 * 4);  // 64 half2
}

TEST_CASE("cusim-cc kernel facts: static shared memory per kernel and per instantiation, as nvcc lays it out",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of(R"(
constexpr int edge = 16;
struct __align__(16) quad { float x, y, z, w; };
template <class T, int N>
__global__ void tile(T* out) {
  __shared__ T cells[N][N + 1];
  cells[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = cells[threadIdx.x][threadIdx.y];
}
#define LAUNCH_TILE(T, N) tile<T, N><<<1, dim3(N, N)>>>(nullptr)
__device__ float helper(int i) {
  __shared__ float scratch[edge * 2];
  scratch[i] = i;
  return scratch[(i + 1) % (edge * 2)];
}
namespace { __global__ void hidden(float* out) { out[0] = 1; } }
static __global__ void file_local(float* out) { out[0] = 1; }
namespace outer {
__global__ void layout(float* out) {
  __shared__ char flag;
  __shared__ quad q[2];
  __shared__ int unused[1000];
  flag = out[0] > 0;
  q[threadIdx.x % 2].x = out[1];
  out[threadIdx.x] = helper(threadIdx.x) + flag + q[0].x;
}
}
void host() {
  LAUNCH_TILE(float, (edge > 8 ? 8 : 4));
  tile<double, 4><<<1, 1>>>(nullptr);
}
)");
  REQUIRE(facts.parsed);
  CHECK(kernel(facts, "tile<float, 8>").static_shared_bytes == 8 * 9 * sizeof(float));
  CHECK(kernel(facts, "tile<double, 4>").static_shared_bytes == 4 * 5 * sizeof(double));
  // flag (1), q at 16 (2 x 16), then helper's scratch (32 floats); `unused`
  // is named nowhere, so nvcc drops it.
  const kernel_fact& layout = kernel(facts, "outer::layout");
  CHECK(layout.static_shared_bytes == 16 + 32 + 32 * 4);
  // Named by the symbol g++ gives it too; kernels with internal linkage
  // have none another object could reach, and go by their definition's
  // file, line and name, as the rewriter notes them.
  CHECK(layout.symbol == "_ZN5outer6layoutEPf");
  CHECK(layout.site.empty());
  CHECK(kernel(facts, "tile<float, 8>").symbol == "_Z4tileIfLi8EEvPT_");
  for (const char* name : {"hidden", "file_local"}) {
    const kernel_fact& k = kernel(facts, name);
    CHECK(k.symbol.empty());
    CHECK(k.site.find(".cu:") != std::string::npos);
    CHECK(k.site.substr(k.site.rfind(':') + 1) == name);
  }
  CHECK(kernel(facts, "file_local").site.find(".cu:17:file_local") != std::string::npos);
}

TEST_CASE("cusim-cc kernel facts: alignas after __shared__, as nvcc takes it", "[tools][kernel_facts][quick]") {
  // The edit before clang parses: the alignas to the declaration's start,
  // every line and the length kept.
  CHECK(cusim::cc::facts_source_fixes("  static __shared__ alignas(alignof(float4)) float a[4];\n") ==
        "  alignas(alignof(float4)) static __shared__ float a[4];\n");
  CHECK(cusim::cc::facts_source_fixes("x = 1; extern __shared__  alignas(16) char s[]; __shared__ int n;") ==
        "x = 1; alignas(16) extern __shared__  char s[]; __shared__ int n;");
  CHECK(cusim::cc::facts_source_fixes("__shared__ int n; __shared__ __align__(8) int m;").empty());
  CHECK(cusim::cc::facts_source_fixes("__shared__ alignas(16\n) int split;").empty());  // lines stay put
  // Asm operands side by side get their comma; GCC's noinline attribute its other spelling.
  CHECK(cusim::cc::facts_source_fixes(R"(asm volatile("st.u8 [%1], %0;" ::"r"(v) "l"(p) : "memory");)") ==
        R"(asm volatile("st.u8 [%1], %0;" ::"r"(v),"l"(p) : "memory");)");
  CHECK(cusim::cc::facts_source_fixes(R"(asm("add.u32 %0, %1, %2;" : "=r"(a) : "r"(f(1, 2)), "r"(c));)").empty());
  CHECK(cusim::cc::facts_source_fixes("__attribute__((__noinline__)) int f(); __noinline__ int g();") ==
        "__attribute__((noinline    )) int f(); __noinline__ int g();");
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of(R"(
__global__ void aligned(float* out) {
  __shared__ char flag;
  __shared__ alignas(64) float tile[4];
  flag = 1;
  tile[threadIdx.x % 4] = flag;
  out[0] = tile[1];
}
)");
  REQUIRE(facts.parsed);
  CHECK(kernel(facts, "aligned").static_shared_bytes == 64 + 4 * sizeof(float));
  CHECK(kernel(facts, "aligned").site.empty());
}

TEST_CASE("cusim-cc kernel facts: a file clang cannot parse gets none, and says why", "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of("__global__ void k(int* a) { a[0] = undeclared; }\n");
  CHECK_FALSE(facts.parsed);
  CHECK(facts.kernels.empty());
  CHECK(facts.first_error.find("undeclared") != std::string::npos);
  CHECK(facts.first_error.find(".cu:1:") != std::string::npos);
}

TEST_CASE("cusim-cc kernel facts: what never runs counts for nothing, what runs implicitly counts",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  const kernel_facts facts = facts_of(R"(
constexpr bool use_tile = false;
__global__ void discarded(float* out) {
  if constexpr (use_tile) {
    __shared__ float tile[100][100];
    tile[0][0] = 1;
    __syncthreads();
  }
  __shared__ float small[4];
  small[0] = out[0];
  out[sizeof(small) / sizeof(float)] = small[0];
}
__global__ void unevaluated(float* out) {
  __shared__ double never[512];
  out[0] = sizeof(never) + sizeof(decltype(never[0]));
}
__global__ void uncalled_lambda(int* out) {
  auto later = [] { __syncthreads(); };
  out[0] = sizeof(later);
}
struct guard {
  __device__ ~guard() { __syncthreads(); }
};
struct holder {
  guard g;
  int value = 0;
};
__global__ void member_destructor(int* out) {
  holder h;
  out[0] = h.value;
}
struct base { __device__ virtual ~base() {} };
__global__ void virtual_delete(base* b) { delete b; }
)");
  REQUIRE(facts.parsed);
  CHECK(kernel(facts, "discarded").static_shared_bytes == 4 * sizeof(float));
  CHECK_FALSE(kernel(facts, "discarded").waits);
  CHECK(kernel(facts, "unevaluated").static_shared_bytes == 0);
  CHECK_FALSE(kernel(facts, "uncalled_lambda").waits);
  CHECK(kernel(facts, "member_destructor").waits);
  CHECK(kernel(facts, "virtual_delete").opaque_calls);
}

TEST_CASE("cusim-cc kernel facts: CUDA's __noinline__ specifier, and GCC's attribute of that name",
          "[tools][kernel_facts][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;  // cusim-cc built without clang's libraries
  // libstdc++'s own __attribute__((__noinline__)) (in <memory>) must still parse.
  const kernel_facts specifier = facts_of(R"(
#include <memory>
__device__ __noinline__ int twice(int v) {
  __shared__ int cells[4];
  cells[v % 4] = v;
  __syncthreads();
  return 2 * cells[(v + 1) % 4];
}
__global__ void calls_noinline(int* out) { out[threadIdx.x] = twice(threadIdx.x); }
)");
  REQUIRE(specifier.parsed);
  CHECK(kernel(specifier, "calls_noinline").static_shared_bytes == 16);
  CHECK(kernel(specifier, "calls_noinline").waits);
  const kernel_facts attribute = facts_of(R"(
__device__ __attribute__((__noinline__)) float half(float x) { return 0.5f * x; }
__global__ void calls_attributed(float* out) { out[0] = half(out[1]); }
)");
  REQUIRE(attribute.parsed);
  CHECK_FALSE(kernel(attribute, "calls_attributed").waits);
}

namespace {
// The line of `code` (from 1) holding `text`.
unsigned line_of(const std::string& code, const std::string& text) {
  const std::size_t at = code.find(text);
  REQUIRE(at != std::string::npos);
  return 1 + static_cast<unsigned>(std::count(code.begin(), code.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}
}  // namespace

TEST_CASE("cusim-cc front end: the uses of __shared__ variables, each as its occurrence on its line",
          "[tools][kernel_facts][shared_uses][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;
  const std::string code = R"(
__shared__ int table[4];
#define BODY_USE body_only[0]
#define ARGUMENT(x) (x)
template <class T>
__global__ void k(T* out) {
  __shared__ T tile[32];
  __shared__ int body_only[2];
  __shared__ int plain[2];
  tile[threadIdx.x] = table[0] + ARGUMENT(tile[0]); // uses
  { int tile = 3; out[0] = tile + sizeof "tile"; } // shadowed
  out[1] = BODY_USE + plain[0];
  T (*read)(int) = [](int i) { return tile[i]; };
  switch (out[2]) {
    case 0:
      __shared__ int in_switch;
      in_switch = 1;
  }
}
)";
  std::string path;
  const kernel_facts facts = facts_of(code, &path);
  REQUIRE(facts.parsed);
  const auto& marks = facts.marks;
  CHECK(marks.declarations.contains({path, line_of(code, "T tile[32]"), "tile"}));
  CHECK(marks.declarations.contains({path, line_of(code, "int table[4]"), "table"}));
  CHECK(marks.declarations.contains({path, line_of(code, "int in_switch"), "in_switch"}));
  // A use written in a macro's body: the variable keeps the rewriter's form,
  // as one in a function that nothing jumps into or names from a lambda
  // without a capture default does (where it is as fast as a local).
  CHECK_FALSE(marks.declarations.contains({path, line_of(code, "int body_only[2]"), "body_only"}));
  CHECK_FALSE(marks.declarations.contains({path, line_of(code, "int plain[2]"), "plain"}));
  const auto uses = marks.lines.find({path, line_of(code, "// uses")});
  REQUIRE(uses != marks.lines.end());
  for (const cusim::cc::shared_uses_on_line& on_line : uses->second) {
    if (on_line.name == "tile") {
      CHECK(on_line.occurrences == 2);  // a macro's argument is written where it is passed
      CHECK(on_line.uses == std::vector<unsigned>{0, 1});
    } else {
      CHECK(on_line.name == "table");
      CHECK(on_line.uses == std::vector<unsigned>{0});
    }
  }
  // The local that hides it, and the string, are no uses.
  CHECK_FALSE(marks.lines.contains({path, line_of(code, "// shadowed")}));
}

TEST_CASE("cusim-cc front end: the rewriter finds a marked use by counting the name on its line",
          "[tools][shared_uses][quick]") {
  using cusim::cc::count_identifier;
  const std::string line = R"(s[i] = "s" + 's' + 0x5s + s_2 + s;)";
  CHECK(count_identifier(line, 0, "s") == std::pair<unsigned, unsigned>{0, 2});
  CHECK(count_identifier(line, line.rfind("s;"), "s") == std::pair<unsigned, unsigned>{1, 2});
  cusim::cc::front_end_marks marks;
  const std::string file = cusim::cc::canonical_source_path("/tmp/./dir/../k.cu");
  CHECK(file == "/tmp/k.cu");
  marks.lines[{file, 7}].push_back({"s", 2, {1}});
  marks.declarations.insert({file, 3, "s"});
  cusim::cc::front_end_lookup lookup(marks);
  CHECK(lookup.may_be_use("s"));
  CHECK_FALSE(lookup.may_be_use("t"));
  CHECK(lookup.declaration_marked("/tmp/k.cu", 3, "s"));
  CHECK_FALSE(lookup.declaration_marked("/tmp/k.cu", 4, "s"));
  CHECK(lookup.is_use("/tmp/dir/../k.cu", 7, line, line.rfind("s;"), "s"));
  CHECK_FALSE(lookup.is_use("/tmp/k.cu", 7, line, 0, "s"));
  // A macro on the line added an occurrence: the counts differ, no marks.
  CHECK_FALSE(lookup.is_use("/tmp/k.cu", 7, "s[0] + s + s;", 11, "s"));
}

TEST_CASE("cusim-cc front end: each launch's callee, by the n-th <<< of its line",
          "[tools][kernel_facts][launch_callees][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;
  const std::string code = R"(
__global__ void k(int* p) {}
using kernel_pointer = void (*)(int*);
kernel_pointer pick(int i) { return k; }
#define LAUNCH(f) f<<<1, 1>>>(nullptr)
void host() {
  pick(1)<<<1, 1>>>(nullptr); k<<<2, 2>>>(nullptr); // two
  LAUNCH(k); // macro
}
)";
  std::string path;
  const kernel_facts facts = facts_of(code, &path);
  REQUIRE(facts.parsed);
  const auto two = facts.marks.launch_callees.find({path, line_of(code, "// two")});
  REQUIRE(two != facts.marks.launch_callees.end());
  CHECK(two->second == std::vector<std::string>{"pick(1)", "k"});
  // One a macro's body writes: the rewriter reads the expansion alone.
  CHECK_FALSE(facts.marks.launch_callees.contains({path, line_of(code, "// macro")}));
}

TEST_CASE("cusim-cc front end: the kernels overloaded in a scope", "[tools][kernel_facts][launch_callees][quick]") {
  if (!cusim::cc::kernel_facts_available()) return;
  const kernel_facts facts = facts_of(R"(
__global__ void bump(int* p) {}
__global__ void bump(float* p) {}
__global__ void once(int* p);
__global__ void once(int* p) {}
namespace a { __global__ void apart(int* p) {} }
namespace b { __global__ void apart(float* p) {} }
template <class T> __global__ void mixed(T* p) {}
__global__ void mixed(int* p, int n) {}
)");
  REQUIRE(facts.parsed);
  CHECK(facts.marks.overloaded_kernels == std::set<std::string, std::less<>>{"bump", "mixed"});
}
