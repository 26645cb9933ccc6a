# Compressed debug information in cusim's own build: the linker writes each
# program's and library's debug sections compressed (-gz at link time). The
# test suite links the runtime, with its debug information, into some 200
# programs per build tree, and the slow tier makes more trees (sanitizers,
# arm64, generic platform, checked samples): about 9 GiB uncompressed, which
# once filled a CI machine's disk. Objects stay uncompressed: compressing
# them too cost the build more time than it saved space. gdb, addr2line
# (cusim's source lines) and Valgrind read compressed sections as they are.
# Only where cusim is the top-level project: a project that embeds it keeps
# its own choice.
include_guard(GLOBAL)
include(CheckLinkerFlag)
if(NOT CUSIM_TOP_LEVEL)
  return()
endif()
check_linker_flag(CXX -gz CUSIM_LINKER_COMPRESSES_DEBUG)
if(CUSIM_LINKER_COMPRESSES_DEBUG)
  add_link_options(-gz)
endif()

# Line tables only (-g1; .cu files: cusim-cc -lineinfo) instead of full
# debug information: for the suite's other builds of cusim
# (cmake/RunSuiteVariant.cmake), whose reports need file and line but no
# debugger's variables, and which build faster and smaller so.
option(CUSIM_LINE_TABLES_ONLY "Debug information: line tables only" OFF)
if(CUSIM_LINE_TABLES_ONLY)
  foreach(language C CXX)
    foreach(config DEBUG RELWITHDEBINFO)
      string(REGEX REPLACE "(^| )-g( |$)" "\\1-g1\\2" CMAKE_${language}_FLAGS_${config} "${CMAKE_${language}_FLAGS_${config}}")
    endforeach()
  endforeach()
endif()
