// Source lines of instructions of the program, for reports of the checks
// that see instruction addresses (--check=banks, --warp-mode=lockstep, the
// call site of an API error):
// "file:line" from the debug information, through one run of addr2line
// (binutils) per file. An address it cannot place is given in hex.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace cusim::detail {

// `pcs` are return addresses: each is placed at the instruction before it
// (the call or access it follows).
std::map<const void*, std::string> source_lines(const std::vector<const void*>& pcs);

// For each of `pcs`, every source line the instruction before it stands for:
// the innermost function inlined there first, the function the instruction
// belongs to last. Empty where the debug information does not place it.
std::map<const void*, std::vector<std::string>> inlined_source_lines(const std::vector<const void*>& pcs);

}  // namespace cusim::detail
