#include "options.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "settings.hpp"

namespace cusim::cc {

namespace {

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "cusim-cc: " << message << "\n(cusim-cc --help lists what it accepts)\n";
  throw command_line_exit{2};
}

void print_help() {
  std::cout << R"(NAME
    cusim-cc - build CUDA programs for the CPU, with nvcc's command line

SYNOPSIS
    cusim-cc [options] file.cu|file.cpp|file.c|file.o|file.a|file.so ...

DESCRIPTION
    Builds CUDA programs for the CPU with cusim. Each .cu file is
    preprocessed by the host compiler with cusim's CUDA headers first on
    the include path, cuda_runtime.h included first and nvcc's macros
    defined; what C++ cannot parse (k<<<grid, block>>>(args), __shared__,
    __constant__, malloc and new in device code) is rewritten; the result
    is compiled, and the objects are linked with libcusim. .cpp, .cc and
    .cxx files are compiled as C++, .c files as C, and .o, .obj, .a and
    .so files linked as they are. Errors, warnings and gdb name the .cu
    file's lines.

    Accepts nvcc's options, short or long (-c or --compile), with values
    written -I dir, -Idir or -I=dir. Any other option is an error that
    names it.

OPTIONS
  What to make
    -o FILE, --output-file FILE
        The output: a.out by default (a.a with -lib). -c, -E and -M make
        one output per input, so with -o they take one input only.
    -c, --compile
        Compile each input to an object, NAME.o in the current directory
        (or -o), and do not link.
    -dc, --device-c
        As -c, with relocatable device code (defines __CUDACC_RDC__).
    -E, --preprocess
        Preprocess only: print the rewritten C++ of a .cu file (to -o if
        given).
    -lib, --lib
        Make a static library of the inputs.
    -shared, --shared
        Make a shared library (compiled with -fPIC).
    -x cu, --x cu
        Treat every input as CUDA, whatever its suffix.

  Preprocessor, compiler and linker
    -I DIR, --include-path DIR      -isystem DIR, --system-include DIR
    -include FILE, --pre-include FILE
    -D NAME[=V], --define-macro     -U NAME, --undefine-macro
    -L DIR, --library-path DIR      -l LIB, --library LIB
        Passed to the host compiler or the linker.
    -std=c++NN, --std c++NN
        C++20 or later is kept; c++03 to c++17 are raised to c++20, which
        cusim's headers need (-v says so). Default: c++20.
    -O0, -O1, -O2, -O3, -Os, --optimize N
        The optimisation level.
    -g, --debug; -G, --device-debug (as -g)
    -lineinfo, --generate-line-info
        Line tables only (the host compiler's -g1): fault, race and memory
        reports name file.cu:line, as compute-sanitizer's do under nvcc.
    -dlink, --device-link
        The device-link step of separable compilation: an empty object, as
        device code is linked with the host code.
    -forward-unknown-to-host-compiler, --options-file FILE
        As nvcc: unknown options go to the host compiler; more options are
        read from FILE.
    -w, --disable-warnings; -W...; -fPIC; -pthread
        Passed to the host compiler.
    -Xcompiler A,B, --compiler-options A,B
        Host compiler options, for compiling and linking (as nvcc).
    -Xlinker A,B, --linker-options A,B
        Linker options (passed as -Wl,A -Wl,B).
    -ccbin COMPILER, --compiler-bindir COMPILER
        The host C++ compiler (over CUSIM_CXX).
    -M, -MM, -MD, -MMD, -MF FILE, -MT TARGET, -MP
        Make-style dependency rules, as gcc writes them; the target is
        the object asked for. -M and -MM print them instead of compiling.

  The modelled GPU
    -arch=sm_XX, --gpu-architecture=sm_XX (or compute_XX)
        The device profile the program models by default (CUSIM_DEVICE
        overrides it when it runs): sm_75, sm_80, sm_86, sm_89 or sm_90.
        -arch=native, all or all-major keep the default, sm_90.
    --default-stream legacy|null|per-thread
        per-thread: the NULL stream is each host thread's own (defines
        CUDA_API_PER_THREAD_DEFAULT_STREAM); legacy and null change nothing.
    -rdc=true|false, --relocatable-device-code
    --extended-lambda (--expt-extended-lambda)
    --expt-relaxed-constexpr
        Accepted: define nvcc's macros for them.

  Checking builds
    --check=race
        Build with ThreadSanitizer: data races between CUDA threads are
        reported with both threads' coordinates and source lines.
    --check=memory
        Build with AddressSanitizer: out-of-bounds accesses to global,
        shared, local and device-heap memory and use after free are
        reported with the CUDA thread and line.
    --check=init
        Report each kernel read of device memory that nothing has written
        (compute-sanitizer's initcheck), with the CUDA thread and line; the
        exit status is then 66.
    --check=banks
        Count shared-memory bank conflicts and global-memory sectors per
        warp request; at exit, a table by source line.
    --warp-mode=its|lockstep
        lockstep: the threads of a block advance one memory access at a
        time together, and diverged lanes of a warp run one path at a
        time, as a pre-Volta warp's lanes did (compiled unoptimised; a
        lane that waits CUSIM_WATCHDOG seconds for its warp ends the grid).
        its, the default: independent thread scheduling. Not with --check.

  Accepted, with nothing to do on the CPU (-v says so)
    -gencode ARG, -code ARG, -Xptxas ARG, -Xnvlink ARG, -maxrregcount N,
    -t N, --threads N, -m N, -ftz=B, -prec-div=B, -prec-sqrt=B, -fmad=B,
    -diag-suppress ARG, -keep-dir DIR, -Werror KIND,
    -res-usage, -m64, --use_fast_math, --extra-device-vectorization,
    --restrict, --display-error-number, -Wno-deprecated-gpu-targets,
    -lcudart, -lcudart_static, -lcudadevrt, -lcuda

  The driver itself
    -v, --verbose       Print each command before running it.
    -dryrun, --dryrun   Print the commands without running them.
    -keep, --keep       Keep the intermediate files (and say where).
    -V, --version       Print the version and exit.
    -h, -help, --help   Print this help and exit.

MACROS
    For .cu files: __CUDACC__, __NVCC__, __CUDACC_VER_MAJOR__/MINOR/BUILD,
    __CUDA_ARCH_LIST__ (the profile: 900, or 800 under -arch=sm_80),
    __CUDACC_RDC__, __CUDACC_EXTENDED_LAMBDA__ and
    __CUDACC_RELAXED_CONSTEXPR__ under their options, __CUSIM__ and
    __CUSIM_CC__. __CUDA_ARCH__ (900, or 800 under -arch=sm_80) as nvcc's
    two passes set it: device functions and kernels see it, host code does
    not, and a __host__ __device__ function sees it when a kernel calls it
    (docs/cusim-cc.md).

ENVIRONMENT
    CUSIM_CXX   the host C++ compiler, for .cu and C++ files and the link
                (default: the one cusim was built with; -ccbin wins)
    CUSIM_CC    the C compiler for .c files (default: cusim's)
    The programs it builds read CUSIM_DEVICE, CUSIM_WORKERS,
    CUSIM_SCHEDULE, CUSIM_REPORT, CUSIM_CHECKS and more when they run:
    docs/runtime-options.md lists them.

EXIT STATUS
    0    everything was built
    1    an input is missing, or a .cu construct cannot be rewritten
    2    a bad command line, or a mode this cusim was built without
    N    the exit status of the compiler, linker or ar that failed
         (127: it could not be run; 128+S: killed by signal S)

EXAMPLES
    cusim-cc -O2 -arch=sm_80 main.cu kernels.cu util.cpp -o app
    cusim-cc -c kernels.cu -o kernels.o -MD      # compile, write kernels.d
    cusim-cc -lib kernels.o -o libkernels.a      # a static library
    cusim-cc -E kernels.cu                       # show the rewritten C++
    cusim-cc --check=race prog.cu -o prog && ./prog
    make NVCC=cusim-cc                           # a Makefile using $(NVCC)

SEE ALSO
    cusim-explore --help, cusim-diff --help; docs/cusim-cc.md (options,
    macros, CMake and Make), docs/debugging.md (--check, --warp-mode),
    docs/observability.md (--check=banks, CUSIM_REPORT),
    docs/runtime-options.md, docs/ci.md
)";
}

// nvcc's long option names, as the short ones they stand for.
const std::map<std::string, std::string>& long_forms() {
  static const std::map<std::string, std::string> forms{
      {"--output-file", "-o"},
      {"--compile", "-c"},
      {"--device-c", "-dc"},
      {"--device-link", "-dlink"},
      {"--preprocess", "-E"},
      {"--include-path", "-I"},
      {"--system-include", "-isystem"},
      {"--pre-include", "-include"},
      {"--define-macro", "-D"},
      {"--undefine-macro", "-U"},
      {"--library-path", "-L"},
      {"--library", "-l"},
      {"--debug", "-g"},
      {"--device-debug", "-G"},
      {"--generate-line-info", "-lineinfo"},
      {"--optimize", "-O"},
      {"--linker-options", "-Xlinker"},
      {"--compiler-options", "-Xcompiler"},
      {"--compiler-bindir", "-ccbin"},
      {"--gpu-architecture", "-arch"},
      {"--gpu-code", "-code"},
      {"--generate-code", "-gencode"},
      {"--relocatable-device-code", "-rdc"},
      {"--generate-dependencies", "-M"},
      {"--generate-nonsystem-dependencies", "-MM"},
      {"--generate-dependencies-with-compile", "-MD"},
      {"--generate-nonsystem-dependencies-with-compile", "-MMD"},
      {"--dependency-output", "-MF"},
      {"--dependency-target-name", "-MT"},
      {"--generate-dependency-targets", "-MP"},
      {"--lib", "-lib"},
      {"--shared", "-shared"},
      {"--verbose", "-v"},
      {"--keep", "-keep"},
      {"--keep-dir", "-keep-dir"},
      {"--options-file", "-optf"},
      {"--forward-unknown-to-host-compiler", "-forward-unknown-to-host-compiler"},
      {"--dryrun", "-dryrun"},
      {"--disable-warnings", "-w"},
      {"--ptxas-options", "-Xptxas"},
      {"--nvlink-options", "-Xnvlink"},
      {"--maxrregcount", "-maxrregcount"},
      {"--resource-usage", "-res-usage"},
      {"--threads", "-t"},
      {"--machine", "-m"},
      {"--x", "-x"},
      {"--std", "-std"},
      {"--expt-extended-lambda", "--extended-lambda"},
      {"-expt-extended-lambda", "--extended-lambda"},
      {"-extended-lambda", "--extended-lambda"},
      {"-expt-relaxed-constexpr", "--expt-relaxed-constexpr"},
      {"-use_fast_math", "--use_fast_math"},
      {"-default-stream", "--default-stream"},
  };
  return forms;
}

// "--optimize=3" -> "-O=3", "--compile" -> "-c"; anything else unchanged.
std::string short_form(const std::string& a) {
  const std::size_t eq = a.find('=');
  const std::string name = a.substr(0, eq);
  const auto it = long_forms().find(name);
  if (it == long_forms().end()) return a;
  return it->second + (eq == std::string::npos ? "" : a.substr(eq));
}

bool starts(const std::string& a, const char* prefix) { return a.rfind(prefix, 0) == 0; }

// Reads options one by one. `value_of` takes the value of an option written
// as "-Ifoo", "-I foo", "-I=foo" (nvcc accepts all three).
class parser {
 public:
  explicit parser(std::vector<std::string> args) : args_(std::move(args)) {}

