std::vector<std::vector<std::vector<int>>> v;
std::map<int, std::pair<int, int>>> bad;
int shifted = a >> 3 >>> 2;
void f() { x = y >>> z; k<<<a>>1, b<<2>>>(x >> 1); }
