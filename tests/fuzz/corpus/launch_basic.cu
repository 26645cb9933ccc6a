void f(float* x, float* y) { k<<<g, b>>>(x, y); }
