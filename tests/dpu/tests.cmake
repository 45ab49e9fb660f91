# The DPU's generated tables (models/dpu/gen_isa.py), checked in two ways.
find_program(ISEKIT_PYTHON3 python3 REQUIRED)
set(_dpu ${CMAKE_SOURCE_DIR}/models/dpu)

# 1. The committed isa_*.inc are what the TSV gives: regenerated into the build tree and
#    compared (the build itself does not need Python, and fuzz/ compiles dpu.c by path).
set(_gen ${CMAKE_CURRENT_BINARY_DIR}/dpu_isa)
add_test(NAME dpu/isa_current COMMAND sh -c
  "'${ISEKIT_PYTHON3}' '${_dpu}/gen_isa.py' --out '${_gen}' && for f in isa_conditions.inc isa_kinds.inc isa_instructions.inc; do diff -u \"${_dpu}/$f\" \"${_gen}/$f\" || { echo \"models/dpu/$f is stale: run python3 models/dpu/gen_isa.py\"; exit 1; }; done")

# 2. A variant of the model from a copy of the TSV with one more row (xorswap/xorswap.tsv) and
#    that row's family (xorswap/xorswap.h): the same dpu.c, compiled into a loadable model, with
#    the switch its steady round uses where the compiler has no computed goto.
set(_var ${CMAKE_CURRENT_BINARY_DIR}/dpu_xorswap)
set(_var_inc ${_var}/isa_conditions.inc ${_var}/isa_kinds.inc ${_var}/isa_instructions.inc)
add_custom_command(OUTPUT ${_var_inc}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_var}
  COMMAND ${CMAKE_COMMAND} -E cat ${_dpu}/data/instructions.tsv ${CMAKE_CURRENT_SOURCE_DIR}/dpu/xorswap/xorswap.tsv
          > ${_var}/instructions.tsv
  COMMAND ${ISEKIT_PYTHON3} ${_dpu}/gen_isa.py --tsv ${_var}/instructions.tsv --out ${_var}
  DEPENDS ${_dpu}/gen_isa.py ${_dpu}/data/instructions.tsv ${_dpu}/data/conditions.tsv
          ${CMAKE_CURRENT_SOURCE_DIR}/dpu/xorswap/xorswap.tsv
  COMMENT "DPU variant: tables of instructions.tsv + xorswap.tsv")
add_library(dpu_xorswap MODULE ${_dpu}/dpu.c ${_var_inc})
set_target_properties(dpu_xorswap PROPERTIES PREFIX "" C_VISIBILITY_PRESET hidden)
target_include_directories(dpu_xorswap PRIVATE ${CMAKE_SOURCE_DIR}/include)
target_compile_definitions(dpu_xorswap PRIVATE
  DPU_ISA_CONDITIONS="${_var}/isa_conditions.inc" DPU_ISA_KINDS="${_var}/isa_kinds.inc"
  DPU_ISA_INSTRUCTIONS="${_var}/isa_instructions.inc"
  DPU_EXTRA_FAMILIES="${CMAKE_CURRENT_SOURCE_DIR}/dpu/xorswap/xorswap.h"
  DPU_SWITCH_DISPATCH)   # the steady round's portable dispatch (models/dpu/round.h), run by variant.sh
add_dependencies(dpu_test_variant dpu_xorswap)
target_compile_definitions(dpu_test_variant PRIVATE DPU_VARIANT="$<TARGET_FILE:dpu_xorswap>")
add_test(NAME dpu/variant_cli COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/dpu/variant.sh ${CMAKE_BINARY_DIR}/isekit
         ${CMAKE_SOURCE_DIR} $<TARGET_FILE:dpu_xorswap>)

# 3. A real row without its family and form is refused, naming the table's file and line.
add_test(NAME dpu/isa_bad_row COMMAND sh -c
  "mkdir -p '${_var}' && cat '${_dpu}/data/instructions.tsv' '${CMAKE_CURRENT_SOURCE_DIR}/dpu/xorswap/no_form.tsv' > '${_var}/bad.tsv' && '${ISEKIT_PYTHON3}' '${_dpu}/gen_isa.py' --tsv '${_var}/bad.tsv' --out '${_var}/bad'; test $? -eq 1")
set_tests_properties(dpu/isa_bad_row PROPERTIES
  PASS_REGULAR_EXPRESSION "bad\\.tsv:[0-9]+: bad:rrr: family '', c_form '': a real row names its C operation")
