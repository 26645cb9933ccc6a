# Builds cusim with the platform layer's generic fallbacks
# (-DCUSIM_PLATFORM=generic: no guard pages, no fault handling, Boost.Context
# switches; src/platform/) in its own build tree and runs samples that cover
# barriers, warp collectives, grid sync, clusters and dynamic parallelism
# there: the fallbacks must keep compiling and working (issue 13,
# docs/platforms.md). Invoked by the CTest test platform.generic:
#   cmake -DSOURCE_DIR=... -DBINARY_DIR=... -P RunGenericPlatform.cmake
include(${CMAKE_CURRENT_LIST_DIR}/CusimScriptSteps.cmake)
require_variables(SOURCE_DIR BINARY_DIR)
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)

set(samples 010-vector-add 030-dot-product 065-warp-scan 100-grid-sync-reduction 110-cluster-histogram
            130-dp-quicksort)
step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -DCUSIM_PLATFORM=generic -DCUSIM_LINE_TABLES_ONLY=ON -DCUSIM_BUILD_TESTS=OFF
     -DCUSIM_BUILD_BENCH=OFF -DCUSIM_KERNEL_FACTS=OFF)
step(${CMAKE_COMMAND} --build ${BINARY_DIR} -j ${cores} --target ${samples})
foreach(sample IN LISTS samples)
  step(OUTPUT out ${BINARY_DIR}/bin/${sample})
  expect_match("${out}" "PASSED")
  expect_no_match("${out}" "FAILED")
endforeach()
