// The library tests' checks: each prints "what: value", so that the output
// can be compared with a GPU's (tests/differential.txt), and notes a value
// other than the one wanted; passed() ends the program with PASSED or FAILED.
#pragma once
#include <cstdio>

class expectations {
 public:
  void check(const char* what, long long got, long long want) {
    std::printf("%s: %lld\n", what, got);
    if (got != want) {
      std::printf("  expected %lld\n", want);
      ok_ = false;
    }
  }
  int passed() const {
    std::printf(ok_ ? "PASSED\n" : "FAILED\n");
    return ok_ ? 0 : 1;
  }

 private:
  bool ok_ = true;
};
