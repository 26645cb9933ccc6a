# Cross-compiles cusim for 64-bit Arm Linux on an x86-64 Debian machine, and
# runs what it builds under qemu-user (docs/platforms.md):
#   apt-get install g++-aarch64-linux-gnu qemu-user \
#     libboost-context-dev:arm64 libfmt-dev:arm64   # after dpkg --add-architecture arm64
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchains/aarch64-linux-gnu.cmake
# The arm64 libraries come from Debian's multiarch directories
# (/usr/lib/aarch64-linux-gnu), which the cross compiler searches itself.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# Every aarch64 program the build or the tests run (cusim-cc compiling a .cu
# file, a test) goes through qemu-user. With libc6:arm64 installed, the
# program's loader and libraries are where qemu looks by default.
find_program(CUSIM_QEMU_AARCH64 qemu-aarch64 REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CUSIM_QEMU_AARCH64})
