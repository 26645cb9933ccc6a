// The source line under a cusim-cc error, with a caret at its column, as
// GCC and clang show one:
//      12 |   k<<<grid>>>(x);
//         |    ^
#pragma once
#include <string>

namespace cusim::cc {

// Empty when the file cannot be read or has no such line. Tabs in the line
// are kept, and copied under it, so that the caret lines up.
std::string source_excerpt(const std::string& file, unsigned long line, unsigned long column);

}  // namespace cusim::cc
