// a comment with k<<<1,1>>>() and __shared__ int x;
/* block comment: don't >>> stop "here" */
__global__ void k() {
  __shared__ int s; // trailing
  /* __constant__ */ int t;
}
void f() { k<<<1, /* blocks */ 1>>>(); } // it's done
