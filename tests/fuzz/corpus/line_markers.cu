# 1 "kernel.cu"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 2 "kernel.cu" 2
#line 40 "other.cu"
# 12 "file.cu" 2
__global__ void k() {
  __shared__ float s[4];
# 99 "file with spaces.cu" 1 3
  __shared__ int t;
  #pragma once
  # 7
  __shared__ int u;
}
#
# 
#line
# 4294967296 "big.cu"
void f() { __shared__ int w; }
