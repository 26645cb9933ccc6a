// The line of the program a call into cusim came from, for reports about the
// call itself (an error a CUDA API call returns, as compute-sanitizer names
// the host line that hit it): found by walking the caller's stack and
// placing its return addresses in the program's debug information.
#pragma once
#include <string>
#include <vector>

namespace cusim::detail {

// "file.cu:line" of the innermost frame (an inlined function counts as a
// frame) in the program's own sources: not cusim's runtime or headers, nor
// the system's. Empty where none is placed (no debug information: build
// with -g or -lineinfo). Costs a run of addr2line the first time a return
// address is seen; for reports, never for a call that succeeds.
std::string program_call_site();

// The same among the return addresses `pcs`, innermost first.
std::string program_site_of(const std::vector<const void*>& pcs);

}  // namespace cusim::detail
