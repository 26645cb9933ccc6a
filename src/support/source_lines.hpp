// Source lines of instructions of the program, for reports of the checks
// that see instruction addresses (--check=banks, --warp-mode=lockstep):
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

}  // namespace cusim::detail
