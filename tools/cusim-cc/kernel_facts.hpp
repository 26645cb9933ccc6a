// What cusim-cc's clang front end learns about each kernel of a .cu file
// before anything runs: the static __shared__ memory one block needs, and
// whether the kernel (or anything it calls) can wait for other threads,
// step aside for its block, launch grids or use dynamic shared memory.
//
// clang parses the file as CUDA (host side), with cusim's headers in place
// of NVIDIA's (__CUSIM_KERNEL_FACTS__: the qualifiers become clang's CUDA
// attributes). From each kernel, the calls it makes are followed down to the
// runtime's marked entry points (CUSIM_FACT in include/cusim/detail/
// config.hpp); the sizes of __shared__ variables are clang's layout of the
// host's types, which is the layout the program runs with.
//
// The facts are registered by a small second object (facts_registration_text),
// linked into the .cu file's object, that names each kernel by its symbol
// through a weak reference (a kernel with internal linkage by the site of
// its definition, which the rewriter notes too): so cudaFuncGetAttributes,
// the occupancy API and the launch checks know a kernel's static shared
// memory before its first launch. clang runs while the host compiler builds
// the file. A file clang cannot parse, or a kernel the host compiler did
// not make, gets no facts: the runtime then learns the sizes as blocks run,
// as it does without the front end.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "front_end_marks.hpp"

namespace cusim::cc {

struct kernel_fact {
  std::string name;    // the kernel as the user would write it: ns::k<float, 4>
  std::string symbol;  // its mangled name (Itanium C++ ABI, which the host compiler shares)
  // For a kernel with internal linkage (no symbol another object can
  // reach): where its definition names it, "file:line:name", as cusim-cc's
  // rewriter notes it (include/cusim/detail/kernel_call.hpp's kernel_site).
  std::string site;
  std::size_t static_shared_bytes = 0;
  bool waits = false;           // barriers, warp collectives, grid/cluster sync, device-side sync
  bool spins = false;           // atomics, fences, __nanosleep: points where a thread steps aside
  bool launches = false;        // <<<>>> or the launch API in device code
  bool dynamic_shared = false;  // extern __shared__ or the launch's dynamic shared memory
  // Calls whose target is unknown here (through a pointer, virtual, or to a
  // device function defined in another file): the flags above are all set,
  // and the static shared size is a lower bound.
  bool opaque_calls = false;
};

// One of clang's errors in the user's files, or a note of one.
struct front_end_diagnostic {
  bool is_note = false;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
  std::string message;
};

struct kernel_facts {
  bool parsed = false;             // false: clang could not parse the file; no facts
  std::string first_error;         // then, clang's first error (file:line:col: message)
  // And its first errors in the user's files, each with its notes there:
  // shown where the host compiler fails too (clang's are often clearer).
  std::vector<front_end_diagnostic> user_errors;
  std::vector<kernel_fact> kernels;
  // What the rewriter needs of the AST: __shared__ uses, launch callees (front_end_marks.hpp).
  front_end_marks marks;
};

// Whether this cusim-cc was built with clang's libraries.
bool kernel_facts_available();

// Parses `source` with `arguments` (the include path, macros and -std the
// host compile uses). `own_header_dirs`: where cusim's headers are (their
// declarations without a body are runtime entry points, not unknown code).
kernel_facts read_kernel_facts(const std::string& source, const std::vector<std::string>& arguments,
                               const std::vector<std::string>& own_header_dirs);

// A C++ file that registers `kernels`' facts when its object is linked with
// the kernels' (include/cusim/detail/front_end_facts.hpp).
std::string facts_registration_text(const std::vector<kernel_fact>& kernels);

}  // namespace cusim::cc
