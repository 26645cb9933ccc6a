// libFuzzer entry point for cusim-cc's source rewriter. rewrite_error is the
// rewriter's one way of refusing input; any other exception escapes on
// purpose, so that libFuzzer reports it as a crash.
#include <cstddef>
#include <cstdint>
#include <string>

#include "front_end_marks.hpp"
#include "rewrite.hpp"

namespace {

// Marks as clang's front end could give them (front_end_marks.hpp), for
// whatever file the text's line markers name: the names the project's own
// samples give __shared__ variables as uses and declarations on the first
// lines, and a launch callee for each, so that the marked paths run on
// every input too.
const cusim::cc::front_end_marks& sample_marks() {
  static const cusim::cc::front_end_marks marks = [] {
    cusim::cc::front_end_marks made;
    for (const char* file : {"<source>", "t.cu"}) {
      const std::string path = cusim::cc::canonical_source_path(file);
      for (unsigned line = 1; line <= 40; ++line) {
        for (const char* name : {"s", "tile", "sdata", "cache"}) {
          made.declarations.insert({path, line, name});
          made.lines[{path, line}].push_back({name, 2, {0, 1}});
        }
        made.launch_callees[{path, line}] = {"k", "f(1)"};
      }
    }
    made.overloaded_kernels.insert("k");
    return made;
  }();
  return marks;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string source(reinterpret_cast<const char*>(data), size);
  // The results are discarded: what is checked is that rewriting ends
  // cleanly (the sanitizers watch the memory accesses), with marks or not.
  try {
    bool marks_would_matter = false;
    static_cast<void>(cusim::cc::rewrite_translation_unit(source, nullptr, &marks_would_matter));
  } catch (const cusim::cc::rewrite_error&) {
  }
  try {
    cusim::cc::front_end_lookup marks(sample_marks());
    static_cast<void>(cusim::cc::rewrite_translation_unit(source, &marks));
  } catch (const cusim::cc::rewrite_error&) {
  }
  return 0;
}
