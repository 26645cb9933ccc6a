// cusim-cc: an nvcc-compatible driver that builds .cu files for the CPU.
// Each .cu input is preprocessed by the host compiler with cusim's CUDA
// headers first on the include path and nvcc's macros defined, rewritten
// (see rewrite.hpp) and compiled; the objects are linked with libcusim.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "device_pass.hpp"
#include "kernel_facts.hpp"
#include "options.hpp"
#include "rewrite.hpp"
#include "front_end_marks.hpp"
#include "host_diagnostics.hpp"
#include "settings.hpp"
#include "source_excerpt.hpp"
#include "toolchain.hpp"

namespace fs = std::filesystem;
using namespace cusim::cc;

namespace {

// The profile a program models unless CUSIM_DEVICE says otherwise.
std::string profile_arch(const options& o) { return o.arch.empty() ? "90" : o.arch; }

// What nvcc defines for a .cu file in its host pass; the device pass adds
// __CUDA_ARCH__ (device_pass.hpp).
std::vector<std::string> cuda_macros(const options& o) {
  std::vector<std::string> macros{
      "-D__CUSIM_CC__=1",
      "-D__CUDACC__=1",
      "-D__NVCC__=1",
      "-D__CUDACC_VER_MAJOR__=" + std::to_string(CUSIM_CC_CUDA_VERSION_MAJOR),
      "-D__CUDACC_VER_MINOR__=" + std::to_string(CUSIM_CC_CUDA_VERSION_MINOR),
      "-D__CUDACC_VER_BUILD__=" + std::to_string(CUSIM_CC_CUDA_VERSION_BUILD),
      "-D__CUDA_ARCH_LIST__=" + profile_arch(o) + "0",
      "-D__CUSIM_SOURCE_CPLUSPLUS__=" + std::to_string(o.source_cplusplus) + "L",
  };
  if (o.relocatable_device_code) macros.push_back("-D__CUDACC_RDC__=1");
  if (o.extended_lambda) macros.push_back("-D__CUDACC_EXTENDED_LAMBDA__=1");
  if (o.relaxed_constexpr) macros.push_back("-D__CUDACC_RELAXED_CONSTEXPR__=1");
  return macros;
}

class driver {
 public:
  driver(options o, fs::path work) : o_(std::move(o)), tools_(locate_toolchain(o_)), work_(std::move(work)) {}

  int run() {
    if (o_.verbose) print_environment(tools_);
    if (o_.device_link) return device_link();
    std::vector<std::string> objects;
    for (std::size_t i = 0; i < o_.inputs.size(); ++i) {
      const fs::path input(o_.inputs[i]);
      const std::string ext = input.extension().string();
      if (ext == ".o" || ext == ".obj" || ext == ".a" || ext == ".so") {  // nvcc takes .obj for an object too
        objects.push_back(input.string());
        continue;
      }
      if (!fs::exists(input)) {
        std::cerr << "cusim-cc: " << input.string() << ": no such file\n";
        return 1;
      }
      const fs::path object = object_for(input, i);
      const bool cuda = o_.treat_as_cu || ext == ".cu";
      if (int rc = cuda ? compile_cuda(input, object) : compile_plain(input, object)) return rc;
      objects.push_back(object.string());
    }
    if (o_.compile_only || o_.preprocess_only || o_.dependencies == dependency_mode::only) return 0;
    return o_.make_static_library ? archive(objects) : link(objects);
  }

 private:
  // -c writes next to the user's files (or to -o); otherwise objects are
  // intermediate files in the work directory.
  fs::path object_for(const fs::path& input, std::size_t index) const {
    if (o_.compile_only) return !o_.output.empty() ? fs::path(o_.output) : fs::path(input.stem().string() + ".o");
    return work_ / (input.stem().string() + "." + std::to_string(index) + ".o");
  }

