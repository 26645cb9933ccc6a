#include "support/program_site.hpp"

#include <map>
#include <mutex>
#include <string_view>
#include <vector>

#if __has_include(<execinfo.h>)
#include <execinfo.h>
#endif

#include "support/source_lines.hpp"

namespace cusim::detail {

namespace {

// Where cusim's own code lies, as the compiler recorded the paths: its
// sources and headers in the tree it was built from, the toolkit directory
// of that build (its headers are links into the tree, named through the
// link), and the headers as installed.
bool cusim_own(std::string_view file) {
  for (std::string_view root : {CUSIM_OWN_SOURCE_DIR "/src/", CUSIM_OWN_SOURCE_DIR "/include/",
                                CUSIM_OWN_BINARY_DIR "/toolkit/"}) {
    if (file.substr(0, root.size()) == root) return true;
  }
  return file.find("/include/cusim/") != std::string_view::npos ||
         file.find("/include/cusim-cuda/") != std::string_view::npos;
}

bool system_file(std::string_view file) {
  return file.substr(0, 13) == "/usr/include/" || file.substr(0, 9) == "/usr/lib/";
}

// addr2line's answers, kept: a program that hits one error in a loop (or in
// every thread of a grid) pays for its sites once.
std::mutex chains_lock;
std::map<const void*, std::vector<std::string>> known_chains;

}  // namespace

std::string program_call_site() {
#if __has_include(<execinfo.h>)
  void* frames[32];
  const int depth = ::backtrace(frames, 32);
  return program_site_of(std::vector<const void*>(frames + 1, frames + (depth > 1 ? depth : 1)));  // past this one
#else
  return {};
#endif
}

std::string program_site_of(const std::vector<const void*>& pcs) {
  std::lock_guard guard(chains_lock);
  std::vector<const void*> unknown;
  for (const void* pc : pcs) {
    if (known_chains.count(pc) == 0) unknown.push_back(pc);
  }
  if (!unknown.empty()) known_chains.merge(inlined_source_lines(unknown));
  for (const void* pc : pcs) {
    for (const std::string& line : known_chains[pc]) {
      const std::string_view file = std::string_view(line).substr(0, line.rfind(':'));
      if (!cusim_own(file) && !system_file(file)) return line;
    }
  }
  return {};
}

}  // namespace cusim::detail
