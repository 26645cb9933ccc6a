# 12 "unterminated.cu
__shared__ int a;