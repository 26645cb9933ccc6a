# Where Thrust's headers are, for the test suite's Thrust programs (a test
# of semantics, a sample). Only in the plain build of the suite: what they
# check is header code, which runs the same there, and the sanitizer, arm64
# and generic-platform builds of the suite took CI past 20 minutes with
# them (two heavy files to compile four more times).
macro(cusim_find_thrust)
  set(CUSIM_HAVE_THRUST OFF)
  if(NOT CUSIM_SANITIZE AND NOT CMAKE_CROSSCOMPILING AND NOT CUSIM_PLATFORM STREQUAL "generic")
    include(CheckIncludeFileCXX)
    check_include_file_cxx(thrust/version.h CUSIM_THRUST_HEADERS)
    set(CUSIM_HAVE_THRUST ${CUSIM_THRUST_HEADERS})
  endif()
endmacro()

# One switch applies a sanitizer to every target of the build:
#   cmake -DCUSIM_SANITIZE=address|undefined|thread
# The fiber layer announces its stack switches to ASan and TSan (see
# src/fiber/context.cpp), so fiber code is checked like ordinary code.
if(CUSIM_SANITIZE STREQUAL "")
  return()
endif()
if(CUSIM_SANITIZE STREQUAL "address")
  set(_flags -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
elseif(CUSIM_SANITIZE STREQUAL "undefined")
  set(_flags -fsanitize=undefined -fno-sanitize-recover=undefined)
elseif(CUSIM_SANITIZE STREQUAL "thread")
  set(_flags -fsanitize=thread)
else()
  message(FATAL_ERROR "CUSIM_SANITIZE must be address, undefined or thread, not '${CUSIM_SANITIZE}'")
endif()
# clang's UBSan checks two things GCC's does not, which cusim does on
# purpose: its runtime API takes any int in an enum parameter, as CUDA's C
# API does, and answers an invalid one with an error (-fsanitize=enum
# calls merely holding it undefined); its fault tests compute addresses
# from a null pointer to fault at them (pointer-overflow).
if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND NOT CUSIM_SANITIZE STREQUAL "thread")
  list(APPEND _flags -fno-sanitize=enum,pointer-overflow)
endif()
set(CUSIM_SANITIZE_FLAGS ${_flags})
add_compile_options(${_flags})
add_link_options(${_flags})
add_compile_definitions(CUSIM_SANITIZE_${CUSIM_SANITIZE}=1)