  // The host compiler with the user's flags. `preprocess`: also cusim's
  // include path and the user's -I/-D/-U (not for the rewritten file, which
  // is already preprocessed).
  std::vector<std::string> compiler_command(bool c_source, bool preprocess = true) const {
    std::vector<std::string> cmd{c_source ? tools_.cc : tools_.cxx, c_source ? std::string("-std=c17") : o_.std_flag};
    // -lineinfo: line tables only (the host compiler's -g1), what fault and
    // race reports need to name file.cu:line; before every other flag, so
    // that any -g the user or a check gives wins.
    if (o_.line_info) cmd.push_back("-g1");
    const bool clang = fs::path(cmd.front()).filename().string().find("clang") != std::string::npos;
    if (!c_source) {
      // nvcc compiles CUDA as C++17; in C++20 a compound assignment to a
      // volatile (the classic warp-synchronous reduction in shared memory)
      // is deprecated. Stay as quiet about it as nvcc.
      cmd.push_back(clang ? "-Wno-deprecated-volatile" : "-Wno-volatile");
      // Kernels pun types through pointers (a uint4 pack written as floats
      // through reinterpret_cast<float*>(&pack)[i], as vLLM's kernels do),
      // which nvcc's device code keeps; under strict aliasing g++ -O2 drops
      // such writes, a silent wrong result.
      cmd.push_back("-fno-strict-aliasing");
    }
    // A CUDA thread's stack is a fiber's, with a guard page below it: a frame
    // larger than a page must touch each page in turn, or its locals could
    // skip the guard and land in another thread's stack instead of faulting
    // (which cusim reports as a stack overflow: sched/worker_faults.cpp).
    // (Clang 14 has it on x86-64 only.)
#if defined(__x86_64__)
    cmd.push_back("-fstack-clash-protection");
#else
    if (!clang) cmd.push_back("-fstack-clash-protection");
#endif
    if (preprocess) {
      for (const auto& dir : tools_.include_dirs) cmd.push_back("-I" + dir);
      cmd.insert(cmd.end(), o_.preprocessor_flags.begin(), o_.preprocessor_flags.end());
    }
    cmd.insert(cmd.end(), tools_.sanitize_flags.begin(), tools_.sanitize_flags.end());
    cmd.insert(cmd.end(), tools_.instrument_flags.begin(), tools_.instrument_flags.end());
    // gcc warns that ThreadSanitizer ignores fences; clang has no such warning.
    if (!clang && std::find(cmd.begin(), cmd.end(), "-fsanitize=thread") != cmd.end()) cmd.push_back("-Wno-tsan");
    // The race check takes a volatile access for a relaxed atomic one, as PTX
    // does (src/check/race_volatile.cpp); gcc tells the two apart on request.
    if (!clang && o_.check == check_kind::race) cmd.push_back("--param=tsan-distinguish-volatile=1");
    if (o_.make_shared_library) cmd.push_back("-fPIC");
    // An unoptimised build keeps each kernel's own frame: the thread loop
    // calls it through its pointer (include/cusim/detail/kernel_call.hpp).
    if (!c_source && !optimises()) cmd.push_back("-D__CUSIM_KERNEL_FRAMES__=1");
    cmd.insert(cmd.end(), o_.compile_flags.begin(), o_.compile_flags.end());
    cmd.insert(cmd.end(), tools_.final_flags.begin(), tools_.final_flags.end());
    return cmd;
  }

  // An optimised build (-O1, -O2, -O3, -Os, -Ofast, -Oz; the last -O wins,
  // also through -Xcompiler): the only one in which compiling the kernel into
  // its thread loop gains anything, and one a debugger follows into inlined
  // code. -O0 and -Og keep each kernel's own frame.
  bool optimises() const {
    std::string level = "-O0";
    for (const auto& flag : o_.compile_flags) {
      if (flag.starts_with("-O")) level = flag;
    }
    return level != "-O0" && level != "-Og";
  }

