# Differential tests (tests/differential.txt): each program's cusim build
# against the output its nvcc build gave on a GPU (tests/golden/<name>.txt),
# through cusim-diff; a test whose golden is missing is skipped. Where nvcc
# is installed, the nvcc.build.* tests (tests/toolchain/) build every listed
# source for sm_90 with the flags below, so that a machine without a GPU
# still checks that the GPU side compiles and links.

# nvcc's options for `source` (relative to the project): relocatable device
# code for kernels that launch kernels (and the report's tests, which count
# child grids), and the file's own "// FLAGS:" lines (the same rules as
# scripts/record-gpu-goldens.sh).
function(_cusim_nvcc_flags source out)
  set(flags -arch=sm_90 -I${PROJECT_SOURCE_DIR}/samples)
  if(source MATCHES "/dp/|/semantics/report/|-dp-")
    list(APPEND flags -rdc=true -lcudadevrt)
  endif()
  file(STRINGS ${PROJECT_SOURCE_DIR}/${source} annotations REGEX "^// FLAGS: ")
  foreach(annotation IN LISTS annotations)
    string(REGEX REPLACE "^// FLAGS: " "" annotation "${annotation}")
    separate_arguments(annotation UNIX_COMMAND "${annotation}")
    list(APPEND flags ${annotation})
  endforeach()
  set(${out} ${flags} PARENT_SCOPE)
endfunction()

cusim_find_thrust()  # for --needs-thrust

# A line added to the list makes its test at the next build, not only at the
# next fresh configure.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/differential.txt)
file(STRINGS ${PROJECT_SOURCE_DIR}/tests/differential.txt _entries REGEX "^[^#]")
foreach(entry IN LISTS _entries)
  separate_arguments(fields UNIX_COMMAND "${entry}")
  list(POP_FRONT fields name target source)
  set(diff_options)
  set(arguments)
  set(known_difference FALSE)
  set(build_only FALSE)
  set(skip FALSE)
  while(fields)
    list(POP_FRONT fields field)
    if(field STREQUAL "--unordered")
      list(APPEND diff_options ${field})
    elseif(field STREQUAL "--known-difference")
      set(known_difference TRUE)
    elseif(field STREQUAL "--build-only")
      set(build_only TRUE)
    elseif(field STREQUAL "--needs-thrust")
      # Built only where Thrust's headers are (tests/semantics, samples).
      if(NOT CUSIM_HAVE_THRUST)
        set(skip TRUE)
      endif()
    elseif(field STREQUAL "--needs-front-end")
      # Right only where cusim-cc has its clang front end (kernel facts).
      if(NOT CUSIM_CC_KERNEL_FACTS)
        set(build_only TRUE)
      endif()
    elseif(field MATCHES "^--(rel|abs|env)$")
      list(POP_FRONT fields value)
      list(APPEND diff_options ${field} ${value})
    else()
      list(APPEND arguments ${field})
    endif()
  endwhile()
  # Sanitizer builds of cusim check cusim itself: they instrument the test
  # programs' kernels too, whose deliberate races (atomics' hammer, a kernel
  # polling a flag the host sets) TSan reports by exiting with 66, and
  # sample 100's full-GPU grid outgrows TSan's memory. The plain build
  # compares with the GPU.
  if(NOT skip AND NOT build_only AND NOT CUSIM_SANITIZE_FLAGS)
    add_test(NAME diff.${name}
      COMMAND cusim-diff ${diff_options} ${PROJECT_SOURCE_DIR}/tests/golden/${name}.txt -- $<TARGET_FILE:${target}>
              ${arguments})
    set_tests_properties(diff.${name} PROPERTIES LABELS "differential;quick" SKIP_RETURN_CODE 77)
    if(known_difference)
      # Listed with its reason in tests/differential.txt: the test fails once
      # cusim agrees, so that the entry is updated.
      set_tests_properties(diff.${name} PROPERTIES WILL_FAIL TRUE LABELS "differential;quick;known-difference")
    endif()
  endif()
endforeach()

# cusim-diff itself, against a golden written by hand (tests/data/cusim-diff).
set(_example ${PROJECT_SOURCE_DIR}/tests/data/cusim-diff/example.txt)
set(_hello "block 0 says hello\\nblock 1 says hello\\n")
set(_swapped "block 1 says hello\\nblock 0 says hello\\n")
foreach(case
    "agrees||sum 1.0000001 of 3 items, took 9.5 ms\\n${_hello}|agrees with the GPU .a test, not a GPU.: 3 lines, exit 0"
    "float-exact||sum 1.0000002 of 3 items, took 5.0 ms\\n${_hello}|line 1: value 1: expected 1.0000001, got 1.0000002 .floating point compared exactly"
    "float-relative|--rel,1e-6|sum 1.0000002 of 3 items, took 5.0 ms\\n${_hello}|agrees with the GPU"
    "integer|--rel,1e-6|sum 1.0000001 of 4 items, took 5.0 ms\\n${_hello}|line 1: value 2: expected 3, got 4"
    "text||sum 1.0000001 of 3 things, took 5.0 ms\\n${_hello}|text \" items, took \" became \" things, took \""
    "ordered||sum 1.0000001 of 3 items, took 5.0 ms\\n${_swapped}|line 2: value 1: expected 0, got 1"
    "unordered|--unordered|sum 1.0000001 of 3 items, took 5.0 ms\\n${_swapped}|agrees with the GPU"
    "missing-line||sum 1.0000001 of 3 items, took 5.0 ms\\nblock 0 says hello\\n|line 3: missing from the output"
    "exit||sum 1.0000001 of 3 items, took 5.0 ms\\n${_hello}exit 3|exit: the GPU's 0, cusim's exit 3")
  string(REPLACE "|" ";" fields "${case}")
  list(GET fields 0 name)
  list(GET fields 1 options)
  list(GET fields 2 output)
  list(GET fields 3 expected)
  string(REPLACE "," ";" options "${options}")
  set(script "printf '${output}'")
  if(output MATCHES "exit 3$")
    string(REGEX REPLACE "exit 3$" "" output "${output}")
    set(script "printf '${output}'; exit 3")
  endif()
  add_test(NAME differential.cusim_diff.${name} COMMAND cusim-diff ${options} ${_example} -- sh -c "${script}")
  set_tests_properties(differential.cusim_diff.${name} PROPERTIES LABELS "differential;quick"
    PASS_REGULAR_EXPRESSION "${expected}")
endforeach()
add_test(NAME differential.cusim_diff.no_golden COMMAND cusim-diff ${_example}.absent -- true)
set_tests_properties(differential.cusim_diff.no_golden PROPERTIES LABELS "differential;quick"
  PASS_REGULAR_EXPRESSION "no golden [^\n]*absent yet: record one on a GPU machine")
