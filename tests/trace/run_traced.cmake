# Runs PROGRAM with CUSIM_TRACE=TRACE, then the trace checker on what it
# wrote with CHECKS (a ;-list of its options). Either failing fails the test.
file(REMOVE "${TRACE}")
execute_process(COMMAND ${CMAKE_COMMAND} -E env CUSIM_TRACE=${TRACE} ${EMULATOR} ${PROGRAM}
  RESULT_VARIABLE program_result OUTPUT_VARIABLE program_output ERROR_VARIABLE program_errors)
if(NOT program_result EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${program_result}):\n${program_output}${program_errors}")
endif()
if(NOT program_errors MATCHES "trace: [^\n]* written")
  message(FATAL_ERROR "${PROGRAM} did not say it wrote its trace:\n${program_errors}")
endif()
execute_process(COMMAND ${EMULATOR} ${CHECKER} ${TRACE} ${CHECKS} RESULT_VARIABLE check_result)
if(NOT check_result EQUAL 0)
  message(FATAL_ERROR "the trace ${TRACE} failed its checks")
endif()
