# The runtime's folders are layers that point one way (docs/design.md, "The
# layers"): a file in src/<folder>/ includes headers of its own folder and of
# the folders below it, never of one above; the CUDA-compatible surface in
# include/ includes nothing of src/. Run as
#   cmake -DSOURCE_DIR=<project>/src -DINCLUDE_DIR=<project>/include -P CheckLayers.cmake
# (the test `layers.one_way`); every upward include is listed with its file
# and line, and the script fails.

# Lowest first.
set(layers support platform device fiber runtime memory trace ptx sched check api libraries)

set(problems "")
file(GLOB_RECURSE sources RELATIVE "${SOURCE_DIR}" "${SOURCE_DIR}/*.cpp" "${SOURCE_DIR}/*.hpp" "${SOURCE_DIR}/*.inc")
foreach(source IN LISTS sources)
  if(NOT source MATCHES "^([a-z_]+)/")
    continue()  # src/ itself: CMakeLists.txt
  endif()
  set(folder "${CMAKE_MATCH_1}")
  list(FIND layers "${folder}" rank)
  if(rank EQUAL -1)
    string(APPEND problems "  src/${source}: the folder ${folder}/ has no place in the layers (add it to cmake/CheckLayers.cmake and docs/design.md)\n")
    continue()
  endif()
  file(STRINGS "${SOURCE_DIR}/${source}" lines)
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/[^\"]+\"")
      continue()
    endif()
    set(target "${CMAKE_MATCH_1}")
    list(FIND layers "${target}" target_rank)
    if(target_rank GREATER rank)
      string(APPEND problems "  src/${source}:${line_number}: ${folder}/ includes ${target}/, a layer above it: ${line}\n")
    endif()
  endforeach()
endforeach()

file(GLOB_RECURSE headers RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/*")
foreach(header IN LISTS headers)
  file(STRINGS "${INCLUDE_DIR}/${header}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/")
  foreach(line IN LISTS lines)
    string(REGEX MATCH "\"([a-z_]+)/" found "${line}")
    list(FIND layers "${CMAKE_MATCH_1}" target_rank)
    if(NOT target_rank EQUAL -1)
      string(APPEND problems "  include/${header}: the public headers include the runtime's ${CMAKE_MATCH_1}/: ${line}\n")
    endif()
  endforeach()
endforeach()

if(problems)
  string(REPLACE ";" " " order "${layers}")
  message(FATAL_ERROR "Includes that point up the layers (lowest first: ${order}):\n${problems}")
endif()
list(LENGTH sources count)
message(STATUS "layers: ${count} files of src/ include only their own layer and those below it")
