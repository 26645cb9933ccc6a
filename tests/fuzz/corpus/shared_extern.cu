extern __shared__ float sdata[];
extern __shared__ char smem[], more[];
__global__ void k() {
  extern __shared__ unsigned char dyn[];
  extern __shared__ int __align__(16) aligned[];
  extern "C" __shared__ float c_linkage[];
}
