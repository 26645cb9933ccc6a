# Checks a tool's --help: a manual page on stdout with exit status 0, the
# sections every tool's page has, and no line of 80 columns or more.
#   cmake -DTOOL=<path to the tool> -P check_help.cmake
execute_process(COMMAND ${TOOL} --help RESULT_VARIABLE status OUTPUT_VARIABLE page ERROR_VARIABLE errors)
get_filename_component(name ${TOOL} NAME)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${name} --help exited with ${status}, not 0")
endif()
if(NOT errors STREQUAL "")
  message(FATAL_ERROR "${name} --help wrote to stderr:\n${errors}")
endif()
foreach(section NAME SYNOPSIS DESCRIPTION OPTIONS ENVIRONMENT "EXIT STATUS" EXAMPLES "SEE ALSO")
  if(NOT page MATCHES "(^|\n)${section}\n")
    message(FATAL_ERROR "${name} --help has no ${section} section")
  endif()
endforeach()
string(REPEAT "[^\n]" 80 eighty_columns)  # CMake's regular expressions have no {80}
string(REGEX MATCH "[^\n]*${eighty_columns}[^\n]*" long_line "${page}")
if(long_line)
  message(FATAL_ERROR "${name} --help has a line of 80 columns or more:\n${long_line}")
endif()

# A bad command line: exit status 2, the problem and a pointer to --help on
# stderr, and not the whole page.
execute_process(COMMAND ${TOOL} --no-such-option RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE errors)
if(NOT status EQUAL 2 OR NOT errors MATCHES "^${name}: unknown option [^\n]*--no-such-option.*${name} --help"
   OR errors MATCHES "DESCRIPTION")
  message(FATAL_ERROR "${name} --no-such-option: exit ${status}, stderr:\n${errors}")
endif()
