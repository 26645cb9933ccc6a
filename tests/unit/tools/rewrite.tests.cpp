#include <catch2/catch.hpp>

#include <utility>

#include "rewrite.hpp"

using cusim::cc::rewrite_translation_unit;

namespace {
bool contains(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }
}  // namespace

TEST_CASE("cusim-cc rewrite: launches become cusim launches with the kernel's name", "[tools][rewrite][quick]") {
  CHECK(rewrite_translation_unit("void f() { k<<<g, b>>>(x, y); }") ==
        "void f() { ::cusim::detail::launch_named(\"k\", k, g, b)(x, y); }");
  CHECK(contains(rewrite_translation_unit("void f() { ns::k<float, 4><<<dim3(1, 2), 64, 0, s>>>(p); }"),
                 "launch_named(\"ns::k\", ns::k<float, 4>, dim3(1, 2), 64, 0, s)(p)"));
  CHECK(contains(rewrite_translation_unit("void f() { k <<< (n + 255) / 256, 256 >>> (a); }"),
                 "launch_named(\"k\", k,  (n + 255) / 256, 256 )"));
}

TEST_CASE("cusim-cc rewrite: a launch of a kernel the file declares calls it by name, one through a pointer does not",
          "[tools][rewrite][quick]") {
  const std::string kernels =
      "__cusim_global__ void k(int* p) {}\nnamespace ns { template <int N> __cusim_global__ void t(int* p) {} }\n";
  const auto by_name = [](const std::string& callee) {
    return ".calling_by_name([](auto&&... __cusim_arguments) { (" + callee + ")(__cusim_arguments...); })(p);";
  };
  const std::string out = rewrite_translation_unit(
      kernels + "void f(void (*fp)(int*)) {\n  k<<<1, 2>>>(p);\n  ns::t<3><<<1, 2>>>(p);\n  fp<<<1, 2>>>(p);\n}\n");
  CHECK(contains(out, "launch_named(\"k\", k, 1, 2)" + by_name("k")));
  // A kernel template's launch deduces what its callee leaves (launch_deduced).
  CHECK(contains(out, "launch_deduced(\"ns::t\", "));
  CHECK(contains(out, ", 1, 2)" + by_name("ns::t<3>")));
  CHECK(contains(out, "launch_named(\"fp\", fp, 1, 2)(p);"));
  // Where the name may be a variable's, the lambda could not name it: the
  // launch keeps the pointer.
  const std::pair<const char*, bool> cases[] = {
      {"void g(void (*k)(int*)) { k<<<1, 2>>>(p); }", false},                        // a parameter
      {"void g() { auto k = &other; k<<<1, 2>>>(p); }", false},                      // a local variable
      {"void g() { void (*k)(int*) = nullptr; k<<<1, 2>>>(p); }", false},            // a local pointer
      {"void g() { [](auto k) { k<<<1, 2>>>(p); }(&other); }", false},               // a lambda's parameter
      {"struct S { void (*k)(int*); void g() { k<<<1, 2>>>(p); } };", false},        // in a member function
      {"void S::g() { k<<<1, 2>>>(p); }", false},                                    // out of its class
      {"void g() { cudaFuncSetAttribute(k, a, 0); k<<<1, 2>>>(p); }", true},         // k used, not declared
      {"void g() { ns::t<4><<<1, 2>>>(p); }", true},                                  // qualified
      // A local in the template arguments: g++ refuses a captureless lambda
      // naming it where an enclosing lambda captured it (HeCBench geglu).
      {"void g() { constexpr int a = 4; ns::t<a><<<1, 2>>>(p); }", false},
  };
  for (const auto& [text, direct] : cases) {
    INFO(text);
    CHECK(contains(rewrite_translation_unit(kernels + text + "\n"), ".calling_by_name(") == direct);
  }
}

TEST_CASE("cusim-cc rewrite: strings, comments of the preprocessor and >>> in templates are left alone",
          "[tools][rewrite][quick]") {
  const std::string text = "const char* s = \"k<<<1,1>>>()\"; std::vector<std::vector<std::vector<int>>> v;";
  CHECK(rewrite_translation_unit(text) == text);
}

TEST_CASE("cusim-cc rewrite: __shared__ declarations become per-block slots", "[tools][rewrite][quick]") {
  const std::string out = rewrite_translation_unit("# 7 \"dot.cu\"\nvoid k() {\n  __shared__ float cache[256];\n}");
  CHECK(contains(out, "::std::type_identity_t<float[256]>& cache = *static_cast<"));
  CHECK(contains(out, "\"cache\", \"dot.cu\", 8}"));  // named after the user's file and line

  const std::string two = rewrite_translation_unit("void k() { static __shared__ volatile int a[4], *b; }");
  CHECK(contains(two, "::std::type_identity_t<volatile int[4]>& a"));
  CHECK(contains(two, "::std::type_identity_t<volatile int*>& b"));

  const std::string multi = rewrite_translation_unit("void k() { __shared__ float tile[16][17]; }");
  CHECK(contains(multi, "type_identity_t<float[16][17]>& tile"));
}

