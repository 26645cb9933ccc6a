# gold instead of the BFD linker for cusim's own build, where the compiler
# can use it (binutils installs it beside ld on Debian): the build and the
# test suite link the static runtime, with its debug information, into some
# 200 programs per build tree, and gold links each in about 0.35 s where
# BFD takes 0.85 s (RelWithDebInfo; measured on CI's 2 cores). Nothing else
# changes: the same archives, resolved in the same order, and the programs'
# behaviour is the suite's to check. Only where cusim is the top-level
# project: a project that embeds it keeps its own linker. CUSIM_LINKER=default
# leaves the compiler's own choice.
include_guard(GLOBAL)
include(CheckLinkerFlag)
if(NOT CUSIM_TOP_LEVEL)
  return()
endif()
set(CUSIM_LINKER "gold" CACHE STRING "Linker for cusim's own programs: gold (where available) or default")
set_property(CACHE CUSIM_LINKER PROPERTY STRINGS gold default)
if(CUSIM_LINKER STREQUAL "gold")
  check_linker_flag(CXX -fuse-ld=gold CUSIM_LINKER_GOLD_WORKS)
  if(CUSIM_LINKER_GOLD_WORKS)
    add_link_options(-fuse-ld=gold)
  endif()
elseif(NOT CUSIM_LINKER STREQUAL "default")
  message(FATAL_ERROR "CUSIM_LINKER must be gold or default, not '${CUSIM_LINKER}'")
endif()
