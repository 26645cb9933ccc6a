// The clang front end's kernel facts (kernel_facts.hpp). Compiled without
// RTTI, as clang's libraries are.
#include "kernel_facts.hpp"

#include <clang/AST/ASTConsumer.h>
#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/AST/DeclCXX.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/Mangle.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Stack.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <clang/Sema/Sema.h>
#include <clang/Sema/SemaConsumer.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/Support/CrashRecoveryContext.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

#include "facts_diagnostics.hpp"
#include "facts_files.hpp"
#include "facts_source.hpp"
#include "front_end_marks_reader.hpp"
#include "ptx/ptx_program.hpp"

namespace cusim::cc {

bool kernel_facts_available() { return true; }

namespace {

using namespace clang;

// What one function does itself; what it calls is followed separately.
struct local_facts {
  bool waits = false, spins = false, launches = false, dynamic_shared = false, opaque = false;
  std::vector<const VarDecl*> shared;  // static __shared__ variables it names, in declaration order
  std::vector<const FunctionDecl*> callees;  // definitions it calls
};

class body_reader : public RecursiveASTVisitor<body_reader> {
 public:
  body_reader(const ASTContext& context, const std::vector<std::string>& own_dirs, local_facts& out)
      : context_(context), sources_(context.getSourceManager()), own_dirs_(own_dirs), out_(out) {}

  bool shouldVisitImplicitCode() const { return true; }

  // What never runs takes no shared memory and makes no calls: the branch
  // `if constexpr` discards, unevaluated operands (sizeof, decltype,
  // noexcept), and the bodies of lambdas and local classes, which count
  // where they are called.
  bool TraverseIfStmt(IfStmt* branch) {
    if (branch->isConstexpr()) {
      if (const auto taken = branch->getNondiscardedCase(context_)) {
        TraverseStmt(branch->getInit());
        TraverseStmt(branch->getConditionVariableDeclStmt());
        return *taken == nullptr || TraverseStmt(const_cast<Stmt*>(*taken));
      }
    }
    return RecursiveASTVisitor::TraverseIfStmt(branch);
  }
  bool TraverseUnaryExprOrTypeTraitExpr(UnaryExprOrTypeTraitExpr*) { return true; }
  bool TraverseDecltypeTypeLoc(DecltypeTypeLoc) { return true; }
  bool TraverseCXXNoexceptExpr(CXXNoexceptExpr*) { return true; }
  bool TraverseCXXTypeidExpr(CXXTypeidExpr* typeid_expr) {
    return !typeid_expr->isPotentiallyEvaluated() || RecursiveASTVisitor::TraverseCXXTypeidExpr(typeid_expr);
  }
  bool TraverseLambdaExpr(LambdaExpr* lambda) {
    for (Expr* init : lambda->capture_inits()) {
      if (init != nullptr) TraverseStmt(init);
    }
    return true;
  }
  bool TraverseCXXRecordDecl(CXXRecordDecl*) { return true; }
  // A default member initializer and a default argument run where they
  // are used; clang's visitor does not enter them (they belong to the
  // field or parameter).
  bool TraverseCXXDefaultInitExpr(CXXDefaultInitExpr* init) { return TraverseStmt(init->getExpr()); }
  bool TraverseCXXDefaultArgExpr(CXXDefaultArgExpr* argument) { return TraverseStmt(argument->getExpr()); }

  // A constructor's member initializers and a destructor's implicit calls
  // of its members' and bases' destructors run with its body.
  void read_function(const FunctionDecl* function) {
    if (const auto* constructor = dyn_cast<CXXConstructorDecl>(function)) {
      for (const CXXCtorInitializer* init : constructor->inits()) TraverseStmt(init->getInit());
    }
    if (const auto* destructor = dyn_cast<CXXDestructorDecl>(function)) {
      const CXXRecordDecl* record = destructor->getParent();
      for (const FieldDecl* field : record->fields()) note_destruction(field->getType());
      for (const CXXBaseSpecifier& base : record->bases()) note_destruction(base.getType());
    }
    TraverseStmt(function->getBody());
  }

