int big = 1'000'000;
unsigned h = 0xFF'FF;
char c1 = '<', c2 = '>', c3 = '{', c4 = '}', c5 = ';';
void f() { k<<<'a', '>'>>>(c1); }
double d = 1e10, e = .5e-3;
