#include "toolchain.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>

#include "settings.hpp"

extern char** environ;

namespace cusim::cc {

namespace fs = std::filesystem;

namespace {

fs::path own_directory() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

// An installed cusim-cc sits in <prefix>/<bindir>; its headers and library
// are at <prefix>/<includedir>/cusim-cuda and <prefix>/<libdir>. Returns the
// prefix, or an empty path when cusim-cc runs from its build tree.
fs::path installed_prefix() {
  fs::path prefix = own_directory();
  if (prefix.empty()) return {};
  for (const auto& part : fs::path(CUSIM_CC_INSTALL_BINDIR)) {
    if (!part.empty()) prefix = prefix.parent_path();
  }
  const bool installed = fs::exists(prefix / CUSIM_CC_INSTALL_INCLUDEDIR / "cusim-cuda" / "cuda_runtime.h") &&
                         fs::exists(prefix / CUSIM_CC_INSTALL_LIBDIR / "libcusim.a");
  return installed ? prefix : fs::path();
}

// The runtime a program links, and the sanitizer its own code is built with.
struct runtime_library {
  const char* library;      // installed, in <prefix>/<libdir>
  const char* build_links;  // in the build tree
  std::vector<std::string> flags;
};

runtime_library runtime_for(check_kind check) {
  switch (check) {
    case check_kind::race:
      // The program's code is what TSan checks; -g gives its reports source lines.
      return {"libcusim-race.a", CUSIM_CC_RACE_LINK_LIBRARIES, {"-fsanitize=thread", "-g"}};
    case check_kind::memory:
      return {"libcusim-memcheck.a", CUSIM_CC_MEMCHECK_LINK_LIBRARIES,
              {"-fsanitize=address", "-fno-omit-frame-pointer", "-g"}};
    case check_kind::banks:  // the plain runtime, with hooks (hooks_for)
    case check_kind::init:
    case check_kind::none: break;
  }
  return {"libcusim.a", CUSIM_CC_LINK_LIBRARIES, {}};
}

// The library of instrumentation hooks a program links before the plain
// runtime (--warp-mode=lockstep, --check=banks, --check=init), if any.
struct hooks_library {
  const char* name;        // lib<name>.a
  const char* build_path;  // in the build tree
  const char* option;      // what asks for it
};

std::optional<hooks_library> hooks_for(const options& o) {
  if (o.lockstep) return hooks_library{"cusim-lockstep", CUSIM_CC_LOCKSTEP_LIBRARY, "--warp-mode=lockstep"};
  if (o.check == check_kind::banks) return hooks_library{"cusim-banks", CUSIM_CC_BANKS_LIBRARY, "--check=banks"};
  if (o.check == check_kind::init) return hooks_library{"cusim-initcheck", CUSIM_CC_INITCHECK_LIBRARY, "--check=init"};
  return std::nullopt;
}

}  // namespace

toolchain locate_toolchain(const options& o) {
  toolchain t;
  const char* cxx = std::getenv("CUSIM_CXX");
  t.cxx = !o.host_compiler.empty() ? o.host_compiler : (cxx != nullptr && *cxx != '\0' ? cxx : CUSIM_CC_HOST_CXX);
  const char* cc = std::getenv("CUSIM_CC");
  t.cc = cc != nullptr && *cc != '\0' ? cc : CUSIM_CC_HOST_CC;
  t.sanitize_flags = split(CUSIM_CC_SANITIZE_FLAGS, '|');
  const runtime_library runtime = runtime_for(o.check);
  const fs::path prefix = installed_prefix();
  if (!prefix.empty()) {
    const fs::path include = prefix / CUSIM_CC_INSTALL_INCLUDEDIR;
    t.include_dirs = {(include / "cusim-cuda").string(), include.string()};
    t.link_libraries = {(prefix / CUSIM_CC_INSTALL_LIBDIR / runtime.library).string()};
    for (const auto& lib : split(CUSIM_CC_SYSTEM_LIBRARIES, '|')) t.link_libraries.push_back(lib);
    t.toolkit_dir = (prefix / CUSIM_CC_INSTALL_TOOLKITDIR).string();
  } else {
    t.include_dirs = split(CUSIM_CC_INCLUDE_DIRS, ';');
    t.link_libraries = split(runtime.build_links, '|');
    t.toolkit_dir = CUSIM_CC_TOOLKIT_DIR;
  }
  std::error_code ec;
  if (!fs::exists(fs::path(t.toolkit_dir) / "lib64" / "libcudart_static.a", ec)) t.toolkit_dir.clear();
  // CMake links CUDA programs itself, with the libraries it reads off the
  // link line `-v` prints: the toolkit's lib64 marks that line (nvcc's
  // LIBRARIES), and a system library is named -lNAME where its development
  // link exists, as CMake drops full paths to versioned .so files. libcusim
  // itself stays the path found now, so a moved prefix still links. (So do
  // the hooks of a check that needs no sanitizer's runtime, put before it
  // below; a sanitizer's build links with flags CMake would not keep.)
  const std::optional<hooks_library> hooks = hooks_for(o);
  if (!t.toolkit_dir.empty() && (o.check == check_kind::none || hooks)) {
    std::vector<std::string> libraries{"-L" + (fs::path(t.toolkit_dir) / "lib64").string()};
    for (const std::string& library : t.link_libraries) {
      const fs::path path(library);
      const std::string file = path.filename().string();
      const std::size_t so = file.find(".so");
      if (path.is_absolute() && file.starts_with("lib") && so != std::string::npos &&
          fs::exists(path.parent_path() / file.substr(0, so + 3), ec)) {
        libraries.push_back("-l" + file.substr(3, so - 3));
      } else {
        libraries.push_back(library);
      }
    }
    t.link_libraries = std::move(libraries);
  }
  if (o.check != check_kind::none && !hooks) {
    if (t.link_libraries.empty() || t.link_libraries.front().empty()) {
      std::cerr << "cusim-cc: --check needs " << runtime.library
                << ", which a sanitizer build of cusim does not make\n";
      std::exit(2);
    }
    t.sanitize_flags = runtime.flags;
  }
  if (hooks) {
    // ThreadSanitizer's instrumentation without its runtime: the hooks it
    // calls are the library's, which name source lines from -g's debug
    // information.
    // __CUSIM_ACCESS_HOOKS__: the kernel's thread loop stays out of such a
    // program (kernel_call.hpp), the hooks would take its accesses for the
    // CUDA thread's.
    t.instrument_flags = {"-fsanitize=thread", "-g", "-D__CUSIM_ACCESS_HOOKS__=1"};
    if (o.lockstep) {
      // Lockstep also follows every basic block (to keep diverged lanes
      // apart), and needs the branches laid out as the source has them:
      // unoptimised, whatever -O the command line gives.
      t.instrument_flags.push_back("-fsanitize-coverage=trace-pc");
      t.final_flags = {"-O0"};
    }
    const std::string library = prefix.empty()
                                    ? std::string(hooks->build_path)
                                    : (prefix / CUSIM_CC_INSTALL_LIBDIR / ("lib" + std::string(hooks->name) + ".a")).string();
    if (library.empty()) {
      std::cerr << "cusim-cc: " << hooks->option << " needs lib" << hooks->name
                << ", which a sanitizer build of cusim does not make\n";
      std::exit(2);
    }
    t.link_libraries.insert(t.link_libraries.begin(), library);
  }
  notice(o, std::string("headers from ") + t.include_dirs.front());
  return t;
}

void print_environment(const toolchain& t) {
  if (t.toolkit_dir.empty()) return;
  const fs::path top(t.toolkit_dir);
  const char* path = std::getenv("PATH");
  std::cerr << "#$ _NVVM_BRANCH_=nvvm\n"
            << "#$ TOP=" << top.string() << '\n'
            << "#$ NVVMIR_LIBRARY_DIR=" << (top / "nvvm" / "libdevice").string() << '\n'
            << "#$ PATH=" << (top / "bin").string() << ':' << (path != nullptr ? path : "") << '\n'
            << "#$ INCLUDES=\"-I" << (top / "include").string() << "\"\n";
  // (After a check's hooks library, which comes first.)
  const auto lib64 = std::find_if(t.link_libraries.begin(), t.link_libraries.end(),
                                  [](const std::string& l) { return l.starts_with("-L"); });
  if (lib64 != t.link_libraries.end()) std::cerr << "#$ LIBRARIES=  " << *lib64 << '\n';
}

int run_command(const options& o, const std::vector<std::string>& command, std::string* error_output) {
  if (o.verbose) {
    std::cerr << "#$";
    for (const auto& c : command) std::cerr << ' ' << c;
    std::cerr << '\n';
  }
  if (o.dry_run) return 0;
  std::vector<char*> argv;
  for (const auto& c : command) argv.push_back(const_cast<char*>(c.c_str()));
  argv.push_back(nullptr);
  // Standard error into a pipe, read to its end before waiting (a full pipe
  // would stall the command).
  int pipe_ends[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (error_output != nullptr) {
    if (pipe2(pipe_ends, O_CLOEXEC) != 0) {
      posix_spawn_file_actions_destroy(&actions);
      std::cerr << "cusim-cc: cannot make a pipe for '" << command[0] << "'s messages\n";
      return 127;
    }
    posix_spawn_file_actions_adddup2(&actions, pipe_ends[1], STDERR_FILENO);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error_output != nullptr) {
    close(pipe_ends[1]);
    char buffer[4096];
    for (ssize_t n; (n = read(pipe_ends[0], buffer, sizeof buffer)) != 0;) {
      if (n > 0) error_output->append(buffer, static_cast<std::size_t>(n));
      else if (errno != EINTR) break;
    }
    close(pipe_ends[0]);
  }
  if (spawned != 0) {
    std::cerr << "cusim-cc: cannot run '" << command[0] << "' (not found on PATH?)\n";
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace cusim::cc
