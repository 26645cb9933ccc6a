# 1 "launch.cu"
# 1 "<built-in>"
# 1 "launch.cu"
template <class T, int N>
__attribute__((global)) __cusim_global__ void scaled(T* p) { p[0] *= N; }
template <class T>
__cusim_global__ void __launch_bounds__(256, 2) deduced(T* p, T by) { p[0] += by; }
__cusim_global__ __attribute__((noinline)) void plain(int* p) {}
namespace math { __cusim_global__ void twice(int* p) {} }
__cusim_global__ void alignas(16) odd
# 9 "launch.cu"
(int* p) {}
__cusim_global__;
int main() {
  int* p;
  scaled<int, 2><<<1, 1>>>(p);
  deduced<<<1, 64>>>(p, 3);
  math::twice<<<1,
# 17 "launch.cu"
    1>>>(p);
  plain<<<1, 1>>>(p);
  deduced
    <<<2, 2>>>(p, 1);
}
