# Runs PROGRAM and compares what it prints on stdout with GOLDEN, the same
# program's output recorded on a real GPU: cusim must answer as the GPU did.
# EMULATOR, if given, runs it (qemu-user in a cross build).
#   cmake -DPROGRAM=<exe> -DGOLDEN=<file> [-DEMULATOR=<command>] -P CompareWithGolden.cmake
execute_process(COMMAND ${EMULATOR} ${PROGRAM} OUTPUT_VARIABLE output RESULT_VARIABLE status)
file(READ ${GOLDEN} golden)
string(STRIP "${output}" output)
string(STRIP "${golden}" golden)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${status}:\n${output}")
endif()
if(NOT output STREQUAL golden)
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/cusim-output.txt "${output}\n")
  execute_process(COMMAND diff -u ${GOLDEN} ${CMAKE_CURRENT_BINARY_DIR}/cusim-output.txt OUTPUT_VARIABLE difference)
  message(FATAL_ERROR "cusim's output differs from the GPU's (${GOLDEN}):\n${difference}")
endif()
message(STATUS "the same output as the GPU's (${GOLDEN})")
