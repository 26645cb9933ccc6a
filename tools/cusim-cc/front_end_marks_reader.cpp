// clang's side of the front end's marks (front_end_marks_reader.hpp): the
// uses of __shared__ variables, and the callees of launches.
#include "front_end_marks_reader.hpp"

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include <algorithm>
#include <map>
#include <set>

#include "facts_files.hpp"

namespace cusim::cc {

namespace {

using namespace clang;

// Where one use is written: the file and line the preprocessor names it by
// (#line included), and where it physically is, to count its occurrence.
struct placed_use {
  FileID file;
  unsigned physical_line;
  unsigned column;
  std::string presumed_file;
  unsigned presumed_line;
};

struct shared_variable {
  std::string name;
  bool placeable = true;  // every declaration and use is written where the rewriter sees it
  // Declared in a function: it needs the view only where the rewriter's
  // reference cannot be right (front_end_marks.hpp): `goto` or `case` may jump
  // past it, or a lambda without a capture default names it.
  const FunctionDecl* function = nullptr;
  bool needs_view = false;
  std::vector<std::pair<std::string, unsigned>> declarations;  // (file, line of the __shared__ keyword)
  std::vector<placed_use> uses;
};

// The uses in the code as written: template patterns, not instantiations
// (whose uses are the pattern's).
class marks_finder : public RecursiveASTVisitor<marks_finder> {
 public:
  marks_finder(const SourceManager& sources, const LangOptions& language, const std::vector<std::string>& own_dirs)
      : sources_(sources), language_(language), own_dirs_(own_dirs) {}

  bool VisitVarDecl(VarDecl* declaration) {
    shared_variable* variable = variable_of(declaration);
    if (variable == nullptr) return true;
    // The name written in the file: the rewriter reads the declaration
    // where the preprocessor put it, which a macro's body would hide.
    if (!declaration->getLocation().isFileID()) {
      variable->placeable = false;
      return true;
    }
    // Lexically: a block-scope `extern __shared__` belongs to the translation
    // unit semantically, but is declared (and rewritten) in its function.
    if (const DeclContext* lexical = declaration->getLexicalDeclContext(); lexical->isFunctionOrMethod()) {
      variable->function = dyn_cast<FunctionDecl>(lexical);
      variable->needs_view |= switches_ > 0;
    }
    const CUDASharedAttr* keyword = declaration->getAttr<CUDASharedAttr>();
    const SourceLocation where = keyword->isInherited() || keyword->getLocation().isInvalid()
                                     ? declaration->getLocation()
                                     : sources_.getExpansionLoc(keyword->getLocation());
    const PresumedLoc at = sources_.getPresumedLoc(where);
    if (at.isInvalid()) {
      variable->placeable = false;
      return true;
    }
    variable->declarations.emplace_back(canonical_source_path(at.getFilename()), at.getLine());
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr* reference) {
    shared_variable* variable = variable_of(reference->getDecl());
    if (variable == nullptr) return true;
    // A macro's argument is written at the invocation; its body is not
    // the user's line (and serves every expansion).
    SourceLocation location = reference->getLocation();
    while (location.isMacroID()) {
      if (!sources_.isMacroArgExpansion(location)) {
        variable->placeable = false;
        return true;
      }
      location = sources_.getImmediateSpellingLoc(location);
    }
    const PresumedLoc at = sources_.getPresumedLoc(location);
    if (at.isInvalid() || library_file(sources_.getFilename(location), sources_.getFileCharacteristic(location), own_dirs_)) {
      variable->placeable = false;
      return true;
    }
    for (const LambdaExpr* lambda : lambdas_) {
      const bool declared_inside = reference->getDecl()->getLexicalDeclContext() == lambda->getCallOperator();
      if (lambda->getCaptureDefault() == LCD_None && !declared_inside) variable->needs_view = true;
    }
    const auto [file, offset] = sources_.getDecomposedLoc(location);
    variable->uses.push_back({file, sources_.getLineNumber(file, offset), sources_.getColumnNumber(file, offset),
                              canonical_source_path(at.getFilename()), at.getLine()});
    return true;
  }

  // A capture names the variable without a use to mark, and a static
  // cannot be captured.
  bool TraverseLambdaExpr(LambdaExpr* lambda) {
    for (const LambdaCapture& capture : lambda->explicit_captures()) {
      if (!capture.capturesVariable()) continue;
      if (shared_variable* variable = variable_of(capture.getCapturedVar())) variable->placeable = false;
    }
    lambdas_.push_back(lambda);
    const bool more = RecursiveASTVisitor::TraverseLambdaExpr(lambda);
    lambdas_.pop_back();
    return more;
  }
  bool TraverseSwitchStmt(SwitchStmt* statement) {
    ++switches_;
    const bool more = RecursiveASTVisitor::TraverseSwitchStmt(statement);
    --switches_;
    return more;
  }

