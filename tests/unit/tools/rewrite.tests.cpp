#include <catch2/catch.hpp>

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

TEST_CASE("cusim-cc rewrite: extern __shared__ becomes a view of the dynamic shared memory",
          "[tools][rewrite][quick]") {
  CHECK(contains(rewrite_translation_unit("extern __shared__ float sdata[];"),
                 "::cusim::detail::dynamic_shared_array<float> sdata;"));
  CHECK(contains(rewrite_translation_unit("void k() { extern __shared__ char smem[]; }"),
                 "::cusim::detail::dynamic_shared_array<char> smem;"));
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
  CHECK(contains(out, "::cusim::detail::dynamic_shared_array<double> sdata;"));
  CHECK(contains(out, "::std::type_identity_t<unsigned int>& n = "));
  CHECK_FALSE(contains(out, "__shared__"));
  // The words before it on a line marker's line are not part of it.
  const std::string after_marker =
      rewrite_translation_unit("# 3 \"k.cu\" 2\n__shared__ int x;\n");
  CHECK(contains(after_marker, "# 3 \"k.cu\" 2\n"));
  CHECK(contains(after_marker, "static_shared_view<::std::type_identity_t<int>"));
}