  options run() {
    // Wherever it stands, as for nvcc: it decides how the options before it read.
    o_.forward_unknown = std::any_of(args_.begin(), args_.end(), [](const std::string& a) {
      return short_form(a) == "-forward-unknown-to-host-compiler";
    });
    for (i_ = 0; i_ < args_.size(); ++i_) read(short_form(args_[i_]));
    if (o_.inputs.empty()) usage_error("no input files");
    if (o_.lockstep && o_.check != check_kind::none) {
      usage_error("--warp-mode=lockstep and --check instrument the program each their own way: use one at a time");
    }
    const bool one_output_per_input = o_.compile_only || o_.preprocess_only || o_.dependencies == dependency_mode::only;
    if (one_output_per_input && !o_.output.empty() && o_.inputs.size() > 1) {
      usage_error("-o names one output file, but -c, -E and -M make one per input (" +
                  std::to_string(o_.inputs.size()) + " inputs given)");
    }
    return std::move(o_);
  }

 private:
  std::string value_of(const std::string& a, const std::string& flag) {
    if (a.size() > flag.size()) return a[flag.size()] == '=' ? a.substr(flag.size() + 1) : a.substr(flag.size());
    if (i_ + 1 >= args_.size()) usage_error("option " + flag + " needs a value");
    return args_[++i_];
  }
  // Options that are exactly `flag`, or `flag=value` / `flag value`.
  bool is(const std::string& a, const char* flag) const { return a == flag || starts(a, (std::string(flag) + "=").c_str()); }