  // -M / -MD and friends, as gcc takes them. The target defaults to the
  // object the user asked for (the host compiler only sees intermediate files).
  void add_dependency_flags(std::vector<std::string>& cmd, const fs::path& input, const fs::path& object) const {
    if (o_.dependencies == dependency_mode::none) return;
    const bool only = o_.dependencies == dependency_mode::only;
    cmd.push_back(only ? (o_.dependencies_include_system ? "-M" : "-MM")
                       : (o_.dependencies_include_system ? "-MD" : "-MMD"));
    if (o_.dependency_phony_targets) cmd.push_back("-MP");
    for (const auto& target : o_.dependency_targets) cmd.insert(cmd.end(), {"-MT", target});
    const fs::path user_object = o_.compile_only ? object : fs::path(input.stem().string() + ".o");
    if (o_.dependency_targets.empty()) cmd.insert(cmd.end(), {"-MT", user_object.string()});
    // Where the rules go: -MF; else -M writes to -o or stdout, -MD beside the object.
    std::string file = o_.dependency_file;
    if (file.empty()) file = only ? o_.output : fs::path(user_object).replace_extension(".d").string();
    if (!file.empty()) cmd.insert(cmd.end(), {"-MF", file});
  }

  // .cu -> preprocess -> rewrite -> compile.
  int compile_cuda(const fs::path& input, const fs::path& object) {
    // Under -v, as nvcc's own commands say it (build systems read it for the
    // default architecture).
    notice(o_, "device code for -arch compute_" + profile_arch(o_) + ", run on the CPU");
    const fs::path preprocessed = work_ / (input.stem().string() + ".cu.ii");
    const fs::path rewritten = work_ / (input.stem().string() + ".cusim.ii");
    auto pp = compiler_command(false);
    const auto macros = cuda_macros(o_);
    pp.insert(pp.end(), macros.begin(), macros.end());
    // nvcc includes cuda_runtime.h before every .cu file: many files rely on it.
    pp.insert(pp.end(), {"-include", "cuda_runtime.h"});
    auto device_pp = pp;  // without the dependency flags: the host pass writes those
    add_dependency_flags(pp, input, object);
    if (o_.dependencies == dependency_mode::only) {
      pp.insert(pp.end(), {"-x", "c++", input.string()});
      return run_command(o_, pp);
    }
    pp.insert(pp.end(), {"-E", "-x", "c++", input.string(), "-o", preprocessed.string()});
    // clang reads the kernels' facts while the host compiler preprocesses.
    std::shared_future<kernel_facts> facts = start_kernel_facts(input, {}).share();
    if (int rc = run_command(o_, pp)) return rc;
    if (o_.dry_run) return 0;
    std::string source = read_file(preprocessed);
    if (mentions_cuda_arch(source, own_header_dirs())) {
      // Kernel bodies come from the device pass: so do their facts.
      facts.wait();
      facts = start_kernel_facts(input, {"-D__CUDA_ARCH__=" + profile_arch(o_) + "0"}).share();
      const fs::path device_preprocessed = work_ / (input.stem().string() + ".device.ii");
      device_pp.insert(device_pp.end(), {"-D__CUDA_ARCH__=" + profile_arch(o_) + "0", "-E", "-x", "c++",
                                         input.string(), "-o", device_preprocessed.string()});
      if (int rc = run_command(o_, device_pp)) return rc;
      merged_passes merged = merge_device_pass(source, read_file(device_preprocessed));
      const bool quiet = std::find(o_.compile_flags.begin(), o_.compile_flags.end(), "-w") != o_.compile_flags.end();
      for (const std::string& warning : merged.warnings) {
        if (!quiet) std::cerr << warning << '\n';
      }
      source = std::move(merged.text);
    }

    std::string output;
    bool used_marks = false;
    try {
      output = with_program_profile(rewrite_with_marks(source, facts, used_marks));
    } catch (const rewrite_error& e) {
      const std::string file = e.file.empty() ? input.string() : e.file;
      std::cerr << file << ':' << e.line << ':' << e.column << ": error: " << e.what() << '\n'
                << source_excerpt(file, e.line, e.column);
      return 1;
    }
    if (o_.preprocess_only) {
      if (o_.output.empty()) std::cout << output;
      else std::ofstream(o_.output, std::ios::binary) << output;
      return 0;
    }
    std::string host_messages;
    int rc = compile_rewritten(output, rewritten, object, host_messages);
    if (rc != 0 && !used_marks) {
      // What the host compiler refused may be what the rewrite without
      // clang's marks got wrong, in a shape the rewriter did not know to
      // ask about (a kernel that shares its name with a host function):
      // once more with the marks, where they change the text.
      std::optional<std::string> again;
      try {
        again = rewrite_with_clang_marks(source, facts, nullptr);
      } catch (const rewrite_error&) {
        // the first rewrite's messages stand
      }
      if (again && (again = with_program_profile(std::move(*again))) != output) {
        notice(o_, "the host compiler refused the rewrite; rewriting again with clang's marks");
        host_messages.clear();
        rc = compile_rewritten(*again, rewritten, object, host_messages);
      }
    }
    if (rc != 0) {
      report_compile_errors(host_messages, facts);
      return rc;
    }
    std::cerr << host_messages;  // its warnings
    link_kernel_facts(input, object, facts);
    return 0;
  }

