template <typename T, int N> __global__ void k(T* p) {}
void f(float* p, cudaStream_t s) {
  ns::k<float, 4><<<dim3(1, 2), 64, 0, s>>>(p);
  k<std::vector<std::vector<int>>><<<1, 1>>>(p);
  outer::inner<A<B<C>>>::run<<<n, 32>>>(p);
}
