void f(int n, int* a) {
  k <<< (n + 255) / 256, 256 >>> (a);
  k<<<dim3((n + 15) / 16, max(1, (n >> 4))), dim3(16, 16), sizeof(float) * (16 * 17)>>>(a, [](int x) { return x >> 1; }(n));
  k<<<f(g(h(1))), a[b[0]], {1, 2}>>>(a);
}
