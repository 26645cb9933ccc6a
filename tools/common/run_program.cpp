#include "run_program.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

extern char** environ;

namespace cusim::tools {

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool replaced(const char* variable, const std::vector<std::string>& extra_env) {
  for (const auto& e : extra_env) {
    const std::size_t name_end = e.find('=') + 1;
    if (std::strncmp(variable, e.c_str(), name_end) == 0) return true;
  }
  return false;
}

}  // namespace

run_result run_program(const std::vector<std::string>& command, const std::vector<std::string>& extra_env,
                       double timeout_seconds) {
  std::vector<std::string> env_text = extra_env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (!replaced(*e, extra_env)) env_text.push_back(*e);
  }
  std::vector<char*> env, args;
  for (auto& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::vector<std::string> arg_text = command;
  for (auto& a : arg_text) args.push_back(a.data());
  args.push_back(nullptr);

  // The output goes to files, not pipes: a program that prints a lot cannot
  // block on a full pipe while this waits for it.
  char scratch_template[] = "/tmp/cusim-run-XXXXXX";
  const char* scratch = mkdtemp(scratch_template);
  if (scratch == nullptr) {
    std::perror("mkdtemp");
    std::exit(2);
  }
  const std::string out_path = std::string(scratch) + "/out", err_path = std::string(scratch) + "/err";
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&files, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &files, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&files);
  if (spawned != 0) {
    std::cerr << "cannot run " << command[0] << ": " << std::strerror(spawned) << "\n";
    std::exit(2);
  }
  run_result r;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  rmdir(scratch);
  return r;
}

std::string describe_exit(const run_result& r) {
  if (r.timed_out) return "timed out (killed)";
  if (r.status >= 128) return "killed by signal " + std::to_string(r.status - 128);
  return "exit " + std::to_string(r.status);
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string quoted_command(const std::vector<std::string>& command) {
  std::string line;
  for (const auto& a : command) {
    const bool plain = a.find_first_of(" \t'\"$\\`*?;&|<>()") == std::string::npos && !a.empty();
    line += (line.empty() ? "" : " ") + (plain ? a : "'" + a + "'");
  }
  return line;
}

}  // namespace cusim::tools
