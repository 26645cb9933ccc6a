struct A {
  void m() const { __shared__ int a; }
  void n() noexcept { __shared__ int b; }
  void o() override { __shared__ int c; }
  auto p() -> int { __shared__ int d; return 0; }
};
void g() { { { __shared__ int nested; } } if (x) { __shared__ int e; } }
int arr[] = { 1, 2 };
namespace { __shared__ int anon_ns; }
class C { public: __shared__ int x; };
void h() try { __shared__ int f; } catch (...) {}
