__cusim_global__ void k() {
  __shared__ __attribute__((aligned(16))) float a[4];
  __shared__ alignas(32) int b, c[2];
  __shared__ alignas(double) char d[3];
  __shared__ __attribute__((unused)) int e;
  __shared__ int
# 40 "align.cu"
    f[2];
  extern __shared__ __attribute__((aligned(8))) char dyn[];
  __shared__ alignas(( 8 )) int g;
}