TEST_CASE("cusim-cc rewrite: extern __shared__ becomes a pointer to the dynamic shared memory, or a view of it",
          "[tools][rewrite][quick]") {
  // At namespace scope, an object that finds the running block's memory on use.
  CHECK(contains(rewrite_translation_unit("extern __shared__ float sdata[];"),
                 "::cusim::detail::dynamic_shared_array<float> sdata;"));
  CHECK(contains(rewrite_translation_unit("void k() { extern __shared__ char smem[]; }"),
                 "[[maybe_unused]] char* const smem = static_cast<char*>(::cusim::detail::dynamic_shared());"));
}

TEST_CASE("cusim-cc rewrite: lambdas capture the function-scope __shared__ variables they name by reference",
          "[tools][rewrite][quick]") {
  // Statements of a kernel with shared s, t, n and d, and what each must become.
  const std::pair<const char*, const char*> statements[] = {
      {"auto a = [=](int i) { return s[i] + d[i] + o[i]; };", "[=, &s, &d](int i)"},  // by copy: s, d by reference
      {"auto b = [](int i) { return s[i]; };", "[&s](int i)"},                        // none: s
      {"auto c = [&] { return t; };", "[&] {"},                                        // all by reference already
      {"auto e = [o, &t](int s) { return o[s] + t; };", "[o, &t](int s)"},             // s a parameter, t listed
      {"auto f = [=] { return o->s + x[2] + y(1).s; };", "auto f = [=] {"},           // members, not the variables
      {"int v = o[0] [s[0]];", "o[0] [s[0]]"},                                         // a subscript
      {"auto g = [=] { return [=] { return t; }(); };", "auto g = [=, &t] { return [=, &t] {"},  // nested: both
      {"auto h = [](int n) { return [=](int x) { return x + n; }; };", "[=](int x) { return x + n; }"},  // n: h's
      {"auto e2 = [=] __device__ (int s) { return s * 2; };", "[=] __device__ (int s)"},  // parameters after a specifier
      {"struct F { int s = 11; __device__ int get() { return [=]{ return s; }(); } };",
       "return [=]{ return s; }()"},                                                    // F::s
      {"auto&& [a2, b2] = pair{s[0], s[1]};", "auto&& [a2, b2] = pair"},                // a structured binding
      {"int** q = new int*[2]{&s[0], &s[1]};", "new int*[2]{"},                         // new T*[n]
      {"[ [maybe_unused]] auto u = 1;", "[ [maybe_unused]] auto u"},                    // an attribute
      {"auto m = [] { return s[0] * 1'000; };", "auto m = [&s] {"},                     // a digit separator
      {"if (o) {}\n# 16 \"m.cu\"\n[=] { s[1] = 3; }();", "[=, &s] { s[1] = 3; }();"},  // after a line marker
  };
  std::string source = "__global__ void k(int* o) {\n  __shared__ int s[4], t, n;\n  extern __shared__ int d[];\n";
  for (const auto& [statement, expected] : statements) source += std::string("  ") + statement + "\n";
  const std::string out = rewrite_translation_unit(source + "}\n");
  for (const auto& [statement, expected] : statements) {
    INFO(statement);
    CHECK(contains(out, expected));
  }
}

TEST_CASE("cusim-cc rewrite: a __shared__ variable at namespace scope becomes a view", "[tools][rewrite][quick]") {
  const std::string out = rewrite_translation_unit("namespace n { __shared__ int counter; }\nvoid k() {}");
  CHECK(contains(out, "static_shared_view<::std::type_identity_t<int>, &cusim_shared_site_0> counter;"));
}

TEST_CASE("cusim-cc rewrite: an unterminated launch is an error", "[tools][rewrite][quick]") {
  CHECK_THROWS_AS(rewrite_translation_unit("void f() { k<<<1, 2(x); }"), cusim::cc::rewrite_error);
}

TEST_CASE("cusim-cc rewrite: __constant__ variables are references to file-local storage, not const as in nvcc",
          "[tools][rewrite][quick]") {
  const std::string out = rewrite_translation_unit("__constant__ float weights[3] = {1.0f, 2.0f, 3.0f}, bias;\n");
  CHECK(contains(out, "static float cusim_constant_storage_weights[3] = {1.0f, 2.0f, 3.0f}; "
                      "decltype(cusim_constant_storage_weights)& weights = cusim_constant_storage_weights;"));
  CHECK(contains(out, "static float cusim_constant_storage_bias; decltype(cusim_constant_storage_bias)& bias = "
                      "cusim_constant_storage_bias;"));
  // A ';' or ',' inside a string initializer does not end the declaration.
  CHECK(contains(rewrite_translation_unit("__constant__ char banner[] = \"a;b,c\";"),
                 "static char cusim_constant_storage_banner[] = \"a;b,c\"; "
                 "decltype(cusim_constant_storage_banner)& banner = cusim_constant_storage_banner;"));
  CHECK(contains(rewrite_translation_unit("extern __constant__ int table[16];"),
                 "extern ::std::type_identity_t<int[16]>& table;"));
}

