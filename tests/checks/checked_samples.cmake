# Builds the samples with cusim-cc --check=${CHECK} (race, memory, init or banks),
# or in lockstep warp mode (CHECK=lockstep), and runs each: none may report
# anything (but the access-pattern table --check=banks prints at exit, which
# it must), and each must pass. Race checking leaves out 100 (its
# cooperative grid fills the GPU: 16896 threads alive at once, more than TSan
# can follow), 140-160 (a million threads and more: TSan makes an identity
# for each, about 0.4 ms apiece), 020 (a quarter of a million threads,
# 37 s, each adding two numbers: nothing shared for the check to misjudge)
# 190 (a Monte Carlo estimate: each thread's own generator, then a shared
# atomic count between two barriers, a pattern 080 checks already) and 220 (25 s; its loads, stores and atomics
# are inline PTX, which the runtime's interpreter does, unseen by
# ThreadSanitizer).
#   cmake -DCHECK=race|memory|init|lockstep|banks -DCUSIM_CC=... -DSAMPLES=<samples dir> -DWORK=<scratch dir>
#         -P checked_samples.cmake
if(CHECK STREQUAL "race")
  set(mode --check=race)
  set(complaint "ThreadSanitizer:")  # its reports, not cusim's notes about it
  # And 215: CUB's radix sort passes tile states between blocks through
  # volatile loads and stores (decoupled look-back), which the race check
  # takes for relaxed atomic accesses (src/check/race_volatile.cpp): clean,
  # but 100 s under ThreadSanitizer (checks.race.clean.volatile checks the
  # pattern).
  set(left_out "^(020|100|14[0-9]|15[0-9]|16[0-9]|190|215|220)-")
elseif(CHECK STREQUAL "memory")
  set(mode --check=memory)
  set(complaint "AddressSanitizer|cusim: memory error")
  set(left_out "^$")
elseif(CHECK STREQUAL "lockstep")
  # Lockstep leaves out the same: their threads take turns at every memory
  # access and basic block, unoptimised (30 to 40 s each here; they pass).
  set(mode --warp-mode=lockstep)
  set(complaint "cusim: ")
  # And 200: libcu++'s barriers and pipelines are sm_70+ (independent thread
  # scheduling), where lockstep models earlier GPUs; its consumer lanes
  # spin in consumer_wait, which a lockstep warp serialises for ever.
  # And 190 (17 s in lockstep; no warp-level code: a barrier, a shared
  # atomic, as in 080, which stays).
  # And 215 (CUB's radix sort of 2^16 pairs, unoptimised, a memory access
  # at a time).
  set(left_out "^(100|14[0-9]|15[0-9]|16[0-9]|190|200|215)-")
elseif(CHECK STREQUAL "init")
  # Every sample fills what its kernels read: none may be reported.
  set(mode --check=init)
  set(complaint "cusim: ")
  set(left_out "^$")
elseif(CHECK STREQUAL "banks")
  set(mode --check=banks)
  set(complaint "cusim: ")
  set(left_out "^$")
  set(report_at_exit "cusim: banks: ")
else()
  message(FATAL_ERROR "CHECK must be race, memory, init, lockstep or banks, not '${CHECK}'")
endif()
file(MAKE_DIRECTORY ${WORK})
file(GLOB samples LIST_DIRECTORIES true ${SAMPLES}/[0-9]*)
set(failures "")
foreach(dir IN LISTS samples)
  get_filename_component(name ${dir} NAME)
  if(name MATCHES "${left_out}")
    continue()
  endif()
  file(GLOB sources ${dir}/*.cu)
  string(TIMESTAMP started "%s")
  set(flags)
  if(name MATCHES "-dp-")
    set(flags -rdc=true)
  endif()
  execute_process(COMMAND ${CUSIM_CC} ${mode} ${flags} -I ${SAMPLES} ${sources} -o ${WORK}/${name}
                  RESULT_VARIABLE built ERROR_VARIABLE build_output)
  if(NOT built EQUAL 0)
    string(APPEND failures "${name}: does not build:\n${build_output}\n")
    continue()
  endif()
  execute_process(COMMAND ${WORK}/${name} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(report_at_exit)
    string(FIND "${err}" "${report_at_exit}" at)
    if(at EQUAL -1)
      string(APPEND failures "${name}: no \"${report_at_exit}\" report at exit\n${err}\n")
      continue()
    endif()
    string(SUBSTRING "${err}" 0 ${at} err)
  endif()
  if(err MATCHES "${complaint}" OR NOT status EQUAL 0 OR NOT out MATCHES "PASSED")
    string(APPEND failures "${name}: exit ${status}\n${err}\n")
  else()
    string(TIMESTAMP ended "%s")
    math(EXPR seconds "${ended} - ${started}")
    message(STATUS "${name}: nothing reported (${seconds} s to build and run)")
    # A passing program is not looked at again; each holds a checking
    # runtime (some 13 MB), and four such sets filled a CI disk.
    file(REMOVE ${WORK}/${name})
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "${mode} found problems in correct samples:\n${failures}")
endif()
