# Where Thrust's headers are (the test suite's Thrust programs), and the
# flags those programs need in a sanitizer build: UBSan's null check stops
# Thrust 1.17's own device_reference, which dispatches through
# `*(System*)nullptr` on purpose (thrust/detail/reference.h: "avoid
# default-constructing a system").
macro(cusim_find_thrust)
  include(CheckIncludeFileCXX)
  check_include_file_cxx(thrust/version.h CUSIM_HAVE_THRUST)
  set(CUSIM_THRUST_SANITIZE_FLAGS)
  if(CUSIM_SANITIZE MATCHES "address|undefined")
    set(CUSIM_THRUST_SANITIZE_FLAGS -Xcompiler -fno-sanitize=null)
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