TEST_CASE("cusim-cc rewrite: __shared__ may follow the declaration's type", "[tools][rewrite][quick]") {
  const std::string out = rewrite_translation_unit(
      "__global__ void k() {\n  extern double __shared__ sdata[];\n  static unsigned int __shared__ n;\n}\n");
  CHECK(contains(out, "double* const sdata = "));
  CHECK(contains(out, "::std::type_identity_t<unsigned int>& n = "));
  CHECK_FALSE(contains(out, "__shared__"));
  // The words before it on a line marker's line are not part of it.
  const std::string after_marker =
      rewrite_translation_unit("# 3 \"k.cu\" 2\n__shared__ int x;\n");
  CHECK(contains(after_marker, "# 3 \"k.cu\" 2\n"));
  CHECK(contains(after_marker, "static_shared_view<::std::type_identity_t<int>"));
}

TEST_CASE("cusim-cc rewrite: whether clang's marks of __shared__ uses could change the text",
          "[tools][rewrite][shared_uses][quick]") {
  // The marks are waited for only where they could matter: a variable at
  // namespace scope, one in a function with a goto or switch, or one a
  // lambda names.
  const auto matters = [](const std::string& unit) {
    bool would = false;
    rewrite_translation_unit(unit, nullptr, &would);
    return would;
  };
  CHECK_FALSE(matters("void f() { __shared__ int a[4]; a[0] = 1; for (;;) { a[1] = 2; } }"));
  CHECK_FALSE(matters("void f() { switch (x) { case 0: break; } }\nvoid g() { __shared__ int a[4]; a[0] = 1; }"));
  CHECK(matters("__shared__ int a[4];\nvoid f() { a[0] = 1; }"));
  CHECK(matters("void f() { __shared__ int a[4]; if (x) goto out; a[0] = 1; out: return; }"));
  CHECK(matters("void f() { switch (x) { case 0: __shared__ int a[4]; a[0] = 1; } }"));
  CHECK(matters("void f() { __shared__ int a[4]; auto g = [] { return a[0]; }; }"));
}

TEST_CASE("cusim-cc rewrite: a member type named after the class template it instantiates is elaborated",
          "[tools][rewrite][quick]") {
  // CUB's `typedef WarpScan<T, N> WarpScan;`, which g++ refuses as changing
  // the meaning of WarpScan in the class, and nvcc's host pass compiles.
  const std::string out = rewrite_translation_unit(
      "template <class T> struct S {\n  typedef WarpScan<T, (N > 2)>\n      WarpScan;\n  typedef Other<T> Mine;\n};\n"
      "void f() { typedef Local<int> Local; }\n");
  CHECK(contains(out, "typedef struct WarpScan<T, (N > 2)>\n      WarpScan;"));
  CHECK(contains(out, "typedef Other<T> Mine;"));
  CHECK(contains(out, "{ typedef Local<int> Local; }"));  // a block's may hide it: left as written
  // The alias form (HeCBench's bmf: `using cuBool_config = cuBool_config<index_t, float>;`).
  const std::string alias = rewrite_translation_unit(
      "template <class T> struct S {\n  using cfg = cfg<T, float>;\n  using other = cfg<T, int>;\n};\n");
  CHECK(contains(alias, "using cfg = struct cfg<T, float>;"));
  CHECK(contains(alias, "using other = cfg<T, int>;"));
}

TEST_CASE("cusim-cc rewrite: a kernel's __launch_bounds__ expanded across a header's lines keeps no line marker",
          "[tools][rewrite][quick]") {
  // CUB's `__launch_bounds__(int(ChainedPolicyT::ActivePolicy::Policy::BLOCK_THREADS))`: g++ -E puts
  // line markers among the expansion's lines, and the registration copies the arguments onto one line.
  const std::string out = rewrite_translation_unit(
      "template <class P> __cusim_global__ __cusim_launch_bounds__(\n# 51 \"/usr/include/cub/k.cuh\" 3 4\n"
      "P::THREADS\n# 51 \"/usr/include/cub/k.cuh\"\n) void k(int* p) { p[0] = 1; }\n");
  CHECK(contains(out, "launch_bounds{  P::THREADS  }"));
}