  bool VisitCallExpr(CallExpr* call) {
    // A child grid: its own facts are its own.
    if (isa<CUDAKernelCallExpr>(call)) {
      out_.launches = true;
      return true;
    }
    const FunctionDecl* callee = call->getDirectCallee();
    if (callee == nullptr) {
      out_.opaque = true;  // through a pointer
      return true;
    }
    if (const auto* method = dyn_cast<CXXMethodDecl>(callee); method != nullptr && method->isVirtual()) {
      const auto* member_call = dyn_cast<CXXMemberCallExpr>(call);
      const bool qualified = member_call != nullptr && isa<MemberExpr>(member_call->getCallee()) &&
                             cast<MemberExpr>(member_call->getCallee())->hasQualifier();
      if (!qualified && !method->hasAttr<FinalAttr>() && !method->getParent()->hasAttr<FinalAttr>()) {
        out_.opaque = true;
        return true;
      }
    }
    note_call(callee);
    return true;
  }

  // Inline PTX waits or steps aside as its instructions do (src/ptx/); PTX
  // cusim cannot parse is a compile error elsewhere, and here does all.
  bool VisitGCCAsmStmt(GCCAsmStmt* statement) {
    const cusim::detail::ptx::program program = cusim::detail::ptx::parse(statement->getAsmString()->getString().str());
    const cusim::detail::ptx::effects effects = cusim::detail::ptx::effects_of(program);
    out_.waits |= effects.waits || !program.error.empty();
    out_.spins |= effects.spins || !program.error.empty();
    return true;
  }

  bool VisitCXXConstructExpr(CXXConstructExpr* construct) {
    note_call(construct->getConstructor());
    return true;
  }

  bool VisitCXXBindTemporaryExpr(CXXBindTemporaryExpr* temporary) {
    if (const CXXDestructorDecl* destructor = temporary->getTemporary()->getDestructor()) note_call(destructor);
    return true;
  }

  bool VisitCXXDeleteExpr(CXXDeleteExpr* deletion) {
    if (const CXXRecordDecl* record = deletion->getDestroyedType()->getAsCXXRecordDecl()) {
      if (const CXXDestructorDecl* destructor = record->getDestructor()) {
        if (destructor->isVirtual()) out_.opaque = true;  // the dynamic type's destructor
        else note_call(destructor);
      }
    }
    return true;
  }

  bool VisitVarDecl(VarDecl* variable) {
    note_destruction(variable->getType());
    return true;
  }

  // A __shared__ variable counts for the kernels that use it: nvcc drops
  // one nothing names.
  bool VisitDeclRefExpr(DeclRefExpr* reference) {
    if (const auto* variable = dyn_cast<VarDecl>(reference->getDecl());
        variable != nullptr && variable->hasAttr<CUDASharedAttr>()) {
      note_shared(variable);
    }
    return true;
  }

 private:
  void note_shared(const VarDecl* variable) {
    const bool dynamic = variable->hasExternalStorage() || variable->getType()->isIncompleteArrayType();
    if (dynamic) out_.dynamic_shared = true;
    else out_.shared.push_back(variable);
  }

  void note_destruction(QualType type) {
    const CXXRecordDecl* record = context_.getBaseElementType(type)->getAsCXXRecordDecl();
    if (record == nullptr || !record->hasDefinition() || record->hasTrivialDestructor()) return;
    if (const CXXDestructorDecl* destructor = record->getDestructor()) note_call(destructor);
  }

