// cusim-cc built without clang's libraries (CUSIM_KERNEL_FACTS=OFF): no
// kernel facts; the runtime learns static shared memory as blocks run.
#include "kernel_facts.hpp"

namespace cusim::cc {

bool kernel_facts_available() { return false; }

kernel_facts read_kernel_facts(const std::string&, const std::vector<std::string>&, const std::vector<std::string>&) {
  return {};
}

}  // namespace cusim::cc