  // Adds the registrations of the kernels' facts to `object` (a second object,
  // linked into it with ld -r). Never fails the build: without them the
  // runtime learns what it needs as the kernels run.
  void link_kernel_facts(const fs::path& input, const fs::path& object,
                         const std::shared_future<kernel_facts>& pending) const {
    const std::string text = facts_registration(pending);
    if (text.empty()) return;
    // Link-time optimisation objects hold the compiler's IR, not code to link with ld -r.
    for (const auto& flag : o_.compile_flags) {
      if (flag.starts_with("-flto")) return notice(o_, "no kernel facts under " + flag);
    }
    const fs::path source = work_ / (input.stem().string() + ".facts.cpp");
    const fs::path facts_object = work_ / (input.stem().string() + ".facts.o");
    const fs::path merged = work_ / (input.stem().string() + ".merged.o");
    std::ofstream(source, std::ios::binary) << text;
    // Only what makes the object fit the file's: no debug information,
    // coverage or sanitizer of the user's for a file they never wrote.
    std::vector<std::string> cc{tools_.cxx, o_.std_flag, "-O1", "-g0", "-I" + tools_.include_dirs.back()};
    if (o_.make_shared_library) cc.push_back("-fPIC");
    for (const auto& flag : o_.compile_flags) {
      if (flag.starts_with("-m") || flag == "-fPIC" || flag == "-fpic" || flag == "-fPIE" || flag == "-fpie" ||
          flag == "-fno-pic" || flag == "-fno-pie")
        cc.push_back(flag);
    }
    cc.insert(cc.end(), {"-c", source.string(), "-o", facts_object.string()});
    std::vector<std::string> relink{tools_.cxx, "-r", "-nostdlib", object.string(), facts_object.string(), "-o",
                                    merged.string()};
    std::error_code error;
    if (run_command(o_, cc) != 0 || run_command(o_, relink) != 0 ||
        (fs::copy_file(merged, object, fs::copy_options::overwrite_existing, error), error)) {
      notice(o_, "the kernel facts could not be linked in; building without them");
    }
  }

  // Parses `input` with clang in the background (kernel_facts.hpp), with the
  // include path and macros the host pass has, and `extra` macros.
  std::future<kernel_facts> start_kernel_facts(const fs::path& input, std::vector<std::string> extra) const {
    const char* setting = std::getenv("CUSIM_CC_KERNEL_FACTS");
    if (!kernel_facts_available() || o_.dry_run || (setting != nullptr && std::string(setting) == "0")) {
      return no_kernel_facts();
    }
    std::vector<std::string> arguments{o_.std_flag};
    for (const auto& dir : tools_.include_dirs) arguments.push_back("-I" + dir);
    arguments.insert(arguments.end(), o_.preprocessor_flags.begin(), o_.preprocessor_flags.end());
    // What the host compiler's preprocessing also gets from -Xcompiler.
    for (std::size_t i = 0; i < o_.compile_flags.size(); ++i) {
      const std::string& flag = o_.compile_flags[i];
      const bool takes_next = flag == "-D" || flag == "-U" || flag == "-I" || flag == "-include" || flag == "-isystem";
      if (takes_next && i + 1 < o_.compile_flags.size()) {
        arguments.insert(arguments.end(), {flag, o_.compile_flags[++i]});
      } else if (flag.starts_with("-D") || flag.starts_with("-U") || flag.starts_with("-I") ||
                 flag.starts_with("-isystem")) {
        arguments.push_back(flag);
      }
    }
    const auto macros = cuda_macros(o_);
    arguments.insert(arguments.end(), macros.begin(), macros.end());
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    arguments.insert(arguments.end(), {"-include", "cuda_runtime.h"});
    try {
      return std::async(std::launch::async, [source = input.string(), arguments, dirs = own_header_dirs()] {
        return read_kernel_facts(source, arguments, dirs);
      });
    } catch (const std::system_error&) {  // no thread to be had (a process limit under make -j)
      return no_kernel_facts();
    }
  }

