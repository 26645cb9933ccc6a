// clang's side of the front end's marks (front_end_marks.hpp): reads them
// from a parsed translation unit. Compiled without RTTI, as clang's
// libraries are.
#pragma once
#include <string>
#include <vector>

#include "front_end_marks.hpp"

namespace clang {
class ASTContext;
}

namespace cusim::cc {

// The uses of the __shared__ variables that the user's files declare, and
// the callees of the launches they write (not the system's headers or
// cusim's, under `own_dirs`).
front_end_marks read_front_end_marks(clang::ASTContext& context, const std::vector<std::string>& own_dirs);

}  // namespace cusim::cc