  void note_call(const FunctionDecl* callee) {
    // clang knows __syncthreads as a builtin of the GPU side, and calls that
    // instead of cusim's definition.
    if (callee->getBuiltinID() != 0 && callee->getName() == "__syncthreads") {
      out_.waits = true;
      return;
    }
    for (const FunctionDecl* declaration : callee->redecls()) {
      for (const AnnotateAttr* mark : declaration->specific_attrs<AnnotateAttr>()) {
        const llvm::StringRef what = mark->getAnnotation();
        if (what == "cusim:waits") out_.waits = true;
        else if (what == "cusim:spins") out_.spins = true;
        else if (what == "cusim:launches") out_.launches = true;
        else if (what == "cusim:dynamic_shared") out_.dynamic_shared = true;
      }
    }
    const FunctionDecl* definition = nullptr;
    if (callee->hasBody(definition)) {
      out_.callees.push_back(definition);
      return;
    }
    // No body here: builtins, the C and C++ libraries and cusim's runtime
    // (whose waiting entry points are marked) do nothing the facts track;
    // anything else is code from another file.
    if (callee->getBuiltinID() != 0 || callee->isDefaulted() || callee->isImplicit()) return;
    // A __device__ function the user's code declares (a device library's
    // header, -isystem or not) is code from elsewhere; the C and C++
    // libraries' and cusim's functions are __host__ __device__ here only
    // implicitly.
    if (const auto* device = callee->getAttr<CUDADeviceAttr>(); device != nullptr && !device->isImplicit()) {
      out_.opaque = true;
      return;
    }
    if (!declared_in_library(sources_, callee->getLocation(), own_dirs_)) out_.opaque = true;
  }

  const ASTContext& context_;
  const SourceManager& sources_;
  const std::vector<std::string>& own_dirs_;
  local_facts& out_;
};

// Every kernel with a body, template instantiations included.
class kernel_finder : public RecursiveASTVisitor<kernel_finder> {
 public:
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool VisitFunctionDecl(FunctionDecl* function) {
    if (function->hasAttr<CUDAGlobalAttr>() && function->doesThisDeclarationHaveABody() &&
        !function->isDependentContext() && seen_.insert(function->getCanonicalDecl()).second) {
      kernels.push_back(function);
    }
    return true;
  }
  std::vector<const FunctionDecl*> kernels;

 private:
  std::set<const Decl*> seen_;
};

class facts_consumer : public SemaConsumer {
 public:
  // `sema`: where the preprocessor's callbacks find clang's Sema.
  facts_consumer(const std::vector<std::string>& own_dirs, facts_diagnostics& diagnostics, kernel_facts& out,
                 Sema*& sema)
      : own_dirs_(own_dirs), diagnostics_(diagnostics), out_(out), sema_(sema) {}

  void InitializeSema(Sema& sema) override { sema_ = &sema; }
  void ForgetSema() override { sema_ = nullptr; }

  void HandleTranslationUnit(ASTContext& context) override {
    diagnostics_.settle();
    if (diagnostics_.getNumErrors() > 0) return;
    kernel_finder finder;
    finder.TraverseDecl(context.getTranslationUnitDecl());
    const SourceManager& sources = context.getSourceManager();
    PrintingPolicy policy(context.getLangOpts());
    policy.SuppressUnwrittenScope = true;
    policy.SuppressTagKeyword = true;
    std::unique_ptr<MangleContext> mangler(context.createMangleContext());
    for (const FunctionDecl* kernel : finder.kernels) {
      if (declared_in_library(sources, kernel->getLocation(), own_dirs_)) continue;
      kernel_fact fact = facts_of(kernel, context);
      llvm::raw_string_ostream name(fact.name);
      kernel->getNameForDiagnostic(name, policy, /*Qualified=*/true);
      name.flush();
      if (kernel->getFormalLinkage() == ExternalLinkage) {
        llvm::raw_string_ostream symbol(fact.symbol);
        mangler->mangleName(GlobalDecl(kernel, KernelReferenceKind::Kernel), symbol);
        symbol.flush();
      } else {
        // Internal linkage (static, an unnamed namespace): no symbol another
        // object can reach, so by where it is defined, as the rewriter
        // registers non-template kernels.
        if (kernel->isTemplateInstantiation()) continue;
        const PresumedLoc at = sources.getPresumedLoc(kernel->getLocation());
        if (at.isInvalid()) continue;
        fact.site = fmt::format("{}:{}:{}", at.getFilename(), at.getLine(), kernel->getName().str());
      }
      out_.kernels.push_back(std::move(fact));
    }
    // A forgiven error may have cost the tree a use: then no marks at all.
    if (diagnostics_.forgiven().empty()) out_.marks = read_front_end_marks(context, own_dirs_);
    out_.parsed = true;
  }

