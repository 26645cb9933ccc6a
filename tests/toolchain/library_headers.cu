// Headers of CUDA's host libraries and graphics interop, which cusim does
// not provide: the build stops at the include, naming the library
// (toolchain.library_header_is_named). The header comes from the command
// line (-DLIBRARY_HEADER=<cufft.h>).
#include LIBRARY_HEADER

int main() { return 0; }
