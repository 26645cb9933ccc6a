// libFuzzer entry point for the merge of cusim-cc's __CUDA_ARCH__ passes
// (tools/cusim-cc/device_pass.hpp). An input is the host pass's text, a NUL
// byte, and the device pass's; without a NUL, the device pass is the input
// with every other line dropped (differences everywhere). Merging must end
// cleanly whatever the texts: it has no way of refusing them.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "device_pass.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = input.find('\0');
  std::string host = input, device;
  if (nul != std::string::npos) {
    host = input.substr(0, nul);
    device = input.substr(nul + 1);
  } else {
    std::istringstream lines(input);
    int n = 0;
    for (std::string line; std::getline(lines, line); ++n) {
      if (n % 2 == 0) device += line + '\n';
    }
  }
  static_cast<void>(cusim::cc::merge_device_pass(host, device));
  return 0;
}
