// libFuzzer entry point for cusim-cc's source rewriter. rewrite_error is the
// rewriter's one way of refusing input; any other exception escapes on
// purpose, so that libFuzzer reports it as a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "rewrite.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  try {
    // The result is discarded: what is checked is that rewriting ends
    // cleanly (the sanitizers watch the memory accesses).
    static_cast<void>(cusim::cc::rewrite_translation_unit(source));
  } catch (const cusim::cc::rewrite_error&) {
  }
  return 0;
}