 private:
  const local_facts& local_facts_of(const FunctionDecl* function, const ASTContext& context) {
    const SourceManager& sources = context.getSourceManager();
    auto [it, fresh] = local_.try_emplace(function);
    if (!fresh) return it->second;
    local_facts& local = it->second;
    body_reader(context, own_dirs_, local).read_function(function);
    // A forgiven error in its body: a call clang's tree is missing.
    const SourceRange range(sources.getExpansionLoc(function->getBeginLoc()), sources.getExpansionLoc(function->getEndLoc()));
    for (const SourceLocation error : diagnostics_.forgiven()) {
      if (!sources.isBeforeInTranslationUnit(error, range.getBegin()) &&
          !sources.isBeforeInTranslationUnit(range.getEnd(), error)) {
        local.opaque = true;
      }
    }
    // In the order they are declared, as nvcc lays them out.
    std::sort(local.shared.begin(), local.shared.end(), [&](const VarDecl* a, const VarDecl* b) {
      return sources.isBeforeInTranslationUnit(a->getLocation(), b->getLocation());
    });
    local.shared.erase(std::unique(local.shared.begin(), local.shared.end()), local.shared.end());
    return local;
  }

  // The union of what the kernel and everything it reaches do.
  kernel_fact facts_of(const FunctionDecl* kernel, const ASTContext& context) {
    kernel_fact fact;
    std::set<const FunctionDecl*> visited;
    std::set<const VarDecl*> counted;
    std::vector<const FunctionDecl*> pending{kernel};
    std::uint64_t offset = 0;
    while (!pending.empty()) {
      const FunctionDecl* function = pending.back();
      pending.pop_back();
      if (!visited.insert(function).second) continue;
      const local_facts& local = local_facts_of(function, context);
      fact.waits |= local.waits;
      fact.spins |= local.spins;
      fact.launches |= local.launches;
      fact.dynamic_shared |= local.dynamic_shared;
      fact.opaque_calls |= local.opaque;
      for (const VarDecl* variable : local.shared) {
        if (!counted.insert(variable).second || variable->getType()->isDependentType()) continue;
        // The type's alignment or the declaration's alignas/__align__ (not
        // the host ABI's extra alignment for large arrays).
        const std::uint64_t align =
            std::max<std::uint64_t>(context.getTypeAlignInChars(variable->getType()).getQuantity(),
                                    variable->getMaxAlignment() / context.getCharWidth());
        offset = (offset + align - 1) / align * align + context.getTypeSizeInChars(variable->getType()).getQuantity();
      }
      pending.insert(pending.end(), local.callees.rbegin(), local.callees.rend());
    }
    fact.static_shared_bytes = offset;
    if (fact.opaque_calls) fact.waits = fact.spins = fact.launches = fact.dynamic_shared = true;
    return fact;
  }

  const std::vector<std::string>& own_dirs_;
  facts_diagnostics& diagnostics_;
  kernel_facts& out_;
  Sema*& sema_;
  std::map<const FunctionDecl*, local_facts> local_;
};

// cusim's headers and the system's are parsed as __host__ __device__ (as
// clang's #pragma clang force_cuda_host_device would make them), so that
// device code may call their overloaded functions; the user's code keeps
// the qualifiers it wrote. The switch follows the file being read.
class host_device_headers : public PPCallbacks {
 public:
  host_device_headers(const SourceManager& sources, const std::vector<std::string>& own_dirs, Sema*& sema)
      : sources_(sources), own_dirs_(own_dirs), sema_(sema) {}

  void FileChanged(SourceLocation location, FileChangeReason reason, SrcMgr::CharacteristicKind kind,
                   FileID) override {
    if (reason != EnterFile && reason != ExitFile) return;
    if (sema_ == nullptr) return;
    const llvm::StringRef file = sources_.getFilename(location);
    // <new>'s allocation functions are declared by the compiler as host
    // functions first; clang's CUDA headers leave <new> host-only too.
    const bool library = library_file(file, kind, own_dirs_) && !file.endswith("/new");
    if (library == forced_) return;
    forced_ = library;
    if (library) sema_->PushForceCUDAHostDevice();
    else sema_->PopForceCUDAHostDevice();
  }

