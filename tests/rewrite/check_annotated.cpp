// Runs one annotated .cu file through cusim-cc and checks what its comments
// say (comments never reach the rewriter: the preprocessor removes them).
//   // FLAGS: -arch=sm_80        extra cusim-cc options
//   // ENV: NAME=value           cusim-cc runs with this in its environment
//   // CHECK: text               the rewritten code of this file holds `text`, after the previous CHECK's match
//   // CHECK-NOT: text           ... and nowhere holds `text`
//   // ERROR: text               cusim-cc fails, and says `text`
//   // OUTPUT: text              the built program prints `text`, after the previous OUTPUT's match
// Runs of white space compare equal to one space.
//   check_annotated <cusim-cc> <file.cu> <scratch directory>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct directive {
  std::string kind;
  std::string text;
  int line;
};

std::string squeeze_spaces(const std::string& text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = true;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::vector<directive> read_directives(const fs::path& file) {
  std::vector<directive> found;
  std::ifstream in(file);
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const std::size_t slash = line.find("// ");
    if (slash == std::string::npos) continue;
    const std::string rest = line.substr(slash + 3);
    for (const char* kind : {"FLAGS", "ENV", "CHECK-NOT", "CHECK", "ERROR", "OUTPUT"}) {
      const std::string head = std::string(kind) + ": ";
      if (rest.rfind(head, 0) == 0) {
        found.push_back({kind, squeeze_spaces(rest.substr(head.size())), number});
        break;
      }
    }
  }
  return found;
}

// Runs a shell command; returns its exit status and what it printed.
int run(const std::string& command, std::string& output) {
  output.clear();
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) output.append(buffer.data(), n);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

// The rewritten text that belongs to `file` itself: the lines its line
// markers attribute to it, not those of the headers it includes.
std::string own_lines(const std::string& rewritten, const std::string& file) {
  std::istringstream in(rewritten);
  std::string own;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# ", 0) == 0) {
      const std::size_t q1 = line.find('"'), q2 = line.rfind('"');
      if (q1 != std::string::npos && q2 > q1) inside = line.substr(q1 + 1, q2 - q1 - 1) == file;
      continue;
    }
    if (inside) own += line + '\n';
  }
  return own;
}

int failures = 0;
void fail(const fs::path& file, const directive& d, const std::string& why, const std::string& seen) {
  ++failures;
  std::cerr << file.string() << ':' << d.line << ": " << d.kind << ": " << d.text << "\n  " << why << "\n";
  if (!seen.empty()) std::cerr << "--- what was seen ---\n" << seen << "\n---\n";
}

// Checks the `kind` directives in order against `text`.
void check_in_order(const fs::path& file, const std::vector<directive>& directives, const char* kind,
                    const std::string& text) {
  const std::string squeezed = squeeze_spaces(text);
  std::size_t from = 0;
  for (const directive& d : directives) {
    if (d.kind != kind) continue;
    const std::size_t at = squeezed.find(d.text, from);
    if (at == std::string::npos) {
      fail(file, d, squeezed.find(d.text) == std::string::npos ? "not found" : "found, but before an earlier match",
           text);
      return;
    }
    from = at + d.text.size();
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: check_annotated <cusim-cc> <file.cu> <scratch directory>\n";
    return 2;
  }
  const std::string driver = argv[1];
  const fs::path file = argv[2];
  const fs::path scratch = argv[3];
  fs::create_directories(scratch);
  const auto directives = read_directives(file);
  std::string flags;
  std::string driver_command = driver;
  bool expect_error = false, expect_output = false;
  for (const directive& d : directives) {
    if (d.kind == "FLAGS") flags += " " + d.text;
    if (d.kind == "ENV") driver_command = "env " + d.text + " " + driver_command;
    expect_error = expect_error || d.kind == "ERROR";
    expect_output = expect_output || d.kind == "OUTPUT";
  }

  const fs::path rewritten = scratch / (file.stem().string() + ".ii");
  std::string said;
  const int status = run(driver_command + flags + " -E '" + file.string() + "' -o '" + rewritten.string() + "'", said);
  if (expect_error) {
    for (const directive& d : directives) {
      if (d.kind != "ERROR") continue;
      if (status == 0) fail(file, d, "cusim-cc succeeded", said);
      else if (squeeze_spaces(said).find(d.text) == std::string::npos) fail(file, d, "not in the message", said);
    }
    return failures == 0 ? 0 : 1;
  }
  if (status != 0) {
    std::cerr << file.string() << ": cusim-cc -E failed:\n" << said;
    return 1;
  }
  std::ifstream in(rewritten, std::ios::binary);
  std::stringstream whole;
  whole << in.rdbuf();
  const std::string own = own_lines(whole.str(), file.string());
  check_in_order(file, directives, "CHECK", own);
  const std::string squeezed_own = squeeze_spaces(own);
  for (const directive& d : directives) {
    if (d.kind == "CHECK-NOT" && squeezed_own.find(d.text) != std::string::npos) fail(file, d, "found", own);
  }

  if (expect_output) {
    const fs::path program = scratch / file.stem();
    if (run(driver_command + flags + " '" + file.string() + "' -o '" + program.string() + "'", said) != 0) {
      std::cerr << file.string() << ": cusim-cc failed to build it:\n" << said;
      return 1;
    }
    if (run("'" + program.string() + "'", said) != 0) {
      std::cerr << file.string() << ": the program failed:\n" << said;
      return 1;
    }
    check_in_order(file, directives, "OUTPUT", said);
  }
  return failures == 0 ? 0 : 1;
}
