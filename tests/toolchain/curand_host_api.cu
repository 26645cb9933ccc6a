// cuRAND's host API is not provided: a call fails to compile with a message
// that names the function and the device API to use instead
// (toolchain.curand_host_api_is_named).
#include <curand.h>

int main() {
  curandGenerator_t generator;
  curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT);
  return 0;
}
