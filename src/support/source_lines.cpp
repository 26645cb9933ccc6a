#include "support/source_lines.hpp"

#include <fmt/format.h>

#include <functional>

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

namespace {

using answer_handler = std::function<void(const void* pc, std::vector<std::string> lines)>;

#if defined(__linux__) && __has_include(<dlfcn.h>) && __has_include(<link.h>)
// Runs addr2line (with `options`) once per ELF file over the return
// addresses `pcs`, each placed at the instruction before it, and hands each
// address's answer lines to `handle` ("??:0" and the like included).
void ask_addr2line(const std::vector<const void*>& pcs, const char* options, const answer_handler& handle) {
  std::map<std::string, std::vector<std::pair<const void*, std::uintptr_t>>> by_file;
  for (const void* pc : pcs) {
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
  for (const auto& by : by_file) {
    // (Not a structured binding: clang 14 does not let the lambda below capture one.)
    const std::string& file = by.first;
    const auto& entries = by.second;
    // -a starts each address's answer with the address, so an answer of
    // several lines (-i: the functions inlined there) is told from the next.
    std::string command = fmt::format("addr2line -a {} -e '{}'", options, file);
    for (const auto& entry : entries) command += fmt::format(" {:#x}", entry.second);
    std::FILE* out = ::popen(command.c_str(), "r");
    if (out == nullptr) continue;
    char buffer[4096];
    std::size_t next = 0;
    std::vector<std::string> answer;
    bool started = false;
    const auto finish = [&] {
      if (started && next <= entries.size()) handle(entries[next - 1].first, std::move(answer));
      answer.clear();
    };
    while (std::fgets(buffer, sizeof buffer, out) != nullptr) {
      std::string text(buffer);
      text.erase(text.find_last_not_of("\n") + 1);
      if (text.rfind("0x", 0) == 0) {
        finish();
        started = true;
        ++next;
        continue;
      }
      if (auto cut = text.find(" (discriminator"); cut != std::string::npos) text.erase(cut);
      answer.push_back(std::move(text));
    }
    finish();
    ::pclose(out);
  }
}
#else
void ask_addr2line(const std::vector<const void*>&, const char*, const answer_handler&) {}
#endif

bool placed(const std::string& line) { return line.rfind("??", 0) != 0; }

}  // namespace

std::map<const void*, std::string> source_lines(const std::vector<const void*>& pcs) {
  std::map<const void*, std::string> lines;
  for (const void* pc : pcs) lines[pc] = fmt::format("{}", pc);
  ask_addr2line(pcs, "", [&](const void* pc, std::vector<std::string> answer) {
    if (!answer.empty() && placed(answer.front())) lines[pc] = answer.front();
  });
  return lines;
}

std::map<const void*, std::vector<std::string>> inlined_source_lines(const std::vector<const void*>& pcs) {
  std::map<const void*, std::vector<std::string>> chains;
  for (const void* pc : pcs) chains[pc];
  ask_addr2line(pcs, "-i", [&](const void* pc, std::vector<std::string> answer) {
    std::vector<std::string>& chain = chains[pc];
    for (std::string& line : answer) {
      if (placed(line)) chain.push_back(std::move(line));
    }
  });
  return chains;
}

}  // namespace cusim::detail
