// The symbol (mangled name) of a function of the program, as a GPU's
// runtime gives it for a kernel (cudaFuncGetName): read from the symbol
// table of the ELF file the function was loaded from. Empty where there is
// none (a stripped binary, a platform without ELF).
#pragma once
#include <string>

namespace cusim::detail {

std::string symbol_at(const void* function);

}  // namespace cusim::detail
