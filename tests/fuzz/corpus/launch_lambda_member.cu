struct S { template <int B> static void run(float* p) { kernel<B><<<1, B>>>(p); } };
void g(float* p) {
  auto l = [&] { ::k<<<1, 1, 0, 0>>>(p); };
  this->k<<<1, 1>>>(p);
  obj.template k<int><<<1, 1>>>(p);
  (k)<<<1, 1>>>(p);
}
