// The registrations of the front end's kernel facts (kernel_facts.hpp): a
// file of its own, compiled and linked into the .cu file's object. Each
// kernel is named by its symbol through a weak reference, so that one the
// host compiler did not make (or mangles otherwise) is null, and skipped,
// instead of failing the link.
#include <fmt/format.h>

#include "kernel_facts.hpp"

namespace cusim::cc {

namespace {
// `text` as a C string literal, escaped as the host compiler escapes file
// names in its line markers (so that the rewriter's sites compare equal).
std::string c_string(const std::string& text) {
  std::string literal = "\"";
  for (const unsigned char c : text) {
    if (c == '\\' || c == '"') literal += {'\\', static_cast<char>(c)};
    else if (c < 0x20 || c >= 0x7f) literal += fmt::format("\\{:03o}", c);
    else literal += static_cast<char>(c);
  }
  return literal + "\"";
}
}  // namespace

std::string facts_registration_text(const std::vector<kernel_fact>& kernels) {
  std::string text = "// cusim-cc: what the clang front end learnt about this file's kernels\n"
                     "#include <cusim/detail/front_end_facts.hpp>\n\n";
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    if (kernels[i].symbol.empty()) continue;
    text += fmt::format("extern \"C\" void cusim_front_end_kernel_{}() __asm__(\"{}\") __attribute__((weak));  // {}\n",
                        i, kernels[i].symbol, kernels[i].name);
  }
  text += "\nnamespace {\n[[maybe_unused]] const bool cusim_front_end_facts_registered = [] {\n";
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const kernel_fact& k = kernels[i];
    const std::string facts = fmt::format("{{{}, {}, {}, {}, {}}}", k.static_shared_bytes, k.waits, k.spins,
                                          k.launches, k.dynamic_shared);
    if (k.symbol.empty()) {
      text += fmt::format("  ::cusim::detail::register_front_end_facts_at({}, {});  // {}\n", c_string(k.site), facts,
                          k.name);
    } else {
      text += fmt::format(
          "  ::cusim::detail::register_front_end_facts(reinterpret_cast<const void*>(&cusim_front_end_kernel_{}), "
          "{});\n",
          i, facts);
    }
  }
  text += "  return true;\n}();\n}  // namespace\n";
  return text;
}

}  // namespace cusim::cc
