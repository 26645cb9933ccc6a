# cusim_add_cuda_program(<name> <source.cu>... [FLAGS <cusim-cc flags>...])
# Builds a CUDA program with cusim-cc into bin/<name>, as a user's Makefile
# would: the sources stay plain .cu files that nvcc also builds.
function(cusim_add_cuda_program name)
  cmake_parse_arguments(ARG "" "" "FLAGS" ${ARGN})
  set(sources)
  foreach(src IN LISTS ARG_UNPARSED_ARGUMENTS)
    list(APPEND sources ${CMAKE_CURRENT_SOURCE_DIR}/${src})
  endforeach()
  set(output ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/${name})
  add_custom_command(
    OUTPUT ${output}
    COMMAND $<TARGET_FILE:cusim-cc> -O2 ${ARG_FLAGS} ${sources} -o ${output}
    DEPENDS ${sources} cusim-cc cusim_runtime
    IMPLICIT_DEPENDS CXX ${sources}
    COMMENT "cusim-cc ${name}"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${output})
endfunction()
