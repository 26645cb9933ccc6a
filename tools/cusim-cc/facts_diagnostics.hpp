// What the clang front end (kernel_facts.hpp) makes of clang's errors.
//
// An error costs the whole file its facts, except one about execution
// spaces alone, where clang 14 is stricter than nvcc and cusim runs host
// and device code alike on the host: a launch in device code of a kernel
// named by its template (`child<N><<<g, b>>>(...)`, as cdpQuadtree writes
// it; clang has no dynamic parallelism, so every candidate is "not viable:
// call to __global__ function from __global__ function"), a __device__
// functor called from Thrust's __host__ __device__ code, `throw` in a
// kernel, a redeclaration that differs in __host__/__device__. Such an
// error is forgiven, and the function whose body holds it is treated as
// doing everything (clang's tree may miss a call there), which is always
// safe. The first error not forgiven is kept for -v; the errors in the
// user's own files, with their notes there, for when the host compiler
// fails too (kernel_facts.hpp's user_errors).
#pragma once
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>

#include <optional>
#include <string>
#include <vector>

#include "kernel_facts.hpp"

namespace cusim::cc {

class facts_diagnostics : public clang::DiagnosticConsumer {
 public:
  // `own_dirs`: where cusim's headers are (not the user's files).
  explicit facts_diagnostics(const std::vector<std::string>& own_dirs) : own_dirs_(own_dirs) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level, const clang::Diagnostic& info) override;
  void finish() override { settle(); }

  // Decides the last error (its notes have all come), and leaves
  // getNumErrors() counting only the errors not forgiven.
  void settle();
  const std::string& first_error() const { return first_error_; }
  const std::vector<front_end_diagnostic>& user_errors() const { return user_errors_; }
  // Where the forgiven errors are (expansion locations).
  const std::vector<clang::SourceLocation>& forgiven() const { return forgiven_; }

 private:
  struct pending_error {
    bool open = false;
    bool forgivable = false;
    std::string message;
    clang::SourceLocation location;
    std::vector<front_end_diagnostic> in_user_files;  // the error and its notes, where they are the user's
  };
  // The diagnostic as the user would read it, where it is in the user's files.
  std::optional<front_end_diagnostic> in_user_file(const clang::Diagnostic& info, bool is_note) const;

  const std::vector<std::string>& own_dirs_;
  pending_error pending_;
  std::string first_error_;
  std::vector<front_end_diagnostic> user_errors_;
  std::vector<clang::SourceLocation> forgiven_;
};

}  // namespace cusim::cc
