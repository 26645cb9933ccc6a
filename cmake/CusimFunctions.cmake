# CMake functions for building CUDA sources with cusim-cc. Available after
# find_package(cusim), add_subdirectory(<cusim>) or, in cusim's own tree,
# include(CusimFunctions).
#
#   cusim_add_executable(<name> <source>... [ARCH sm_XX] [CUSIM_FLAGS <flag>...])
#   cusim_add_library(<name> [STATIC|SHARED] <source>... [ARCH sm_XX] [CUSIM_FLAGS <flag>...])
#
# .cu sources are compiled by cusim-cc (with the target's include directories
# and compile definitions, the build type's -O/-g, and CUSIM_FLAGS, which take
# nvcc's options); other sources by the C++ compiler as usual. The target links
# cusim::runtime (cusim::runtime_race with CUSIM_FLAGS --check=race,
# cusim::runtime_memcheck with --check=memory; cusim::lockstep too with
# --warp-mode=lockstep, cusim::banks with --check=banks). Header dependencies of .cu files are tracked through
# cusim-cc's -MD output. ARCH sets the device profile the program models by
# default (as nvcc's -arch; CUSIM_DEVICE overrides it at run time).
include_guard(GLOBAL)

# The cusim-cc to run: the target in a build tree or add_subdirectory, the
# imported one after find_package. <command> is how to run it: in a cross
# build, through the emulator (CMake before 3.28 does not add it to custom
# commands itself; naming the file, not the target, keeps later ones from
# adding it twice). <target> is what the compiled objects depend on.
function(_cusim_compiler command target)
  set(name cusim::cusim-cc)
  if(TARGET cusim-cc)
    set(name cusim-cc)
  endif()
  set(${target} ${name} PARENT_SCOPE)
  if(CMAKE_CROSSCOMPILING AND CMAKE_CROSSCOMPILING_EMULATOR)
    set(${command} ${CMAKE_CROSSCOMPILING_EMULATOR} "$<TARGET_FILE:${name}>" PARENT_SCOPE)
  else()
    set(${command} ${name} PARENT_SCOPE)
  endif()
endfunction()

# Splits ARGN into .cu sources (compiled here into objects) and the rest.
# Sets <target>_cusim_sources in the caller: the objects and the other sources.
function(_cusim_compile_sources target arch)
  cmake_parse_arguments(ARG "" "" "CUSIM_FLAGS" ${ARGN})
  _cusim_compiler(compiler compiler_target)
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(definitions "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  # cusim's own builds with CUSIM_LINE_TABLES_ONLY (CusimCompressedDebug.cmake): line tables only.
  set(debug_flag -g)
  if(CUSIM_LINE_TABLES_ONLY)
    set(debug_flag -lineinfo)
  endif()
  set(build_type_flags
      "$<$<CONFIG:Debug,RelWithDebInfo>:${debug_flag}>" "$<$<CONFIG:Release>:-O3>" "$<$<CONFIG:RelWithDebInfo>:-O2>"
      "$<$<CONFIG:MinSizeRel>:-Os>")
  set(pic "$<TARGET_PROPERTY:${target},POSITION_INDEPENDENT_CODE>")
  set(shared "$<STREQUAL:$<TARGET_PROPERTY:${target},TYPE>,SHARED_LIBRARY>")
  set(pic_flag "$<$<OR:${shared},$<BOOL:${pic}>>:-fPIC>")
  set(arch_flag)
  if(arch)
    set(arch_flag -arch=${arch})
  endif()
  set(sources)
  foreach(src IN LISTS ARG_UNPARSED_ARGUMENTS)
    get_filename_component(path "${src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT path MATCHES "\\.cu$")
      list(APPEND sources "${path}")
      continue()
    endif()
    file(RELATIVE_PATH relative "${CMAKE_CURRENT_SOURCE_DIR}" "${path}")
    string(REPLACE "../" "__/" relative "${relative}")
    set(object "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.cusim/${relative}.o")
    get_filename_component(object_dir "${object}" DIRECTORY)
    file(MAKE_DIRECTORY "${object_dir}")
    add_custom_command(
      OUTPUT "${object}"
      COMMAND ${compiler} -c "${path}" -o "${object}" -MD -MF "${object}.d" -MT "${object}"
              "$<$<BOOL:${includes}>:-I$<JOIN:${includes},;-I>>"
              "$<$<BOOL:${definitions}>:-D$<JOIN:${definitions},;-D>>"
              ${build_type_flags} ${pic_flag} ${arch_flag} ${ARG_CUSIM_FLAGS}
      DEPENDS "${path}" ${compiler_target}
      DEPFILE "${object}.d"
      COMMENT "cusim-cc ${relative}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND sources "${object}")
  endforeach()
  set(${target}_cusim_sources ${sources} PARENT_SCOPE)
endfunction()

# The runtime a target links: a checking one (and its sanitizer's runtime)
# when its CUSIM_FLAGS ask for --check=race or --check=memory.
function(_cusim_link_runtime target scope)
  cmake_parse_arguments(ARG "" "" "CUSIM_FLAGS" ${ARGN})
  if("--check=race" IN_LIST ARG_CUSIM_FLAGS)
    target_link_libraries(${target} ${scope} cusim::runtime_race)
    target_link_options(${target} ${scope} -fsanitize=thread)
  elseif("--check=memory" IN_LIST ARG_CUSIM_FLAGS)
    target_link_libraries(${target} ${scope} cusim::runtime_memcheck)
    target_link_options(${target} ${scope} -fsanitize=address)
  elseif("--warp-mode=lockstep" IN_LIST ARG_CUSIM_FLAGS)
    target_link_libraries(${target} ${scope} cusim::lockstep)
  elseif("--check=banks" IN_LIST ARG_CUSIM_FLAGS)
    target_link_libraries(${target} ${scope} cusim::banks)
  elseif("--check=init" IN_LIST ARG_CUSIM_FLAGS)
    target_link_libraries(${target} ${scope} cusim::initcheck)
  else()
    target_link_libraries(${target} ${scope} cusim::runtime)
  endif()
endfunction()

function(cusim_add_executable name)
  cmake_parse_arguments(ARG "" "ARCH" "" ${ARGN})
  add_executable(${name})
  _cusim_compile_sources(${name} "${ARG_ARCH}" ${ARG_UNPARSED_ARGUMENTS})
  target_sources(${name} PRIVATE ${${name}_cusim_sources})
  _cusim_link_runtime(${name} PRIVATE ${ARG_UNPARSED_ARGUMENTS})
endfunction()

function(cusim_add_library name)
  cmake_parse_arguments(ARG "STATIC;SHARED" "ARCH" "" ${ARGN})
  set(kind STATIC)
  if(ARG_SHARED)
    set(kind SHARED)
  endif()
  add_library(${name} ${kind})
  _cusim_compile_sources(${name} "${ARG_ARCH}" ${ARG_UNPARSED_ARGUMENTS})
  target_sources(${name} PRIVATE ${${name}_cusim_sources})
  _cusim_link_runtime(${name} PUBLIC ${ARG_UNPARSED_ARGUMENTS})
endfunction()
