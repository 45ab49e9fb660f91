# The UPMEM host API (docs/dpu-host-api.md): host programs in C built against libdpu.so and
# its headers as a user builds them, each with DPU programs in our assembly built by the CLI.
set(_dh ${CMAKE_CURRENT_SOURCE_DIR}/dpu_host)
set(_dhb ${CMAKE_CURRENT_BINARY_DIR}/dpu_host)
file(MAKE_DIRECTORY ${_dhb})
set(_dpu_elves "")
# name, source, tasklets
foreach(spec "helloworld;hello;1" "vecadd;vecadd;16" "reduce;reduce;1" "spin;spin;1" "fault;fault;1")
  list(GET spec 0 out)
  list(GET spec 1 src)
  list(GET spec 2 tasklets)
  # the CLI writes the executable and runs it once (the fault program fails that run: ignored)
  add_custom_command(OUTPUT ${_dhb}/${out}
    COMMAND sh -c "'$<TARGET_FILE:isekit_cli>' run dpu '${_dh}/${src}.s' --tasklets ${tasklets} -o '${_dhb}/${out}' -q >/dev/null 2>&1 || test -f '${_dhb}/${out}'"
    VERBATIM
    DEPENDS ${_dh}/${src}.s isekit_cli)
  list(APPEND _dpu_elves ${_dhb}/${out})
endforeach()
add_custom_target(dpu_host_programs ALL DEPENDS ${_dpu_elves})

foreach(t hello vecadd reduce async errors names)
  add_executable(dpu_host_${t} ${_dh}/${t}_host.c)
  target_link_libraries(dpu_host_${t} PRIVATE dpu)
  target_compile_definitions(dpu_host_${t} PRIVATE VECADD_BINARY="${_dhb}/vecadd" REDUCE_BINARY="${_dhb}/reduce"
                             SPIN_BINARY="${_dhb}/spin" FAULT_BINARY="${_dhb}/fault")
  add_dependencies(dpu_host_${t} dpu_host_programs)
  add_test(NAME dpu_host/${t} COMMAND dpu_host_${t})
  set_tests_properties(dpu_host/${t} PROPERTIES WORKING_DIRECTORY ${_dhb})
endforeach()
# the SDK's hello world loads ./helloworld; its output is the DPU's printf
set_tests_properties(dpu_host/hello PROPERTIES PASS_REGULAR_EXPRESSION "^Hello World!\n$")
set_tests_properties(dpu_host/names PROPERTIES PASS_REGULAR_EXPRESSION "^Hello World!\n$")
