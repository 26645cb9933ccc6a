// cusim-cc: an nvcc-compatible driver that builds .cu files for the CPU.
// Each .cu input is preprocessed by the host compiler with cusim's CUDA
// headers first on the include path, rewritten (see rewrite.hpp) and
// compiled; the objects are linked with libcusim.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "rewrite.hpp"
#include "settings.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

struct options {
  std::vector<std::string> inputs;
  std::string output;
  bool compile_only = false;
  bool preprocess_only = false;
  bool verbose = false;
  bool keep = false;
  bool treat_as_cu = false;
  std::string std_flag = "-std=c++20";
  std::string arch;  // "80" from -arch=sm_80
  std::vector<std::string> compile_flags;  // -I -D -U -O -g, host compiler options
  std::vector<std::string> link_flags;     // -L -l -Xlinker
};

[[noreturn]] void usage_error(const std::string& message) {
  std::cerr << "cusim-cc: " << message << "\n(cusim-cc --help lists what it accepts)\n";
  std::exit(2);
}

void print_help() {
  std::cout << R"(usage: cusim-cc [options] file.cu|file.cpp|file.o|file.a ...
Builds CUDA programs for the CPU with cusim. Accepts nvcc's common options:
  -o FILE  -c  -dc  -E  -I DIR  -D NAME[=V]  -U NAME  -L DIR  -l LIB  -std=c++NN  -O0..3  -g  -G
  -arch=sm_XX | --gpu-architecture=sm_XX   (selects the program's default device profile)
  -gencode ..., -lineinfo, -rdc=true, --expt-relaxed-constexpr, --extended-lambda, -lcudart,
  -lcudadevrt, -x cu, -w   (accepted; GPU-only, nothing to do on the CPU)
  -Xcompiler A,B | --compiler-options A,B   host compiler options
  -Xlinker A                                linker option
  -v  --keep  --version  --help
Environment: CUSIM_CXX picks the host compiler (default: the one cusim was built with).
)";
}

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

