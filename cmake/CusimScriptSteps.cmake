# Helpers for cusim's cmake -P test scripts.

# step([OUTPUT var] command...): runs the command, fails the script with its
# output if it fails; stores stdout+stderr in var when asked.
function(step)
  cmake_parse_arguments(ARG "" "OUTPUT" "" ${ARGN})
  execute_process(COMMAND ${ARG_UNPARSED_ARGUMENTS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARG_UNPARSED_ARGUMENTS}")
    message(FATAL_ERROR "'${shown}' failed (${rc}):\n${out}")
  endif()
  if(ARG_OUTPUT)
    set(${ARG_OUTPUT} "${out}" PARENT_SCOPE)
  endif()
endfunction()

# expect_match(text regex) / expect_no_match(text regex)
function(expect_match text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "expected output matching '${regex}', got:\n${text}")
  endif()
endfunction()
function(expect_no_match text regex)
  if(text MATCHES "${regex}")
    message(FATAL_ERROR "expected no output matching '${regex}', got:\n${text}")
  endif()
endfunction()

# require_variables(var...): fails the script unless each was given with -D.
function(require_variables)
  foreach(var IN LISTS ARGN)
    if(NOT DEFINED ${var})
      get_filename_component(script "${CMAKE_SCRIPT_MODE_FILE}" NAME)
      message(FATAL_ERROR "${script} needs -D${var}=...")
    endif()
  endforeach()
endfunction()
