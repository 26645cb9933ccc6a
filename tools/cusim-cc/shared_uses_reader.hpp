// clang's side of the __shared__ uses (shared_uses.hpp): reads them from a
// parsed translation unit. Compiled without RTTI, as clang's libraries are.
#pragma once
#include <string>
#include <vector>

#include "shared_uses.hpp"

namespace clang {
class ASTContext;
}

namespace cusim::cc {

// The uses of the __shared__ variables that the user's files declare
// (not the system's headers or cusim's, under `own_dirs`).
shared_use_marks read_shared_uses(clang::ASTContext& context, const std::vector<std::string>& own_dirs);

}  // namespace cusim::cc
