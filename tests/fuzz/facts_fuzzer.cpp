// cusim-cc's clang front end (tools/cusim-cc/kernel_facts.hpp) on inputs it
// was not written for: each input, as a .cu file with cusim's headers (as
// cusim-cc parses it), and versions of it cut short and with a line left
// out, the shapes a half-edited file has. The front end may find no facts
// (clang's errors are the file's); it must not crash, hang or throw, and
// clang must not crash inside it: its crash recovery saves the build, but
// a crash is still a bug to report.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "kernel_facts.hpp"

namespace {

void parse(const std::string& source) {
  char path[] = "/tmp/cusim-facts-fuzz-XXXXXX.cu";
  const int fd = mkstemps(path, 3);
  if (fd < 0) std::abort();
  close(fd);
  std::ofstream(path, std::ios::binary) << source;
  const std::string include = CUSIM_FUZZ_INCLUDE;
  const cusim::cc::kernel_facts facts = cusim::cc::read_kernel_facts(
      path, {"-std=c++17", "-I" + include + "/cuda", "-I" + include, "-D__CUSIM_CC__=1", "-D__CUDACC__=1", "-include",
             "cuda_runtime.h"},
      {include + "/cuda", include + "/cusim"});
  std::remove(path);
  if (facts.first_error == "clang crashed") {
    std::fprintf(stderr, "facts_fuzzer: clang crashed on this input\n");
    std::abort();
  }
}

// The input without the line that starts at the byte `at` points into.
std::string without_line(const std::string& source, std::size_t at) {
  const std::size_t start = source.rfind('\n', at) == std::string::npos ? 0 : source.rfind('\n', at) + 1;
  const std::size_t end = source.find('\n', at);
  return source.substr(0, start) + (end == std::string::npos ? "" : source.substr(end + 1));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!cusim::cc::kernel_facts_available()) return 0;  // cusim-cc built without clang's libraries
  const std::string source(reinterpret_cast<const char*>(data), size);
  parse(source);
  if (size < 2) return 0;
  // Where to cut is the input's own (a hash of it): the same each run.
  const std::size_t at = std::hash<std::string>()(source) % size;
  parse(source.substr(0, at));
  parse(without_line(source, at));
  return 0;
}
