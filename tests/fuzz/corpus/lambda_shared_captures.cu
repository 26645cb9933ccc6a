__global__ void k(int* o) {
  __shared__ int s[4];
  extern __shared__ float d[];
  auto a = [=, &q](int i) { return s[i] + d[i] + o[i]; };
  auto b = [](int i) { return [=] { return s[i]; }(); };
  int v = o[0][s[0]]; delete[] o; new int[s[1]];
}
