# Compressed debug information (-gz) in cusim's own build. The test suite
# links the runtime, with its debug information, into some 200 programs per
# build tree, and the slow tier makes five more trees (sanitizers, arm64,
# generic platform, checked samples): about 9 GiB uncompressed, which once
# filled a CI machine's disk. Compressed, the debug sections take about a
# third; gdb, addr2line (cusim's source lines) and Valgrind read them as they
# are. Only where cusim is the top-level project: a project that embeds it
# keeps its own choice.
include_guard(GLOBAL)
include(CheckCXXCompilerFlag)
include(CheckLinkerFlag)
if(NOT CUSIM_TOP_LEVEL)
  return()
endif()
check_cxx_compiler_flag(-gz CUSIM_COMPILER_COMPRESSES_DEBUG)
check_linker_flag(CXX -gz CUSIM_LINKER_COMPRESSES_DEBUG)
if(CUSIM_COMPILER_COMPRESSES_DEBUG AND CUSIM_LINKER_COMPRESSES_DEBUG)
  add_compile_options($<$<COMPILE_LANGUAGE:C,CXX>:-gz>)
  add_link_options(-gz)
endif()