 private:
  const SourceManager& sources_;
  const std::vector<std::string>& own_dirs_;
  Sema*& sema_;
  bool forced_ = false;
};

// `__noinline__` in the user's code is CUDA's specifier, which clang 14
// does not know; libstdc++ writes __attribute__((__noinline__)), which a
// macro for it breaks (cusim's headers define none: cuda_runtime.h). So the
// macro is defined while the user's files are read, and not otherwise.
class noinline_in_user_code : public PPCallbacks {
 public:
  noinline_in_user_code(Preprocessor& preprocessor, const std::vector<std::string>& own_dirs)
      : preprocessor_(preprocessor), own_dirs_(own_dirs) {}

  void FileChanged(SourceLocation location, FileChangeReason reason, SrcMgr::CharacteristicKind kind,
                   FileID) override {
    if (reason != EnterFile && reason != ExitFile) return;
    const bool user = !library_file(preprocessor_.getSourceManager().getFilename(location), kind, own_dirs_);
    if (user == defined_) return;
    defined_ = user;
    IdentifierInfo* name = preprocessor_.getIdentifierInfo("__noinline__");
    if (!user) {
      preprocessor_.appendMacroDirective(name,
                                         new (preprocessor_.getPreprocessorAllocator()) UndefMacroDirective(location));
      return;
    }
    MacroInfo* macro = preprocessor_.AllocateMacroInfo(location);
    for (const auto& [kind_of_token, spelling] : {std::pair{tok::kw___attribute, "__attribute__"},
                                                  std::pair{tok::l_paren, "("}, std::pair{tok::l_paren, "("},
                                                  std::pair{tok::identifier, "noinline"}, std::pair{tok::r_paren, ")"},
                                                  std::pair{tok::r_paren, ")"}}) {
      Token token;
      token.startToken();
      token.setKind(kind_of_token);
      preprocessor_.CreateString(spelling, token);
      if (kind_of_token != tok::l_paren && kind_of_token != tok::r_paren) {
        token.setIdentifierInfo(preprocessor_.getIdentifierInfo(spelling));
      }
      macro->AddTokenToBody(token);
    }
    preprocessor_.appendDefMacroDirective(name, macro, location);
  }

 private:
  Preprocessor& preprocessor_;
  const std::vector<std::string>& own_dirs_;
  bool defined_ = false;
};

class facts_action : public ASTFrontendAction {
 public:
  facts_action(const std::vector<std::string>& own_dirs, bool noinline_macro, facts_diagnostics& diagnostics,
               kernel_facts& out)
      : own_dirs_(own_dirs), noinline_macro_(noinline_macro), diagnostics_(diagnostics), out_(out) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance& compiler, llvm::StringRef) override {
    compiler.getPreprocessor().addPPCallbacks(
        std::make_unique<host_device_headers>(compiler.getSourceManager(), own_dirs_, sema_));
    if (noinline_macro_) {
      compiler.getPreprocessor().addPPCallbacks(
          std::make_unique<noinline_in_user_code>(compiler.getPreprocessor(), own_dirs_));
    }
    return std::make_unique<facts_consumer>(own_dirs_, diagnostics_, out_, sema_);
  }

 private:
  const std::vector<std::string>& own_dirs_;
  bool noinline_macro_;
  facts_diagnostics& diagnostics_;
  kernel_facts& out_;
  Sema* sema_ = nullptr;
};

}  // namespace

namespace {

// One parse; `noinline_macro`: with CUDA's __noinline__ specifier defined in
// the user's files (noinline_in_user_code).
// A file as clang reads it, after facts_source_fixes: its length is the
// file's, so the real file's status stands.
class fixed_file : public llvm::vfs::File {
 public:
  fixed_file(std::unique_ptr<llvm::vfs::File> real, std::unique_ptr<llvm::MemoryBuffer> contents)
      : real_(std::move(real)), contents_(std::move(contents)) {}
  llvm::ErrorOr<llvm::vfs::Status> status() override { return real_->status(); }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine&, int64_t, bool, bool) override {
    if (contents_ == nullptr) return std::make_error_code(std::errc::io_error);  // read once, as FileManager does
    return std::move(contents_);
  }
  std::error_code close() override { return real_->close(); }

