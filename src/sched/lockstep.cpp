// Lockstep warps (cusim-cc --warp-mode=lockstep): the program is compiled
// with ThreadSanitizer's instrumentation, which calls a hook before every
// memory access and atomic, and linked with these hooks instead of TSan's
// runtime. In a kernel each hook is a spin point: the thread steps aside and
// the block's other runnable threads each make their next access before it
// makes its own. Threads of a block thus advance one memory access at a time
// together, as the lanes of a converged pre-Volta warp advance one
// instruction at a time; code that counts on that (a warp-synchronous
// reduction without __syncwarp) gives the answer it gave on such a GPU.
// Divergent paths interleave instead of running one after the other, so the
// deadlock of a spin lock between the lanes of one pre-Volta warp is not
// reproduced. On the host the hooks do nothing but the access.
#include <cusim/detail/builtins.hpp>
#include <cusim/detail/progress.hpp>

namespace {

inline void step() {
  if (cusim::detail::current_thread != nullptr) cusim::detail::spin_point();
}

void on_access(void*, unsigned int, bool, void*) { step(); }
void on_atomic(volatile void*) { step(); }

}  // namespace

#include "support/instrumentation_hooks.inc"