  // Facts not looked for: none, and nothing to say about them.
  static std::future<kernel_facts> no_kernel_facts() {
    std::promise<kernel_facts> none;
    none.set_value({});
    return none.get_future();
  }

  // The rewrite (rewrite.hpp), with clang's marks (front_end_marks.hpp)
  // where they could change it or where the rewriter alone failed: they are
  // then waited for and the text rewritten again. clang parses longer than
  // the host compiler preprocesses, so most files do not wait.
  // `used_marks`: whether the text came from the rewrite with clang's marks.
  std::string rewrite_with_marks(const std::string& source, const std::shared_future<kernel_facts>& facts,
                                 bool& used_marks) const {
    bool marks_would_matter = false;
    std::string output;
    std::exception_ptr failed;
    try {
      output = rewrite_translation_unit(source, nullptr, &marks_would_matter);
    } catch (const rewrite_error&) {
      failed = std::current_exception();
    }
    used_marks = false;
    if (!failed && !marks_would_matter) return output;
    std::optional<std::string> marked =
        rewrite_with_clang_marks(source, facts, "rewriting again with clang's marks of __shared__ uses and launches");
    if (!marked) {
      if (failed) std::rethrow_exception(failed);
      return output;
    }
    used_marks = true;
    return std::move(*marked);
  }

  // The rewrite with clang's marks, saying `why` under -v (where given);
  // none where clang has no marks (it could not parse the file). A
  // rewrite_error propagates.
  std::optional<std::string> rewrite_with_clang_marks(const std::string& source,
                                                      const std::shared_future<kernel_facts>& facts,
                                                      const char* why) const {
    const kernel_facts* parsed = facts_if_parsed(facts);
    if (parsed == nullptr || parsed->marks.empty()) return std::nullopt;
    if (why != nullptr) notice(o_, why);
    front_end_lookup marks(parsed->marks);
    return rewrite_translation_unit(source, &marks);
  }

  // The rewritten text with the program's default profile, where -arch
  // gave one; weak, so every object may carry it.
  std::string with_program_profile(std::string output) const {
    if (!o_.arch.empty()) {
      output += "\nextern \"C\" __attribute__((weak)) const char cusim_program_profile[] = \"sm_" + o_.arch + "\";\n";
    }
    return output;
  }

  // Compiles the rewritten `text` (written to `rewritten`) into `object`;
  // the host compiler's messages go to `messages`, in colour still where
  // they are for a terminal (report_compile_errors reads them first).
  int compile_rewritten(const std::string& text, const fs::path& rewritten, const fs::path& object,
                        std::string& messages) const {
    std::ofstream(rewritten, std::ios::binary) << text;
    auto cc = compiler_command(false, false);
    cc.insert(cc.end(), {"-c", "-x", "c++-cpp-output", rewritten.string(), "-o", object.string()});
    if (colours_wanted()) cc.push_back("-fdiagnostics-color=always");
    return run_command(o_, cc, &messages);
  }

  // Whether the host compiler's messages, read through a pipe, should keep
  // the colours it gives a terminal (as GCC decides: a terminal that is
  // not "dumb"), unless the user chose.
  bool colours_wanted() const {
    for (const auto& flag : o_.compile_flags) {
      if (flag.starts_with("-fdiagnostics-color") || flag.starts_with("-fno-diagnostics-color")) return false;
    }
    const char* term = std::getenv("TERM");
    return isatty(STDERR_FILENO) != 0 && term != nullptr && std::string_view(term) != "dumb";
  }

