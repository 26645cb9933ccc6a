// Fault handling on Linux (x86-64 and arm64): signal handlers on an
// alternate stack that resume a faulting CUDA thread elsewhere
// (platform/faults.hpp). CMake builds this file or faults_generic.cpp.
#include "platform/faults.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <type_traits>

namespace cusim::detail::platform {

namespace {

constexpr int handled_signals[] = {SIGSEGV, SIGBUS, SIGFPE};
struct sigaction previous[3];  // what was installed before, per handled signal
std::atomic<fault_claim> claimer{nullptr};

std::size_t signal_slot(int signal) {
  return static_cast<std::size_t>(std::find(std::begin(handled_signals), std::end(handled_signals), signal) -
                                  std::begin(handled_signals));
}

// The registers of the interrupted code (greg_t on x86-64, __u64 on arm64).
#if defined(__x86_64__)
auto& instruction_pointer(ucontext_t& c) { return c.uc_mcontext.gregs[REG_RIP]; }
auto& stack_pointer(ucontext_t& c) { return c.uc_mcontext.gregs[REG_RSP]; }
#else
auto& instruction_pointer(ucontext_t& c) { return c.uc_mcontext.pc; }
auto& stack_pointer(ucontext_t& c) { return c.uc_mcontext.sp; }
#endif
template <typename Register>
const void* address_in(Register value) {
  return reinterpret_cast<const void*>(static_cast<std::uintptr_t>(value));
}

// Makes the interrupted context resume at the start of `landing`, as if
// called with an empty stack below `stack_top`.
void resume_in(ucontext_t& c, fault_landing landing, void* stack_top) {
  std::uintptr_t sp = reinterpret_cast<std::uintptr_t>(stack_top) & ~std::uintptr_t{15};
#if defined(__x86_64__)
  sp -= 8;  // where a call would have pushed the return address
#else
  c.uc_mcontext.regs[30] = 0;  // no return address
#endif
  using reg = std::remove_reference_t<decltype(stack_pointer(c))>;
  stack_pointer(c) = static_cast<reg>(sp);
  instruction_pointer(c) = static_cast<reg>(reinterpret_cast<std::uintptr_t>(landing));
}

// What the fault would have done without cusim: the previous handler, or
// the default action (the instruction faults again once the handler returns).
void pass_on(int signal, siginfo_t* info, void* context) {
  const struct sigaction& before = previous[signal_slot(signal)];
  if ((before.sa_flags & SA_SIGINFO) != 0 && before.sa_sigaction != nullptr) {
    before.sa_sigaction(signal, info, context);
  } else if (before.sa_handler != SIG_DFL && before.sa_handler != SIG_IGN) {
    before.sa_handler(signal);
  } else {
    ::signal(signal, SIG_DFL);
  }
}

void on_fault(int signal, siginfo_t* info, void* context) {
  auto& c = *static_cast<ucontext_t*>(context);
  fault f;
  f.what = signal == SIGBUS ? fault::kind::bus_error : signal == SIGFPE ? fault::kind::arithmetic
                                                                       : fault::kind::bad_address;
  f.address = info->si_addr;
  f.instruction = address_in(instruction_pointer(c));
  f.stack_pointer = address_in(stack_pointer(c));
  f.division_by_zero = signal == SIGFPE && info->si_code == FPE_INTDIV;
  void* stack_top = nullptr;
  const fault_claim claim = claimer.load(std::memory_order_acquire);
  // A fault the kernel's code did not cause itself (sent by kill, say) is not a kernel's.
  const bool from_code = info->si_code > 0;
  if (fault_landing landing = (claim != nullptr && from_code) ? claim(f, stack_top) : nullptr) {
    resume_in(c, landing, stack_top);
    return;
  }
  pass_on(signal, info, context);
}

// The alternate stack of one OS thread, unmapped when the thread ends.
struct alternate_stack {
  void* memory = nullptr;
  std::size_t size = 0;
  ~alternate_stack() {
    if (memory == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    ::sigaltstack(&off, nullptr);
    ::munmap(memory, size);
  }
};

}  // namespace

bool fault_handling_supported() { return true; }

void install_fault_handlers(fault_claim claim) {
  static std::once_flag once;
  std::call_once(once, [claim] {
    claimer.store(claim, std::memory_order_release);
    for (std::size_t i = 0; i < std::size(handled_signals); ++i) {
      struct sigaction action{};
      action.sa_sigaction = on_fault;
      action.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      ::sigaction(handled_signals[i], &action, &previous[i]);
    }
  });
}

void prepare_thread_for_faults() {
  thread_local alternate_stack stack;
  if (stack.memory != nullptr) return;
  // Room for the handler and a previous one it passes the fault on to (a
  // sanitizer's report needs tens of KiB).
  const std::size_t size = std::max<std::size_t>(256 * 1024, static_cast<std::size_t>(SIGSTKSZ));
  void* memory = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return;
  stack_t s{};
  s.ss_sp = memory;
  s.ss_size = size;
  if (::sigaltstack(&s, nullptr) != 0) {
    ::munmap(memory, size);
    return;
  }
  stack.memory = memory;
  stack.size = size;
}

}  // namespace cusim::detail::platform