  // A launch whose kernel expression and `<<<` are written in the user's
  // file, outside macros: its callee's text, and where its `<<<` is.
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr* launch) {
    const Expr* callee = launch->getCallee();
    if (callee == nullptr) return true;
    const SourceLocation begin = callee->getBeginLoc(), end = callee->getEndLoc();
    if (!begin.isFileID() || !end.isFileID() || sources_.getFileID(begin) != sources_.getFileID(end)) return true;
    if (library_file(sources_.getFilename(begin), sources_.getFileCharacteristic(begin), own_dirs_)) return true;
    const llvm::Optional<Token> next = Lexer::findNextToken(end, sources_, language_);
    if (!next || !next->is(tok::lesslessless)) return true;
    const PresumedLoc at = sources_.getPresumedLoc(next->getLocation());
    if (at.isInvalid()) return true;
    const auto [file, offset] = sources_.getDecomposedLoc(next->getLocation());
    launches.push_back({Lexer::getSourceText(CharSourceRange::getTokenRange(begin, end), sources_, language_).str(),
                        {file, sources_.getLineNumber(file, offset), sources_.getColumnNumber(file, offset),
                         canonical_source_path(at.getFilename()), at.getLine()}});
    return true;
  }

  // Kernels, by scope and name: several is an overload.
  // Every function by scope and name: a kernel of the user's files is
  // overloaded where another function, kernel or not, shares both (a host
  // `calc()` beside a `__global__ calc(S*)`, or libc's `random()` beside a
  // `__global__ random(float*)`, makes the name an overload set).
  bool VisitFunctionDecl(FunctionDecl* function) {
    if (function->isTemplateInstantiation() || function->getIdentifier() == nullptr) return true;
    const Decl* declared = function->getCanonicalDecl();
    if (const FunctionTemplateDecl* pattern = function->getDescribedFunctionTemplate()) {
      declared = pattern->getCanonicalDecl();
    }
    functions_by_name& same_name =
        functions[{function->getDeclContext()->getRedeclContext()->getPrimaryContext(), function->getName().str()}];
    same_name.declared.insert(declared);
    if (function->hasAttr<CUDAGlobalAttr>() && !declared_in_library(sources_, function->getLocation(), own_dirs_)) {
      same_name.has_kernel = true;
    }
    return true;
  }

  std::map<const Decl*, shared_variable> variables;
  struct functions_by_name {
    std::set<const Decl*> declared;
    bool has_kernel = false;
  };
  std::map<std::pair<const DeclContext*, std::string>, functions_by_name> functions;
  struct launch_callee {
    std::string text;
    placed_use launch;  // where its `<<<` is
  };
  std::vector<launch_callee> launches;

 private:
  shared_variable* variable_of(const ValueDecl* declaration) {
    const auto* variable = dyn_cast_or_null<VarDecl>(declaration);
    if (variable == nullptr || !variable->hasAttr<CUDASharedAttr>()) return nullptr;
    if (declared_in_library(sources_, variable->getLocation(), own_dirs_)) return nullptr;
    // Each block-scope extern on its own: they redeclare one entity of the
    // translation unit, in different functions.
    auto* mutable_variable = const_cast<VarDecl*>(variable);  // clang 14: isLocalExternDecl is not const
    const Decl* key = mutable_variable->isLocalExternDecl() ? static_cast<const Decl*>(variable)
                                                            : variable->getCanonicalDecl();
    shared_variable& found = variables[key];
    found.name = variable->getName().str();
    return &found;
  }

  const SourceManager& sources_;
  const LangOptions& language_;
  const std::vector<std::string>& own_dirs_;
  std::vector<const LambdaExpr*> lambdas_;  // around the node being visited
  int switches_ = 0;                        // switch statements around it
};

// Whether a function's body jumps by `goto` (or computed goto).
class jump_finder : public RecursiveASTVisitor<jump_finder> {
 public:
  bool VisitGotoStmt(GotoStmt*) { return !(found = true); }
  bool VisitIndirectGotoStmt(IndirectGotoStmt*) { return !(found = true); }
  bool found = false;
};

bool jumps_by_goto(const FunctionDecl* function, std::map<const FunctionDecl*, bool>& known) {
  auto [it, fresh] = known.try_emplace(function, false);
  if (fresh && function->getBody() != nullptr) {
    jump_finder finder;
    finder.TraverseStmt(function->getBody());
    it->second = finder.found;
  }
  return it->second;
}

// The columns of each identifier, and of each `<<<`, in a file, by
// physical line: the raw tokens, as the host compiler's preprocessor sees
// them before expanding anything (comments and literals are not identifiers).
class token_columns {
 public:
  token_columns(const SourceManager& sources, const LangOptions& language) : sources_(sources), language_(language) {}