  void ignore(const std::string& what) { notice(o_, what + " has no effect on the CPU"); }

  void read(const std::string& a) {
    if (a == "--help" || a == "-h" || a == "-help") {
      print_help();
      throw command_line_exit{0};
    } else if (a == "--version" || a == "-V") {
      // The second and third lines are nvcc's, which build systems read to
      // recognise nvcc and its version (CMake's CUDA language).
      std::cout << "cusim-cc " CUSIM_CC_VERSION " (CUDA " CUSIM_CC_CUDA_VERSION " runtime API on the CPU)\n"
                << "nvcc: NVIDIA (R) Cuda compiler driver interface, as cusim-cc provides it\n"
                << "Cuda compilation tools, release " CUSIM_CC_CUDA_VERSION ", V" CUSIM_CC_CUDA_VERSION "."
                << CUSIM_CC_CUDA_VERSION_BUILD << "\n";
      throw command_line_exit{0};
    } else if (is(a, "-o")) {
      o_.output = value_of(a, "-o");
    } else if (a == "-c") {
      o_.compile_only = true;
    } else if (a == "-dc") {
      o_.compile_only = o_.relocatable_device_code = true;
    } else if (a == "-E") {
      o_.preprocess_only = true;
    } else if (a == "-lib") {
      o_.make_static_library = true;
    } else if (a == "-shared") {
      o_.make_shared_library = true;
    } else if (a == "-v") {
      o_.verbose = true;
    } else if (a == "-dryrun") {
      o_.dry_run = o_.verbose = true;
    } else if (a == "-keep" || a == "--keep") {
      o_.keep = true;
    } else if (read_dependency_option(a)) {
    } else if (is(a, "-arch")) {
      read_architecture(value_of(a, "-arch"));
    } else if (is(a, "-gencode") || is(a, "-code") || is(a, "-Xptxas") || is(a, "-Xnvlink") || is(a, "-maxrregcount") ||
               is(a, "-t") || is(a, "-ftz") || is(a, "-prec-div") ||
               is(a, "-prec-sqrt") || is(a, "-fmad") || is(a, "-m") || is(a, "-diag-suppress") ||
               is(a, "--diag-suppress") || is(a, "-keep-dir") || is(a, "-Werror")) {
      const std::string flag = a.substr(0, a.find('='));
      ignore(flag + " " + value_of(a, flag));
    } else if (is(a, "--check")) {
      const std::string v = value_of(a, "--check");
      if (v == "race") o_.check = check_kind::race;
      else if (v == "memory") o_.check = check_kind::memory;
      else if (v == "banks") o_.check = check_kind::banks;
      else if (v == "init") o_.check = check_kind::init;
      else usage_error("--check " + v + ": the checks are race, memory, init and banks");
    } else if (is(a, "--warp-mode")) {
      const std::string v = value_of(a, "--warp-mode");
      if (v != "lockstep" && v != "its") usage_error("--warp-mode " + v + ": the warp modes are its and lockstep");
      o_.lockstep = v == "lockstep";
    } else if (is(a, "--default-stream")) {
      // nvcc's per-thread default stream is a macro the runtime header reads.
      const std::string v = value_of(a, "--default-stream");
      if (v != "legacy" && v != "per-thread" && v != "null") {
        usage_error("--default-stream " + v + ": the default stream is one of legacy, null, per-thread");
      }
      if (v == "per-thread") o_.preprocessor_flags.push_back("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1");
    } else if (is(a, "-rdc")) {
      const std::string v = value_of(a, "-rdc");
      o_.relocatable_device_code = v == "true";
      ignore("-rdc=" + v);
    } else if (a == "--extended-lambda") {
      o_.extended_lambda = true;
    } else if (a == "--expt-relaxed-constexpr") {
      o_.relaxed_constexpr = true;
    } else if (a == "-dlink") {
      o_.device_link = true;
    } else if (a == "-forward-unknown-to-host-compiler") {
      o_.forward_unknown = true;
    } else if (is(a, "-optf")) {
      read_options_file(value_of(a, "-optf"));
    } else if (a == "-lineinfo") {
      o_.line_info = true;
    } else if (a == "--use_fast_math" || a == "-res-usage" || a == "-m64" ||
               a == "--extra-device-vectorization" || a == "--restrict" || a == "--display-error-number" ||
               a == "-Wno-deprecated-gpu-targets") {
      ignore(a);
    } else if (is(a, "-isystem") || is(a, "-include") || is(a, "-ccbin")) {
      const std::string flag = a.substr(0, a.find('='));
      const std::string value = value_of(a, flag);
      if (flag == "-ccbin") o_.host_compiler = value;
      else o_.preprocessor_flags.insert(o_.preprocessor_flags.end(), {flag, value});
    } else if (starts(a, "-I") || starts(a, "-D") || starts(a, "-U")) {
      const std::string flag = a.substr(0, 2);
      o_.preprocessor_flags.push_back(flag + value_of(a, flag));
    } else if (starts(a, "-L")) {
      o_.link_flags.push_back("-L" + value_of(a, "-L"));
    } else if (a == "-lcudart" || a == "-lcudadevrt" || a == "-lcuda" || a == "-lcudart_static") {
      notice(o_, a + " is provided by libcusim");
    } else if (starts(a, "-l")) {
      o_.link_flags.push_back("-l" + value_of(a, "-l"));
    } else if (is(a, "-std") || starts(a, "--std=")) {
      read_standard(value_of(a, starts(a, "--") ? "--std" : "-std"));
    } else if (starts(a, "-O")) {
      const std::string level = value_of(a, "-O");
      if (level.size() != 1 || std::string("0123s").find(level) == std::string::npos) {
        usage_error("-O" + level + ": the optimisation level is one of 0, 1, 2, 3");
      }
      o_.compile_flags.push_back("-O" + level);
    } else if (a == "-g" || a == "-G" || a == "-w" || a == "-fPIC" || a == "-pthread") {
      o_.compile_flags.push_back(a == "-G" ? "-g" : a);
    } else if (starts(a, "-W")) {
      o_.compile_flags.push_back(a);
    } else if (is(a, "-x")) {
      const std::string lang = value_of(a, "-x");
      if (lang != "cu") usage_error("-x " + lang + ": only -x cu is supported (other inputs are read by their suffix)");
      o_.treat_as_cu = true;
    } else if (is(a, "-Xcompiler")) {
      for (auto& part : split(value_of(a, "-Xcompiler"), ',')) {
        o_.compile_flags.push_back(part);
        o_.host_compiler_options.push_back(part);
      }
    } else if (is(a, "-Xlinker")) {
      for (auto& part : split(value_of(a, "-Xlinker"), ',')) o_.link_flags.push_back("-Wl," + part);
    } else if (!a.empty() && a[0] == '-' && o_.forward_unknown) {
      notice(o_, a + " goes to the host compiler (-forward-unknown-to-host-compiler)");
      o_.compile_flags.push_back(a);
      o_.link_flags.push_back(a);
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option '" + a + "'");
    } else {
      o_.inputs.push_back(a);
    }
  }

