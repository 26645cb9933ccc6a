// The function a call came from, captured by a default argument: what
// CUSIM_VERBOSE's lines name ("cudaMemcpy returns ..."). std::source_location
// would do, but libstdc++'s needs __builtin_source_location, which clang only
// has from version 15 (Debian 12's clang is 14); __builtin_FUNCTION works in
// gcc and clang alike.
#pragma once

namespace cusim::detail {

struct call_site {
  const char* function;

  // As a default argument, the builtin is evaluated where the defaulted call
  // is written, so `call_site where = call_site::current()` names the caller.
  static constexpr call_site current(const char* function = __builtin_FUNCTION()) { return {function}; }
};

}  // namespace cusim::detail
