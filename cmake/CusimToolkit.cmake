# An nvcc-shaped "CUDA toolkit" directory around cusim-cc, so that a project's
# own CMake files build with cusim unchanged: CMake's CUDA language and
# FindCUDAToolkit look for nvcc in <toolkit>/bin, cuda_runtime.h in
# <toolkit>/include, libcudart in <toolkit>/lib64 and a <toolkit>/nvvm/libdevice
# directory (docs/cusim-cc.md, "With CMake's CUDA language").
#
#   <toolkit>/bin/nvcc                  cusim-cc (a link)
#   <toolkit>/include/*                 cusim's CUDA headers (links)
#   <toolkit>/lib64/libcudart_static.a  linker scripts: libcusim and what it needs
#   <toolkit>/lib64/libcudart.so
#   <toolkit>/lib64/libcudadevrt.a      empty: the device runtime is in libcusim
#   <toolkit>/nvvm/libdevice/           empty: CMake only checks it exists
#
# Made by running this file as a script, when cusim-cc is built and when it
# is installed (the libraries' paths are known then):
#   cmake -DTOOLKIT=<dir> -DCUSIM_CC=<cusim-cc> -DCUDA_HEADERS=<dir>
#         -DCUSIM_HEADERS=<dir> "-DLIBRARIES=<lib>;<lib>" -P CusimToolkit.cmake
include_guard(GLOBAL)
set(_cusim_header_entries_from ${CMAKE_CURRENT_LIST_DIR}/../include/cuda)

# The tree in `dir` (made in `link_dir`, which differs under DESTDIR):
# bin/nvcc links to `cusim_cc`, include/ to the entries of `cuda_headers`
# (cuda_runtime.h & co.) and to `cusim_headers`, and the linker scripts
# name `libraries`, what a program built by cusim-cc links (libcusim,
# Boost.Context, fmt). Also runs at install time (CusimInstall.cmake).
function(cusim_toolkit_tree link_dir cusim_cc cuda_headers cusim_headers libraries)
  file(MAKE_DIRECTORY ${link_dir}/bin ${link_dir}/include ${link_dir}/lib64 ${link_dir}/nvvm/libdevice)
  file(GLOB entries RELATIVE ${_cusim_header_entries_from} ${_cusim_header_entries_from}/*)
  foreach(entry IN LISTS entries)
    file(CREATE_LINK ${cuda_headers}/${entry} ${link_dir}/include/${entry} SYMBOLIC)
  endforeach()
  file(CREATE_LINK ${cusim_headers} ${link_dir}/include/cusim SYMBOLIC)
  file(CREATE_LINK ${cusim_cc} ${link_dir}/bin/nvcc SYMBOLIC)
  file(WRITE ${link_dir}/lib64/libcudadevrt.a "/* cusim: the device runtime is part of libcusim (libcudart_static.a) */\n")
  list(TRANSFORM libraries PREPEND "\"")  # quoted: a path may hold a space
  list(TRANSFORM libraries APPEND "\"")
  list(JOIN libraries " " inputs)
  set(script "/* cusim: CUDA's runtime library is libcusim and what it needs */\nINPUT(${inputs})\n")
  file(WRITE ${link_dir}/lib64/libcudart_static.a "${script}")
  file(WRITE ${link_dir}/lib64/libcudart.so "${script}")
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND DEFINED TOOLKIT)
  cusim_toolkit_tree("$ENV{DESTDIR}${TOOLKIT}" "${CUSIM_CC}" "${CUDA_HEADERS}" "${CUSIM_HEADERS}" "${LIBRARIES}")
endif()