options parse(int argc, char** argv) {
  options o;
  std::vector<std::string> args(argv + 1, argv + argc);
  auto value_of = [&](std::size_t& i, const std::string& flag) -> std::string {
    const std::string& a = args[i];
    if (a.size() > flag.size()) return a[flag.size()] == '=' ? a.substr(flag.size() + 1) : a.substr(flag.size());
    if (i + 1 >= args.size()) usage_error("option " + flag + " needs a value");
    return args[++i];
  };
  auto starts = [](const std::string& a, const char* prefix) { return a.rfind(prefix, 0) == 0; };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--help" || a == "-h") {
      print_help();
      std::exit(0);
    } else if (a == "--version" || a == "-V") {
      std::cout << "cusim-cc " CUSIM_CC_VERSION " (CUDA " CUSIM_CC_CUDA_VERSION " runtime API on the CPU)\n";
      std::exit(0);
    } else if (a == "-o") {
      o.output = value_of(i, "-o");
    } else if (a == "-c" || a == "-dc") {
      o.compile_only = true;
    } else if (a == "-E") {
      o.preprocess_only = true;
    } else if (a == "-v") {
      o.verbose = true;
    } else if (a == "--keep" || a == "-keep") {
      o.keep = true;
    } else if (starts(a, "-I") || starts(a, "-D") || starts(a, "-U")) {
      const std::string flag = a.substr(0, 2);
      o.compile_flags.push_back(flag + value_of(i, flag));
    } else if (a == "-isystem") {
      o.compile_flags.push_back("-isystem");
      o.compile_flags.push_back(value_of(i, "-isystem"));
    } else if (starts(a, "-L")) {
      o.link_flags.push_back("-L" + value_of(i, "-L"));
    } else if (a == "-lcudart" || a == "-lcudadevrt" || a == "-lcuda") {
      notice(o, a + " is provided by libcusim");
    } else if (starts(a, "-l")) {
      o.link_flags.push_back("-l" + value_of(i, "-l"));
    } else if (starts(a, "-std=") || starts(a, "--std=")) {
      const std::string v = a.substr(a.find('=') + 1);
      // cusim's headers need C++20; older standards are raised to it.
      if (v == "c++20" || v == "c++23" || v == "c++2a" || v == "c++2b") o.std_flag = "-std=" + v;
      else notice(o, "-std=" + v + " raised to c++20, which cusim's headers need");
    } else if (a == "-O0" || a == "-O1" || a == "-O2" || a == "-O3" || a == "-Os" || a == "-g" || a == "-w" ||
               starts(a, "-W") || a == "-fPIC" || a == "-pthread") {
      o.compile_flags.push_back(a);
    } else if (a == "-G") {
      o.compile_flags.push_back("-g");
    } else if (starts(a, "-arch") || starts(a, "--gpu-architecture") || starts(a, "-gencode") ||
               starts(a, "--generate-code") || starts(a, "-code")) {
      const std::string flag = starts(a, "-arch") ? "-arch"
                               : starts(a, "--gpu-architecture") ? "--gpu-architecture"
                               : starts(a, "-gencode") ? "-gencode"
                               : starts(a, "--generate-code") ? "--generate-code" : "-code";
      const std::string v = value_of(i, flag);
      const auto sm = v.find("sm_");
      if ((flag == "-arch" || flag == "--gpu-architecture") && sm != std::string::npos) o.arch = v.substr(sm + 3);
      notice(o, flag + " " + v + (o.arch.empty() ? " ignored" : " selects profile sm_" + o.arch));
    } else if (a == "-lineinfo" || starts(a, "-rdc") || starts(a, "--relocatable-device-code") ||
               a == "--expt-relaxed-constexpr" || a == "--extended-lambda" || a == "--expt-extended-lambda" ||
               a == "-dlink" || starts(a, "--default-stream") || starts(a, "-maxrregcount") || a == "--use_fast_math" ||
               a == "-use_fast_math") {
      notice(o, a + " has no effect on the CPU");
    } else if (a == "-x") {
      const std::string lang = value_of(i, "-x");
      if (lang != "cu") usage_error("-x " + lang + ": only -x cu is supported");
      o.treat_as_cu = true;
    } else if (a == "-Xcompiler" || a == "--compiler-options" || starts(a, "-Xcompiler=") ||
               starts(a, "--compiler-options=")) {
      const std::string flag = a[1] == 'X' ? "-Xcompiler" : "--compiler-options";
      for (auto& part : split(value_of(i, flag), ',')) o.compile_flags.push_back(part);
    } else if (a == "-Xlinker" || starts(a, "-Xlinker=")) {
      o.link_flags.push_back("-Wl," + value_of(i, "-Xlinker"));
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option '" + a + "'");
    } else {
      o.inputs.push_back(a);
    }
  }
  if (o.inputs.empty()) usage_error("no input files");
  return o;
}

std::string host_compiler() {
  const char* cxx = std::getenv("CUSIM_CXX");
  return cxx != nullptr && *cxx != '\0' ? cxx : CUSIM_CC_HOST_CXX;
}