  // The host compiler refused the rewritten file. Where clang, reading the
  // user's file as CUDA, refused it too, its errors at the user's lines are
  // often the clearer: a launch's wrong argument is a conversion clang
  // names, where the host compiler reports a tuple inside cusim's launcher.
  // Where clang accounts for every error the host compiler has
  // (host_diagnostics.hpp), clang's errors alone are shown, as nvcc's own
  // front end would show them, and -v shows the host compiler's too;
  // otherwise the host compiler's come first and clang's last, where a
  // terminal shows them.
  void report_compile_errors(const std::string& host_messages, const std::shared_future<kernel_facts>& pending) const {
    const kernel_facts* facts = nullptr;
    try {
      facts = &pending.get();
    } catch (const std::exception&) {
    }
    std::vector<diagnostic_line> flagged;
    if (facts != nullptr && !facts->parsed) {
      for (const front_end_diagnostic& d : facts->user_errors) {
        if (!d.is_note) flagged.push_back({d.file, d.line});
      }
    }
    const bool clang_suffices =
        !o_.verbose && !flagged.empty() && read_host_errors(without_colours(host_messages), flagged).all_accounted_for();
    if (!clang_suffices) std::cerr << host_messages;
    if (flagged.empty()) return;
    if (!clang_suffices) std::cerr << "cusim-cc: clang, reading the file as CUDA, reports:\n";
    for (const front_end_diagnostic& d : facts->user_errors) {
      std::cerr << d.file << ':' << d.line << ':' << d.column << (d.is_note ? ": note: " : ": error: ") << d.message
                << '\n'
                << source_excerpt(d.file, d.line, d.column);
    }
    if (clang_suffices) {
      const auto lines = std::count(host_messages.begin(), host_messages.end(), '\n');
      std::cerr << "cusim-cc: the host compiler (" << fs::path(tools_.cxx).filename().string()
                << ") fails at the same lines (cusim-cc -v shows its " << lines << " lines of messages)\n";
    }
  }

  // clang's facts, once it has them; null where it could not parse the file
  // (or was not asked to).
  static const kernel_facts* facts_if_parsed(const std::shared_future<kernel_facts>& pending) {
    try {
      const kernel_facts& facts = pending.get();
      return facts.parsed ? &facts : nullptr;
    } catch (const std::exception&) {
      return nullptr;  // said when the registrations are made
    }
  }

  // The registrations for what clang learnt ("" for none); under -v, what it was.
  std::string facts_registration(const std::shared_future<kernel_facts>& pending) const {
    kernel_facts facts;
    try {
      facts = pending.get();
    } catch (const std::exception& e) {
      notice(o_, std::string("no kernel facts: ") + e.what());
      return {};
    }
    if (!facts.parsed) {
      // An error of clang's, or facts not looked for (no first error).
      if (!facts.first_error.empty()) {
        notice(o_, "no kernel facts: clang could not parse the file (" + facts.first_error + ")");
      }
      return {};
    }
    for (const kernel_fact& k : facts.kernels) {
      notice(o_, "kernel " + k.name + ": " + std::to_string(k.static_shared_bytes) + " B static shared" +
                     (k.waits ? ", waits" : "") + (k.spins ? ", spins" : "") + (k.launches ? ", launches" : "") +
                     (k.dynamic_shared ? ", dynamic shared" : "") + (k.opaque_calls ? ", unknown calls" : ""));
    }
    return facts.kernels.empty() ? std::string() : facts_registration_text(facts.kernels);
  }

  // Where cusim's own headers are (the CUDA ones, cusim's API beside them,
  // and the toolkit directory's links to them).
  std::vector<std::string> own_header_dirs() const {
    std::vector<std::string> dirs{tools_.include_dirs.front(), (fs::path(tools_.include_dirs.back()) / "cusim").string()};
    if (!tools_.toolkit_dir.empty()) dirs.push_back((fs::path(tools_.toolkit_dir) / "include").string());
    return dirs;
  }

