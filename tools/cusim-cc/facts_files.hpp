// Which files clang's front end reads as the user's: the system's headers
// and cusim's own are libraries, whose declarations the facts and the
// __shared__ uses leave alone. Compiled without RTTI, as clang's libraries are.
#pragma once
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/StringRef.h>

#include <string>
#include <vector>

namespace cusim::cc {

inline bool under_any(llvm::StringRef path, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (!dir.empty() && path.startswith(dir)) return true;
  }
  return false;
}

// Whether `file` is the system's or cusim's rather than the user's.
inline bool library_file(llvm::StringRef file, clang::SrcMgr::CharacteristicKind kind,
                         const std::vector<std::string>& own_dirs) {
  return kind != clang::SrcMgr::C_User || under_any(file, own_dirs);
}

// Whether what is declared at `location` is (where a macro expands).
inline bool declared_in_library(const clang::SourceManager& sources, clang::SourceLocation location,
                                const std::vector<std::string>& own_dirs) {
  const clang::SourceLocation where = sources.getExpansionLoc(location);
  return library_file(sources.getFilename(where), sources.getFileCharacteristic(where), own_dirs);
}

}  // namespace cusim::cc
