# Installation and the cusim CMake package:
#   cmake --install build --prefix /opt/cusim
#   find_package(cusim) with CMAKE_PREFIX_PATH=/opt/cusim, or cusim_DIR=<build tree>
# Layout: bin/cusim-cc, lib/libcusim.a, include/cusim/ (cusim's API),
# include/cusim-cuda/ (cuda_runtime.h & co., kept apart so they never shadow
# a real CUDA toolkit's headers in a shared prefix), lib/cmake/cusim/.
include(CMakePackageConfigHelpers)
set(CUSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cusim)

set_target_properties(cusim_runtime PROPERTIES EXPORT_NAME runtime)
target_include_directories(cusim_runtime INTERFACE
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/cusim-cuda>
  $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(TARGETS cusim_runtime cusim-cc cusim-explore EXPORT cusimTargets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET cusim_banks)
  set_target_properties(cusim_banks PROPERTIES EXPORT_NAME banks)
  install(TARGETS cusim_banks EXPORT cusimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TARGET cusim_initcheck)
  set_target_properties(cusim_initcheck PROPERTIES EXPORT_NAME initcheck)
  install(TARGETS cusim_initcheck EXPORT cusimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TARGET cusim_lockstep)
  set_target_properties(cusim_lockstep PROPERTIES EXPORT_NAME lockstep)
  install(TARGETS cusim_lockstep EXPORT cusimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
# For cusim-cc --check=race|memory and cusim_add_executable(... CUSIM_FLAGS --check=race|memory).
foreach(check race memcheck)
  if(TARGET cusim_runtime_${check})
    set_target_properties(cusim_runtime_${check} PROPERTIES EXPORT_NAME runtime_${check})
    target_include_directories(cusim_runtime_${check} INTERFACE
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/cusim-cuda>
      $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
    install(TARGETS cusim_runtime_${check} EXPORT cusimTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  endif()
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cuda/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cusim-cuda)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/cusim/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/cusim)
install(EXPORT cusimTargets NAMESPACE cusim:: DESTINATION ${CUSIM_INSTALL_CMAKEDIR})
# The nvcc-shaped toolkit directory (cmake/CusimToolkit.cmake), naming the
# installed cusim-cc, headers and libcusim.
set(_prefix "\${CMAKE_INSTALL_PREFIX}")
install(CODE "execute_process(COMMAND \"${CMAKE_COMMAND}\"
  \"-DTOOLKIT=${_prefix}/${CMAKE_INSTALL_LIBDIR}/cusim/toolkit\"
  \"-DCUSIM_CC=${_prefix}/${CMAKE_INSTALL_BINDIR}/cusim-cc\"
  \"-DCUDA_HEADERS=${_prefix}/${CMAKE_INSTALL_INCLUDEDIR}/cusim-cuda\"
  \"-DCUSIM_HEADERS=${_prefix}/${CMAKE_INSTALL_INCLUDEDIR}/cusim\"
  \"-DLIBRARIES=${_prefix}/${CMAKE_INSTALL_LIBDIR}/libcusim.a;$<TARGET_LINKER_FILE:Boost::context>;$<TARGET_LINKER_FILE:fmt::fmt>\"
  -P \"${PROJECT_SOURCE_DIR}/cmake/CusimToolkit.cmake\" COMMAND_ERROR_IS_FATAL ANY)")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/cusimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/cusimConfig.cmake INSTALL_DESTINATION ${CUSIM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/cusimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/cusimConfig.cmake ${PROJECT_BINARY_DIR}/cusimConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/CusimFunctions.cmake
        DESTINATION ${CUSIM_INSTALL_CMAKEDIR})

# The build tree is a package too (cusim_DIR=<build>): same targets, build-tree paths.
export(EXPORT cusimTargets NAMESPACE cusim:: FILE ${PROJECT_BINARY_DIR}/cusimTargets.cmake)
configure_file(${PROJECT_SOURCE_DIR}/cmake/CusimFunctions.cmake ${PROJECT_BINARY_DIR}/CusimFunctions.cmake COPYONLY)
