#include "support/source_lines.hpp"

#include <fmt/format.h>

#if defined(__linux__) && __has_include(<dlfcn.h>) && __has_include(<link.h>)
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <utility>
#endif

namespace cusim::detail {

#if defined(__linux__) && __has_include(<dlfcn.h>) && __has_include(<link.h>)
std::map<const void*, std::string> source_lines(const std::vector<const void*>& pcs) {
  std::map<const void*, std::string> lines;
  std::map<std::string, std::vector<std::pair<const void*, std::uintptr_t>>> by_file;
  for (const void* pc : pcs) {
    lines[pc] = fmt::format("{}", pc);
    Dl_info info{};
    const void* at = static_cast<const char*>(pc) - 1;  // the call's own instruction
    if (dladdr(at, &info) == 0 || info.dli_fbase == nullptr) continue;
    std::string file = info.dli_fname != nullptr ? info.dli_fname : "";
    if (file.empty() || file.find('/') == std::string::npos) {
      char self[4096];
      const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
      if (n <= 0) continue;
      file.assign(self, std::size_t(n));
    }
    const auto* header = static_cast<const ElfW(Ehdr)*>(info.dli_fbase);
    const std::uintptr_t address = reinterpret_cast<std::uintptr_t>(at);
    const std::uintptr_t offset =
        header->e_type == ET_DYN ? address - reinterpret_cast<std::uintptr_t>(info.dli_fbase) : address;
    by_file[file].emplace_back(pc, offset);
  }
  for (const auto& [file, entries] : by_file) {
    std::string command = fmt::format("addr2line -e '{}'", file);
    for (const auto& entry : entries) command += fmt::format(" {:#x}", entry.second);
    std::FILE* out = ::popen(command.c_str(), "r");
    if (out == nullptr) continue;
    char line[4096];
    for (const auto& entry : entries) {
      if (std::fgets(line, sizeof line, out) == nullptr) break;
      std::string text(line);
      text.erase(text.find_last_not_of("\n") + 1);
      if (auto cut = text.find(" (discriminator"); cut != std::string::npos) text.erase(cut);
      if (text.rfind("??", 0) != 0) lines[entry.first] = text;
    }
    ::pclose(out);
  }
  return lines;
}
#else
std::map<const void*, std::string> source_lines(const std::vector<const void*>& pcs) {
  std::map<const void*, std::string> lines;
  for (const void* pc : pcs) lines[pc] = fmt::format("{}", pc);
  return lines;
}
#endif

}  // namespace cusim::detail
