#define LAUNCH(k, n) k<<<((n) + 255) / 256, 256>>>
#define CHECK(x) do { if ((x) != cudaSuccess) return 1; } while (0)
int f(int n, float* p) {
  LAUNCH(add, n)(n, p);
  CHECK(cudaGetLastError());
  # 12 "macros.cu"
  add<<<((n) + 255) / 256, 256>>>(n, p);
  return 0;
}
