const char* r = R"(k<<<1,1>>>() "quoted" __shared__ int x;)";
const char* d = R"x(has )" inside and <<< too)x";
const char* m = R"delim(
multi
line ; __constant__ int c;
)delim";
const char* p = u8R"(prefixed "raw")";
const wchar_t* w = LR"(wide)";
const char* e = R"()";
int YR = 1; const char* notraw = "R" "(";