  int compile_plain(const fs::path& input, const fs::path& object) {
    auto cc = compiler_command(input.extension() == ".c");
    add_dependency_flags(cc, input, object);
    if (o_.dependencies == dependency_mode::only || o_.preprocess_only) {
      cc.insert(cc.end(), {"-E", input.string()});
      if (o_.preprocess_only && !o_.output.empty()) cc.insert(cc.end(), {"-o", o_.output});
      return run_command(o_, cc);
    }
    cc.insert(cc.end(), {"-c", input.string(), "-o", object.string()});
    return run_command(o_, cc);
  }

  // nvcc -dlink links the device code of -rdc objects into one more object
  // for the host link. cusim's device code is host code, linked as usual:
  // the object is empty.
  int device_link() {
    const fs::path source = work_ / "cusim_device_link.cpp";
    std::ofstream(source) << "// cusim-cc -dlink: device code is linked with the host code\n";
    const std::string output = o_.output.empty() ? "a_dlink.o" : o_.output;
    return run_command(o_, {tools_.cxx, "-c", "-fPIC", source.string(), "-o", output});
  }

  int archive(const std::vector<std::string>& objects) {
    const std::string output = o_.output.empty() ? "a.a" : o_.output;
    std::error_code ignored;
    fs::remove(output, ignored);  // ar would add to an old archive's members
    std::vector<std::string> ar{"ar", "rcs", output};
    ar.insert(ar.end(), objects.begin(), objects.end());
    return run_command(o_, ar);
  }

  int link(const std::vector<std::string>& objects) {
    std::vector<std::string> cmd{tools_.cxx};
    if (o_.make_shared_library) cmd.push_back("-shared");
    cmd.insert(cmd.end(), objects.begin(), objects.end());
    if (!o_.arch.empty()) {
      // -arch at link time also sets the default profile, for objects built without it.
      const fs::path source = work_ / "cusim_arch.cpp";
      std::ofstream(source) << "extern \"C\" __attribute__((weak)) const char cusim_program_profile[] = \"sm_"
                            << o_.arch << "\";\n";
      const fs::path object = work_ / "cusim_arch.o";
      if (int rc = run_command(o_, {tools_.cxx, "-c", "-fPIC", source.string(), "-o", object.string()})) return rc;
      cmd.push_back(object.string());
    }
    cmd.insert(cmd.end(), {"-o", o_.output.empty() ? "a.out" : o_.output});
    cmd.insert(cmd.end(), o_.host_compiler_options.begin(), o_.host_compiler_options.end());
    cmd.insert(cmd.end(), o_.link_flags.begin(), o_.link_flags.end());
    cmd.insert(cmd.end(), tools_.sanitize_flags.begin(), tools_.sanitize_flags.end());
    cmd.insert(cmd.end(), tools_.link_libraries.begin(), tools_.link_libraries.end());
    return run_command(o_, cmd);
  }

  static std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }

  options o_;
  toolchain tools_;
  fs::path work_;
};

}  // namespace

// LeakSanitizer (cusim's ASan build): clang's libraries keep some of what
// they allocate until the process ends; that is theirs, not cusim-cc's.
extern "C" const char* __lsan_default_suppressions() { return "leak:libLLVM\nleak:libclang-cpp\n"; }

int main(int argc, char** argv) {
  options o;
  try {
    o = parse_command_line(argc, argv);
  } catch (const command_line_exit& e) {
    return e.status;
  }
  char pattern[] = "/tmp/cusim-cc-XXXXXX";
  const char* dir = mkdtemp(pattern);
  if (dir == nullptr) {
    std::cerr << "cusim-cc: cannot create a temporary directory in /tmp\n";
    return 1;
  }
  const fs::path work(dir);
  const bool keep = o.keep;
  const int status = driver(std::move(o), work).run();
  if (!keep) fs::remove_all(work);
  else std::cerr << "cusim-cc: intermediate files kept in " << work.string() << '\n';
  return status;
}
