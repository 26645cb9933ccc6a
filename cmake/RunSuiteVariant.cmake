# Builds cusim another way in its own build tree and runs the test suite
# there: all but the slow tests, the fuzzing, and what does not depend on
# how cusim is built (nvcc's compile checks, the install and packaging
# checks: the plain build runs those). Invoked by the CTest tests
# sanitizer.address, sanitizer.thread and platform.aarch64 (clang: by hand):
#   cmake -DSOURCE_DIR=... -DBINARY_DIR=... -DVARIANT=<variant> [-DCLANG=... -DCLANGXX=...]
#         [-DADDRESS_WITH_CLANG=ON] -P RunSuiteVariant.cmake
# Variants:
#   address, thread  cusim built with that sanitizer (Debug), so the suite
#                    checks cusim's own memory use and synchronisation;
#                    address with clang when ADDRESS_WITH_CLANG is ON, which
#                    then also checks that cusim builds and works with clang;
#   clang            every C and C++ file compiled by clang (the .cu files
#                    too: cusim-cc's host compiler is the build's);
#   aarch64          cross-compiled for arm64 Linux, the tests of what the
#                    platform changes built and run under qemu-user
#                    (cmake/toolchains/aarch64-linux-gnu.cmake).
include(${CMAKE_CURRENT_LIST_DIR}/CusimScriptSteps.cmake)
require_variables(SOURCE_DIR BINARY_DIR VARIANT)

# Builds only the programs the tests that `ctest_selection` (e.g. -R regex)
# picks run (those in <build>/bin/ their commands name), cusim-cc and the
# runtime for tests that build a program as they run, and the unit tests
# (CTest learns their names from the built program).
function(build_programs_of_tests build_dir jobs)
  execute_process(COMMAND ${CMAKE_CTEST_COMMAND} --show-only=json-v1 ${ARGN} WORKING_DIRECTORY ${build_dir}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE listing ERROR_VARIABLE errors)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ctest --show-only=json-v1 failed (${rc}):\n${errors}")
  endif()
  set(targets cusim-cc cusim_runtime cusim_unit_tests)
  string(JSON count LENGTH "${listing}" tests)
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON arguments ERROR_VARIABLE no_command LENGTH "${listing}" tests ${i} command)
    if(no_command)
      continue()
    endif()
    math(EXPR last_argument "${arguments} - 1")
    foreach(a RANGE ${last_argument})
      string(JSON argument GET "${listing}" tests ${i} command ${a})
      if(argument MATCHES "^(-DPROGRAM=)?${build_dir}/bin/([A-Za-z0-9_+-]+)$")
        list(APPEND targets ${CMAKE_MATCH_2})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES targets)
  step(${CMAKE_COMMAND} --build ${build_dir} -j ${jobs} --target ${targets})
endfunction()
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)

if(VARIANT STREQUAL "address" OR VARIANT STREQUAL "thread")
  # Without the samples: they exercise nothing of the runtime the semantics
  # tests do not, the plain build runs them, and checks.memory and
  # checks.race run them instrumented; here they took a fifth of the two
  # variants' time, which CI's 20 minutes could not spare.
  set(options -DCUSIM_SANITIZE=${VARIANT} -DCMAKE_BUILD_TYPE=Debug -DCUSIM_BUILD_SAMPLES=OFF)
  # cusim-cc's clang front end doubles what each .cu file costs to build,
  # and more under ASan: both variants check the runtime and do without it.
  # The front end's memory is checked by its fuzzer (fuzz.facts, with ASan)
  # and by the plain build's tests.
  list(APPEND options -DCUSIM_KERNEL_FACTS=OFF)
  if(VARIANT STREQUAL "address" AND ADDRESS_WITH_CLANG)
    require_variables(CLANG CLANGXX)
    list(APPEND options -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_CXX_COMPILER=${CLANGXX})
  endif()
elseif(VARIANT STREQUAL "clang")
  require_variables(CLANG CLANGXX)
  set(options -DCMAKE_C_COMPILER=${CLANG} -DCMAKE_CXX_COMPILER=${CLANGXX} -DCUSIM_KERNEL_FACTS=OFF)
elseif(VARIANT STREQUAL "aarch64")
  # Without the samples too (as the sanitizer variants): the semantics tests
  # cover what they run, and each cross-built sample run under qemu cost
  # this variant a quarter of its time.
  set(options -DCMAKE_TOOLCHAIN_FILE=${SOURCE_DIR}/cmake/toolchains/aarch64-linux-gnu.cmake -DCUSIM_BUILD_SAMPLES=OFF)
else()
  message(FATAL_ERROR "RunSuiteVariant.cmake: unknown VARIANT '${VARIANT}' (address, thread, clang or aarch64)")
endif()

# Line tables only: reports name files and lines; no test here runs a
# debugger, and full debug information cost these builds time and disk.
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} ${options} -DCUSIM_BUILD_BENCH=OFF -DCUSIM_LINE_TABLES_ONLY=ON)
set(selected)
if(VARIANT STREQUAL "aarch64")
  # What the platform changes: the unit tests (fibers, stacks, faults,
  # memory; their names have no dot, or none before a colon), and the semantics of waiting, warps, atomics, memory, streams,
  # dynamic parallelism and faults. Not the API's and libraries' answers,
  # reports, textures, numerics: those are the same code on either
  # architecture, and building all of it took this variant half of CI's
  # slow tier (a core for 8 minutes of 19).
  set(selected -R "^([^.]*:|[^.]*$|semantics[.](warp|dp|faults|cg|schedule|progress|atomics|memory|runtime|streams)|checks[.]sync|platform)")
endif()
if(selected)
  build_programs_of_tests(${BINARY_DIR} ${cores} ${selected})
else()
  step(${CMAKE_COMMAND} --build ${BINARY_DIR} -j ${cores})
endif()
# Under the sanitizers, not the rewriter's tests either: each builds a
# program, which took half the ASan variant's test time and a quarter of
# TSan's, and what they would check is checked already. Under ASan, the
# rewriter's memory use on the same inputs is checked by the corpus replay
# (fuzz.rewrite_corpus replays tests/rewrite, tests/semantics and the
# samples through the instrumented rewriter), and the instrumented cusim-cc
# compiles every .cu file of this build; under TSan, cusim-cc is not
# instrumented, and its only second thread is clang's parse.
set(left_out "slow|fuzz|nvcc|integration")
if(VARIANT STREQUAL "thread" OR VARIANT STREQUAL "address")
  string(APPEND left_out "|rewrite")
endif()
set(suite ${CMAKE_CTEST_COMMAND} --test-dir ${BINARY_DIR} -LE "^(${left_out})$" --output-on-failure -j ${cores})
step(${suite} ${selected})
if(VARIANT STREQUAL "aarch64")
  # Again with 64 KiB pages, as some arm64 kernels have: the tests of what
  # the page size touches (fiber stacks and their guard pages, faults, deep
  # dynamic parallelism, barriers, shared memory). qemu-user
  # only approximates them: ASan cannot start (no memory checks), and
  # mincore answers per 4 KiB host page (no stack high-water mark).
  step(${CMAKE_COMMAND} -E env QEMU_PAGESIZE=65536 ${suite}
       -R "^(platform|memory|barrier|shared memory|semantics[.](faults|dp|schedule|progress))[.:]"
       -E "^(checks[.]memory[.].*|semantics[.]kernel_report[.]stack)$")
endif()