int run(const options& o, const std::vector<std::string>& command) {
  if (o.verbose) {
    std::cerr << "cusim-cc:";
    for (const auto& c : command) std::cerr << ' ' << c;
    std::cerr << '\n';
  }
  std::vector<char*> argv;
  for (const auto& c : command) argv.push_back(const_cast<char*>(c.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) {
    std::cerr << "cusim-cc: cannot run the host compiler '" << command[0] << "'\n";
    return 127;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// The host compiler's command with cusim's include path and the user's
// flags; C sources go to the C compiler.
std::vector<std::string> base_compile(const options& o, bool c_source = false) {
  std::vector<std::string> cmd{c_source ? std::string(CUSIM_CC_HOST_CC) : host_compiler(),
                               c_source ? std::string("-std=c17") : o.std_flag};
  for (const auto& dir : split(CUSIM_CC_INCLUDE_DIRS, ';')) cmd.push_back("-I" + dir);
  for (const auto& flag : split(CUSIM_CC_SANITIZE_FLAGS, '|')) cmd.push_back(flag);
  cmd.insert(cmd.end(), o.compile_flags.begin(), o.compile_flags.end());
  return cmd;
}

bool is_cuda_source(const options& o, const fs::path& p) { return o.treat_as_cu || p.extension() == ".cu"; }

// .cu -> preprocess -> rewrite -> compile. Returns the host compiler's status.
int compile_cuda(const options& o, const fs::path& input, const fs::path& object, const fs::path& work) {
  const fs::path preprocessed = work / (input.stem().string() + ".cu.ii");
  const fs::path rewritten = work / (input.stem().string() + ".cusim.ii");
  auto pp = base_compile(o);
  pp.insert(pp.end(), {"-D__CUSIM_CC__=1", "-E", "-x", "c++", input.string(), "-o", preprocessed.string()});
  if (int rc = run(o, pp)) return rc;
  std::ifstream in(preprocessed, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::string output;
  try {
    output = cusim::cc::rewrite_translation_unit(text.str());
  } catch (const cusim::cc::rewrite_error& e) {
    std::cerr << input.string() << ": cusim-cc: " << e.what() << '\n';
    return 1;
  }
  std::ofstream(rewritten, std::ios::binary) << output;
  if (o.preprocess_only) {
    std::cout << output;
    return 0;
  }
  auto cc = base_compile(o);
  cc.insert(cc.end(), {"-c", "-x", "c++-cpp-output", rewritten.string(), "-o", object.string()});
  return run(o, cc);
}

int compile_plain(const options& o, const fs::path& input, const fs::path& object) {
  auto cc = base_compile(o, input.extension() == ".c");
  cc.insert(cc.end(), {"-c", input.string(), "-o", object.string()});
  return run(o, cc);
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  char pattern[] = "/tmp/cusim-cc-XXXXXX";
  const char* dir = mkdtemp(pattern);
  if (dir == nullptr) {
    std::cerr << "cusim-cc: cannot create a temporary directory\n";
    return 1;
  }
  const fs::path work(dir);
  std::vector<std::string> objects;
  int status = 0;
  for (const auto& name : o.inputs) {
    const fs::path input(name);
    const std::string ext = input.extension().string();
    if (ext == ".o" || ext == ".a" || ext == ".so") {
      objects.push_back(name);
      continue;
    }
    if (!fs::exists(input)) {
      std::cerr << "cusim-cc: " << name << ": no such file\n";
      status = 1;
      break;
    }
    fs::path object = o.compile_only && !o.output.empty() && o.inputs.size() == 1
                          ? fs::path(o.output)
                          : (o.compile_only ? fs::path(input.stem().string() + ".o")
                                            : work / (input.stem().string() + "." + std::to_string(objects.size()) + ".o"));
    status = is_cuda_source(o, input) ? compile_cuda(o, input, object, work) : compile_plain(o, input, object);
    if (status != 0) break;
    objects.push_back(object.string());
  }
  if (status == 0 && !o.compile_only && !o.preprocess_only) {
    std::vector<std::string> link{host_compiler()};
    link.insert(link.end(), objects.begin(), objects.end());
    if (!o.arch.empty()) {
      // The program's default profile, read by libcusim unless CUSIM_DEVICE says otherwise.
      const fs::path arch_source = work / "cusim_arch.cpp";
      std::ofstream(arch_source) << "extern \"C\" const char cusim_program_profile[] = \"sm_" << o.arch << "\";\n";
      const fs::path arch_object = work / "cusim_arch.o";
      status = run(o, {host_compiler(), "-c", arch_source.string(), "-o", arch_object.string()});
      link.push_back(arch_object.string());
    }
    link.insert(link.end(), {"-o", o.output.empty() ? "a.out" : o.output});
    link.insert(link.end(), o.link_flags.begin(), o.link_flags.end());
    for (const auto& lib : split(CUSIM_CC_SANITIZE_FLAGS, '|')) link.push_back(lib);
    for (const auto& lib : split(CUSIM_CC_LINK_LIBRARIES, '|')) link.push_back(lib);
    if (status == 0) status = run(o, link);
  }
  if (!o.keep) fs::remove_all(work);
  else std::cerr << "cusim-cc: intermediate files kept in " << work.string() << '\n';
  return status;
}
