// The clang front end's view of clang's errors (facts_diagnostics.hpp).
#include "facts_diagnostics.hpp"

#include <clang/Basic/DiagnosticSema.h>
#include <clang/Basic/SourceManager.h>
#include <llvm/ADT/SmallString.h>

#include <fmt/format.h>

#include <algorithm>

#include "facts_files.hpp"

namespace cusim::cc {

using namespace clang;

namespace {

// Errors about execution spaces alone: where host code and device code may
// not reach each other. cusim runs both on the host, and nvcc is laxer than
// clang 14 about them (in templates, and for the libraries' code that
// clang parses as __host__ __device__).
bool execution_space_error(unsigned id) {
  switch (id) {
    case diag::err_ref_bad_target:
    case diag::err_ref_bad_target_global_initializer:
    case diag::err_capture_bad_target:
    case diag::err_cuda_device_exceptions:
    case diag::err_cuda_ovl_target:
    case diag::err_cuda_vla:
      return true;
    default:
      return false;
  }
}

}  // namespace

// A diagnostic shown to the user: so many errors, each with so many notes.
constexpr std::size_t shown_errors = 10;
constexpr std::size_t shown_notes = 4;

std::optional<front_end_diagnostic> facts_diagnostics::in_user_file(const Diagnostic& info, bool is_note) const {
  if (!info.hasSourceManager() || info.getLocation().isInvalid()) return std::nullopt;
  const SourceManager& sources = info.getSourceManager();
  const SourceLocation where = sources.getExpansionLoc(info.getLocation());
  if (library_file(sources.getFilename(where), sources.getFileCharacteristic(where), own_dirs_)) return std::nullopt;
  const PresumedLoc at = sources.getPresumedLoc(where);
  if (at.isInvalid()) return std::nullopt;
  llvm::SmallString<128> message;
  info.FormatDiagnostic(message);
  return front_end_diagnostic{is_note, at.getFilename(), at.getLine(), at.getColumn(), message.str().str()};
}

void facts_diagnostics::HandleDiagnostic(DiagnosticsEngine::Level level, const Diagnostic& info) {
  DiagnosticConsumer::HandleDiagnostic(level, info);
  if (level == DiagnosticsEngine::Note) {
    if (pending_.open && info.getID() == diag::note_ovl_candidate_bad_target) pending_.forgivable = true;
    if (pending_.open && !pending_.in_user_files.empty() && pending_.in_user_files.size() <= shown_notes) {
      if (auto note = in_user_file(info, true)) pending_.in_user_files.push_back(std::move(*note));
    }
    return;
  }
  settle();  // a new diagnostic: the pending error's notes have all come
  if (level < DiagnosticsEngine::Error) return;
  pending_.open = true;
  // An overload error is forgiven when a candidate failed for its
  // execution space (a note below says so).
  pending_.forgivable = execution_space_error(info.getID());
  llvm::SmallString<128> message;
  info.FormatDiagnostic(message);
  pending_.message = message.str().str();
  pending_.location = {};
  pending_.in_user_files.clear();
  if (auto error = in_user_file(info, false)) pending_.in_user_files.push_back(std::move(*error));
  if (info.hasSourceManager() && info.getLocation().isValid()) {
    const SourceManager& sources = info.getSourceManager();
    pending_.location = sources.getExpansionLoc(info.getLocation());
    const PresumedLoc at = sources.getPresumedLoc(info.getLocation());
    if (at.isValid()) pending_.message = fmt::format("{}:{}:{}: {}", at.getFilename(), at.getLine(), at.getColumn(), pending_.message);
  }
}

void facts_diagnostics::settle() {
  if (!pending_.open) return;
  pending_.open = false;
  if (pending_.forgivable && pending_.location.isValid()) {
    forgiven_.push_back(pending_.location);
    --NumErrors;
    return;
  }
  if (first_error_.empty()) first_error_ = std::move(pending_.message);
  const auto errors_kept = std::count_if(user_errors_.begin(), user_errors_.end(),
                                         [](const front_end_diagnostic& d) { return !d.is_note; });
  if (static_cast<std::size_t>(errors_kept) < shown_errors) {
    user_errors_.insert(user_errors_.end(), pending_.in_user_files.begin(), pending_.in_user_files.end());
  }
}

}  // namespace cusim::cc
