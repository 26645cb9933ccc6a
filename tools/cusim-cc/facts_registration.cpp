// The registrations of the front end's kernel facts (kernel_facts.hpp): a
// file of its own, compiled and linked into the .cu file's object. Each
// kernel is named by its symbol through a weak reference, so that one the
// host compiler did not make (or mangles otherwise) is null, and skipped,
// instead of failing the link.
#include <fmt/format.h>

#include "kernel_facts.hpp"

namespace cusim::cc {

std::string facts_registration_text(const std::vector<kernel_fact>& kernels) {
  std::string text = "// cusim-cc: what the clang front end learnt about this file's kernels\n"
                     "#include <cusim/detail/front_end_facts.hpp>\n\n";
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    text += fmt::format("extern \"C\" void cusim_front_end_kernel_{}() __asm__(\"{}\") __attribute__((weak));  // {}\n",
                        i, kernels[i].symbol, kernels[i].name);
  }
  text += "\nnamespace {\n[[maybe_unused]] const bool cusim_front_end_facts_registered = [] {\n";
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    const kernel_fact& k = kernels[i];
    text += fmt::format(
        "  ::cusim::detail::register_front_end_facts(reinterpret_cast<const void*>(&cusim_front_end_kernel_{}), "
        "{{{}, {}, {}, {}, {}}});\n",
        i, k.static_shared_bytes, k.waits, k.spins, k.launches, k.dynamic_shared);
  }
  text += "  return true;\n}();\n}  // namespace\n";
  return text;
}

}  // namespace cusim::cc