  // --options-file FILE: more options, separated by white space, quoted
  // with "..." where they hold it; read in place of the option.
  void read_options_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) usage_error("--options-file " + path + ": cannot read it");
    std::vector<std::string> words;
    std::string word;
    bool quoted = false, any = false;
    for (char c; in.get(c);) {
      if (c == '"') {
        quoted = !quoted;
        any = true;
      } else if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
        if (any) words.push_back(word);
        word.clear();
        any = false;
      } else {
        word += c;
        any = true;
      }
    }
    if (any) words.push_back(word);
    args_.insert(args_.begin() + static_cast<std::ptrdiff_t>(i_) + 1, words.begin(), words.end());
  }

  bool read_dependency_option(const std::string& a) {
    if (a == "-M" || a == "-MM") {
      o_.dependencies = dependency_mode::only;
      o_.dependencies_include_system = a == "-M";
    } else if (a == "-MD" || a == "-MMD") {
      o_.dependencies = dependency_mode::with_compile;
      o_.dependencies_include_system = a == "-MD";
    } else if (a == "-MP") {
      o_.dependency_phony_targets = true;
    } else if (is(a, "-MF") || (starts(a, "-MF") && a.size() > 3)) {
      o_.dependency_file = value_of(a, "-MF");
    } else if (is(a, "-MT") || (starts(a, "-MT") && a.size() > 3)) {
      o_.dependency_targets.push_back(value_of(a, "-MT"));
    } else {
      return false;
    }
    return true;
  }

  void read_standard(const std::string& v) {
    // cusim's headers need C++20; older standards are raised to it.
    if (v == "c++20" || v == "c++23" || v == "c++2a" || v == "c++2b" || v == "gnu++20" || v == "gnu++23") {
      o_.std_flag = "-std=" + v;
      o_.source_cplusplus = 202002L;
    } else if (v == "c++03" || v == "c++11" || v == "c++14" || v == "c++17" || v == "gnu++14" || v == "gnu++17") {
      notice(o_, "-std=" + v + " raised to c++20, which cusim's headers need");
      o_.source_cplusplus = v.ends_with("17") ? 201703L : v.ends_with("14") ? 201402L : 201103L;
    } else {
      usage_error("-std=" + v + ": not a C++ standard nvcc accepts (c++11, c++14, c++17, c++20)");
    }
  }

  void read_architecture(const std::string& v) {
    const auto sm = v.find("sm_") != std::string::npos ? v.find("sm_") : v.find("compute_");
    if (sm == std::string::npos) {
      // -arch=native / all / all-major: there is no GPU to ask; keep the default profile.
      notice(o_, "-arch=" + v + " keeps the default profile (CUSIM_DEVICE, else sm_90)");
      return;
    }
    std::string digits = v.substr(v.find('_', sm) + 1);
    while (!digits.empty() && !std::isdigit(static_cast<unsigned char>(digits.back()))) digits.pop_back();  // sm_90a
    o_.arch = digits;
    notice(o_, "-arch=" + v + " selects profile sm_" + digits);
  }

  std::vector<std::string> args_;
  std::size_t i_ = 0;
  options o_;
};

}  // namespace

std::vector<std::string> split(const std::string& s, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, separator);) {
    if (!part.empty()) parts.push_back(part);
  }
  return parts;
}

void notice(const options& o, const std::string& what) {
  if (o.verbose) std::cerr << "cusim-cc: " << what << "\n";
}

namespace {
// nvcc's NVCC_PREPEND_FLAGS and NVCC_APPEND_FLAGS: options read before and
// after the command line's, split at white space (no quoting, as nvcc's).
// They reach builds a user cannot edit: a project's CMake files, a script.
std::vector<std::string> environment_options(const char* name) {
  std::vector<std::string> words;
  const char* value = std::getenv(name);
  if (value == nullptr) return words;
  std::istringstream in(value);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}
}  // namespace

options parse_command_line(int argc, char** argv) {
  std::vector<std::string> args = environment_options("NVCC_PREPEND_FLAGS");
  args.insert(args.end(), argv + 1, argv + argc);
  const std::vector<std::string> appended = environment_options("NVCC_APPEND_FLAGS");
  args.insert(args.end(), appended.begin(), appended.end());
  return parser(std::move(args)).run();
}

}  // namespace cusim::cc