  // The columns of `name` (or "<<<") on `line` of `file`, left to right.
  const std::vector<unsigned>& on_line(FileID file, unsigned line, const std::string& name) {
    auto [it, fresh] = files_.try_emplace(file);
    if (fresh) read(file, it->second);
    static const std::vector<unsigned> none;
    const auto found = it->second.find({line, name});
    return found == it->second.end() ? none : found->second;
  }

 private:
  using by_line_and_name = std::map<std::pair<unsigned, std::string>, std::vector<unsigned>>;

  void read(FileID file, by_line_and_name& out) const {
    const llvm::Optional<llvm::MemoryBufferRef> buffer = sources_.getBufferOrNone(file);
    if (!buffer) return;
    Lexer lexer(sources_.getLocForStartOfFile(file), language_, buffer->getBufferStart(), buffer->getBufferStart(),
                buffer->getBufferEnd());
    Token token;
    while (!lexer.LexFromRawLexer(token)) {
      const bool launch = token.is(tok::lesslessless);
      if (!token.is(tok::raw_identifier) && !launch) continue;
      const unsigned offset = sources_.getFileOffset(token.getLocation());
      out[{sources_.getLineNumber(file, offset), launch ? "<<<" : token.getRawIdentifier().str()}].push_back(
          sources_.getColumnNumber(file, offset));
    }
  }

  const SourceManager& sources_;
  const LangOptions& language_;
  std::map<FileID, by_line_and_name> files_;
};

}  // namespace

front_end_marks read_front_end_marks(ASTContext& context, const std::vector<std::string>& own_dirs) {
  const SourceManager& sources = context.getSourceManager();
  marks_finder finder(sources, context.getLangOpts(), own_dirs);
  finder.TraverseDecl(context.getTranslationUnitDecl());
  token_columns columns(sources, context.getLangOpts());
  front_end_marks marks;
  std::map<const FunctionDecl*, bool> jumps;
  for (auto& [declaration, variable] : finder.variables) {
    if (!variable.placeable || variable.declarations.empty()) continue;
    // In a function, the rewriter's reference keeps a use as cheap as a
    // local's: the view only where the reference is wrong.
    if (variable.function != nullptr && !variable.needs_view && !jumps_by_goto(variable.function, jumps)) continue;
    // Each use as the n-th of the name's occurrences on its line.
    std::map<std::pair<std::string, unsigned>, shared_uses_on_line> lines;
    bool placed = true;
    for (const placed_use& use : variable.uses) {
      const std::vector<unsigned>& on_line = columns.on_line(use.file, use.physical_line, variable.name);
      const auto found = std::find(on_line.begin(), on_line.end(), use.column);
      if (found == on_line.end()) {
        placed = false;
        break;
      }
      shared_uses_on_line& line = lines[{use.presumed_file, use.presumed_line}];
      line.name = variable.name;
      line.occurrences = static_cast<unsigned>(on_line.size());
      line.uses.push_back(static_cast<unsigned>(found - on_line.begin()));
    }
    if (!placed) continue;
    for (const auto& [file, line] : variable.declarations) marks.declarations.emplace(file, line, variable.name);
    for (auto& [where, line] : lines) {
      // Two variables of one name on one line (two functions'): one list.
      std::vector<shared_uses_on_line>& on_line = marks.lines[where];
      const auto same = std::find_if(on_line.begin(), on_line.end(),
                                     [&](const shared_uses_on_line& other) { return other.name == line.name; });
      if (same == on_line.end()) on_line.push_back(std::move(line));
      else same->uses.insert(same->uses.end(), line.uses.begin(), line.uses.end());
    }
  }
  for (const auto& [scope_and_name, same_name] : finder.functions) {
    if (same_name.has_kernel && same_name.declared.size() > 1) marks.overloaded_kernels.insert(scope_and_name.second);
  }
  // Each launch's callee as the n-th `<<<` of its line ("" for one not read).
  for (const marks_finder::launch_callee& callee : finder.launches) {
    const placed_use& at = callee.launch;
    const std::vector<unsigned>& on_line = columns.on_line(at.file, at.physical_line, "<<<");
    const auto found = std::find(on_line.begin(), on_line.end(), at.column);
    if (found == on_line.end()) continue;
    std::vector<std::string>& line = marks.launch_callees[{at.presumed_file, at.presumed_line}];
    line.resize(std::max(line.size(), on_line.size()));
    line[static_cast<std::size_t>(found - on_line.begin())] = callee.text;
  }
  return marks;
}

}  // namespace cusim::cc
