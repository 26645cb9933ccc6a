// Fault handling where cusim has no platform layer for it (-DCUSIM_PLATFORM=generic,
// other systems): none; a fault in a kernel ends the process as it would
// without cusim. CMake builds this file or faults_linux.cpp.
#include "platform/faults.hpp"

namespace cusim::detail::platform {

bool fault_handling_supported() { return false; }
void install_fault_handlers(fault_claim) {}
void prepare_thread_for_faults() {}

}  // namespace cusim::detail::platform
