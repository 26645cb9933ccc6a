#include "support/symbols.hpp"

#if defined(__linux__) && __has_include(<elf.h>) && __has_include(<link.h>)
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <cstdint>
#include <vector>
#endif

namespace cusim::detail {

#if defined(__linux__) && __has_include(<elf.h>) && __has_include(<link.h>)
namespace {

struct loaded_object {
  std::string path;  // "" for the executable
  std::uintptr_t bias = 0;
  bool found = false;
};

loaded_object object_containing(std::uintptr_t address) {
  loaded_object result;
  struct search {
    std::uintptr_t address;
    loaded_object* result;
  } s{address, &result};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* s = static_cast<search*>(data);
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& segment = info->dlpi_phdr[i];
          const std::uintptr_t start = info->dlpi_addr + segment.p_vaddr;
          if (segment.p_type == PT_LOAD && s->address >= start && s->address < start + segment.p_memsz) {
            *s->result = {info->dlpi_name != nullptr ? info->dlpi_name : "", info->dlpi_addr, true};
            return 1;
          }
        }
        return 0;
      },
      &s);
  return result;
}

template <class T>
bool read_at(int fd, std::uint64_t offset, T* into, std::size_t count) {
  const auto bytes = static_cast<ssize_t>(sizeof(T) * count);
  return pread(fd, into, static_cast<std::size_t>(bytes), static_cast<off_t>(offset)) == bytes;
}

// The name of the function symbol at `value` in the ELF file `fd`, from its
// full symbol table (static functions too), else its dynamic one.
std::string function_named_at(int fd, std::uint64_t value) {
  ElfW(Ehdr) header;
  if (!read_at(fd, 0, &header, 1) || header.e_shentsize != sizeof(ElfW(Shdr))) return {};
  std::vector<ElfW(Shdr)> sections(header.e_shnum);
  if (!read_at(fd, header.e_shoff, sections.data(), sections.size())) return {};
  for (const unsigned int wanted : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (const ElfW(Shdr)& table : sections) {
      if (table.sh_type != wanted || table.sh_link >= sections.size() || table.sh_entsize != sizeof(ElfW(Sym))) continue;
      std::vector<ElfW(Sym)> symbols(table.sh_size / sizeof(ElfW(Sym)));
      if (!read_at(fd, table.sh_offset, symbols.data(), symbols.size())) continue;
      for (const ElfW(Sym)& symbol : symbols) {
        if (ELF64_ST_TYPE(symbol.st_info) != STT_FUNC || symbol.st_value != value) continue;
        const ElfW(Shdr)& names = sections[table.sh_link];
        std::string name(256, '\0');
        const std::size_t available = names.sh_size > symbol.st_name ? names.sh_size - symbol.st_name : 0;
        name.resize(std::min(name.size(), available));
        if (!read_at(fd, names.sh_offset + symbol.st_name, name.data(), name.size())) continue;
        name.resize(name.find('\0') == std::string::npos ? name.size() : name.find('\0'));
        return name;
      }
    }
  }
  return {};
}

}  // namespace

std::string symbol_at(const void* function) {
  const auto address = reinterpret_cast<std::uintptr_t>(function);
  const loaded_object object = object_containing(address);
  if (!object.found) return {};
  const std::string path = object.path.empty() ? "/proc/self/exe" : object.path;
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string name = function_named_at(fd, address - object.bias);
  close(fd);
  return name;
}
#else
std::string symbol_at(const void*) { return {}; }
#endif

}  // namespace cusim::detail
