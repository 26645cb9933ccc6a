# Builds cusim with one sanitizer in its own build tree and runs every test
# but the slow ones there. Invoked by the CTest tests sanitizer.address / sanitizer.thread:
#   cmake -DSOURCE_DIR=... -DBINARY_DIR=... -DSANITIZER=address -P RunSanitizedSuite.cmake
include(${CMAKE_CURRENT_LIST_DIR}/CusimScriptSteps.cmake)
require_variables(SOURCE_DIR BINARY_DIR SANITIZER)
cmake_host_system_information(RESULT cores QUERY NUMBER_OF_LOGICAL_CORES)

step(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BINARY_DIR} -DCUSIM_SANITIZE=${SANITIZER}
     -DCMAKE_BUILD_TYPE=Debug -DCUSIM_BUILD_BENCH=OFF)
step(${CMAKE_COMMAND} --build ${BINARY_DIR} -j ${cores})
step(${CMAKE_CTEST_COMMAND} --test-dir ${BINARY_DIR} -LE slow --output-on-failure -j ${cores})