 private:
  std::unique_ptr<llvm::vfs::File> real_;
  std::unique_ptr<llvm::MemoryBuffer> contents_;
};

// The real file system, with facts_source_fixes applied to what is read.
class fixing_file_system : public llvm::vfs::ProxyFileSystem {
 public:
  fixing_file_system() : ProxyFileSystem(llvm::vfs::getRealFileSystem()) {}
  llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine& path) override {
    auto file = ProxyFileSystem::openFileForRead(path);
    if (!file) return file;
    auto contents = (*file)->getBuffer(path);
    if (!contents) return contents.getError();
    std::string fixed = facts_source_fixes((*contents)->getBuffer());
    if (!fixed.empty()) *contents = llvm::MemoryBuffer::getMemBufferCopy(fixed, (*contents)->getBufferIdentifier());
    return std::unique_ptr<llvm::vfs::File>(std::make_unique<fixed_file>(std::move(*file), std::move(*contents)));
  }
};

kernel_facts parse_for_facts(const std::string& source, const std::vector<std::string>& arguments,
                             const std::vector<std::string>& own_header_dirs, bool noinline_macro) {
  kernel_facts facts;
  const std::string resources = CUSIM_CC_CLANG_RESOURCE_DIR;
  std::vector<std::string> command{"clang++", "-fsyntax-only", "-x", "cuda", "--cuda-host-only", "-nocudainc",
                                   "-nocudalib",
                                   // Not clang's CUDA wrappers of <new>, <cmath>...: cusim's headers are the CUDA ones.
                                   "-nobuiltininc", "-isystem", resources + "/include", "-resource-dir", resources,
                                   "-Xclang", "-fcuda-allow-variadic-functions", "-Wno-unknown-cuda-version",
                                   "-fno-caret-diagnostics"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  command.insert(command.end(), {"-D__CUSIM_KERNEL_FACTS__=1", source});
  // clang's guard against deep recursion measures from here.
  noteBottomOfStack();
  llvm::IntrusiveRefCntPtr<FileManager> files(
      new FileManager(FileSystemOptions(), llvm::makeIntrusiveRefCnt<fixing_file_system>()));
  facts_diagnostics errors(own_header_dirs);
  tooling::ToolInvocation invocation(
      command, std::make_unique<facts_action>(own_header_dirs, noinline_macro, errors, facts), files.get());
  invocation.setDiagnosticConsumer(&errors);
  // A crash in clang costs the facts, not the build.
  llvm::CrashRecoveryContext::Enable();
  llvm::CrashRecoveryContext recovery;
  bool ran = false;
  if (!recovery.RunSafely([&] { ran = invocation.run(); })) {
    facts = kernel_facts{};
    facts.first_error = "clang crashed";
    return facts;
  }
  errors.settle();
  if (!ran || errors.getNumErrors() > 0) {
    facts.parsed = false;
    facts.kernels.clear();
    facts.marks = {};
    facts.first_error = errors.first_error();
    facts.user_errors = errors.user_errors();
  }
  return facts;
}

}  // namespace

kernel_facts read_kernel_facts(const std::string& source, const std::vector<std::string>& arguments,
                               const std::vector<std::string>& own_header_dirs) {
  kernel_facts facts = parse_for_facts(source, arguments, own_header_dirs, /*noinline_macro=*/true);
  // The user's code may also write GCC's __attribute__((__noinline__)),
  // which the macro breaks: then once more without it.
  if (!facts.parsed && facts.first_error.find("noinline") != std::string::npos) {
    kernel_facts again = parse_for_facts(source, arguments, own_header_dirs, /*noinline_macro=*/false);
    if (again.parsed) return again;
  }
  return facts;
}

}  // namespace cusim::cc
