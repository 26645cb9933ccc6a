# Builds and runs a project that consumes cusim the way users do, in a fresh
# work directory, then checks that editing a header rebuilds what includes it.
#   cmake -DMODE=package|build-tree|subdirectory|make -DSOURCE_DIR=<cusim> -DBINARY_DIR=<cusim build>
#         -DWORK_DIR=<scratch> -P run.cmake
foreach(var MODE SOURCE_DIR BINARY_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run.cmake needs -D${var}=...")
  endif()
endforeach()
include(${SOURCE_DIR}/cmake/CusimScriptSteps.cmake)

file(REMOVE_RECURSE ${WORK_DIR})
set(here ${CMAKE_CURRENT_LIST_DIR})

if(MODE STREQUAL "make")
  file(COPY ${here}/make/ DESTINATION ${WORK_DIR}/src)
  set(make_command make -C ${WORK_DIR}/src NVCC=${BINARY_DIR}/bin/cusim-cc)
  step(OUTPUT first ${make_command})
  step(OUTPUT run ${WORK_DIR}/src/histogram)
  expect_match("${run}" "histogram of 10000 values: PASSED")
  # -MMD -MP: a header edit rebuilds both objects; nothing else rebuilds.
  file(TOUCH ${WORK_DIR}/src/histogram.h)
  step(OUTPUT second ${make_command})
  expect_match("${second}" "-c histogram.cu -o histogram.o")
  expect_match("${second}" "-c main.cu -o main.o")
  step(OUTPUT third ${make_command} histogram)
  expect_match("${third}" "is up to date")
  return()
endif()

file(COPY ${here}/consumer/ DESTINATION ${WORK_DIR}/src)
set(configure ${CMAKE_COMMAND} -S ${WORK_DIR}/src -B ${WORK_DIR}/build -DCMAKE_BUILD_TYPE=RelWithDebInfo)
if(MODE STREQUAL "package")
  step(${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix)
  list(APPEND configure -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix)
elseif(MODE STREQUAL "build-tree")
  list(APPEND configure -Dcusim_DIR=${BINARY_DIR})
elseif(MODE STREQUAL "subdirectory")
  # Debug: this builds cusim itself, which unoptimised takes half the time;
  # the build type changes nothing the test checks. The cusim it builds has
  # the platform layer's generic fallbacks (-DCUSIM_PLATFORM=generic: no
  # guard pages, no fault handling, Boost.Context switches; src/platform/,
  # docs/platforms.md), which must keep compiling and working: samples that
  # cover barriers, warp collectives, grid sync, clusters and dynamic
  # parallelism run on them below. One build of cusim serves both checks,
  # where two cost CI three minutes.
  list(APPEND configure -DCUSIM_CONSUME=subdirectory -DCUSIM_SOURCE_DIR=${SOURCE_DIR} -DCMAKE_BUILD_TYPE=Debug
       -DCUSIM_PLATFORM=generic -DCUSIM_KERNEL_FACTS=OFF -DCUSIM_BUILD_SAMPLES=ON)
  set(generic_samples 010-vector-add 030-dot-product 065-warp-scan 100-grid-sync-reduction 110-cluster-histogram
      130-dp-quicksort)
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
step(${configure})
# In parallel: add_subdirectory builds cusim itself, the longest step.
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)
set(build ${CMAKE_COMMAND} --build ${WORK_DIR}/build --target consumer --parallel ${cores})
step(OUTPUT first ${build})
if(MODE STREQUAL "subdirectory")
  step(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target ${generic_samples} --parallel ${cores})
  foreach(sample IN LISTS generic_samples)
    step(OUTPUT out ${WORK_DIR}/build/cusim/samples/${sample})
    expect_match("${out}" "PASSED")
    expect_no_match("${out}" "FAILED")
  endforeach()
endif()
if(MODE STREQUAL "package")
  # The installed driver, not the build tree's, compiled the .cu files.
  step(OUTPUT verbose ${WORK_DIR}/prefix/bin/cusim-cc -v -E -I${WORK_DIR}/src/include ${WORK_DIR}/src/scale.cu
       -o ${WORK_DIR}/scale.ii)
  expect_match("${verbose}" "headers from ${WORK_DIR}/prefix/include/cusim-cuda")
  # The installed toolkit directory serves CMake's CUDA language too.
  file(GLOB nvcc ${WORK_DIR}/prefix/lib*/cusim/toolkit/bin/nvcc)
  step(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/toolchain/cmake_cuda_language -B ${WORK_DIR}/cuda-language
       -DCMAKE_CUDA_COMPILER=${nvcc} -DCMAKE_BUILD_TYPE=Release)
  step(${CMAKE_COMMAND} --build ${WORK_DIR}/cuda-language)
  step(OUTPUT language_run ${WORK_DIR}/cuda-language/scale)
  expect_match("${language_run}" "PASSED")
endif()
step(OUTPUT run ${WORK_DIR}/build/consumer)
expect_match("${run}" "modelling compute capability 8.0")
expect_match("${run}" "0 of 256 elements wrong: PASSED")
# The .cu objects depend on the headers they include (cusim-cc -MD).
file(TOUCH ${WORK_DIR}/src/include/scale.h)
step(OUTPUT second ${build})
expect_match("${second}" "cusim-cc scale.cu")
step(OUTPUT third ${build})
expect_no_match("${third}" "cusim-cc [a-z_]+\\.cu")
