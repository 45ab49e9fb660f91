# The IPU's generated instruction table (models/ipu/gen_isa.py) is what the TSV gives: it is
# regenerated into the build tree and compared (the build itself does not run Python).
find_program(ISEKIT_PYTHON3 python3 REQUIRED)
set(_ipu ${CMAKE_SOURCE_DIR}/models/ipu)
set(_ipu_gen ${CMAKE_CURRENT_BINARY_DIR}/ipu_isa)
add_test(NAME ipu/isa_current COMMAND sh -c
  "mkdir -p '${_ipu_gen}' && '${ISEKIT_PYTHON3}' '${_ipu}/gen_isa.py' --out '${_ipu_gen}' && diff -u '${_ipu}/isa_instructions.inc' '${_ipu_gen}/isa_instructions.inc' || { echo 'models/ipu/isa_instructions.inc is stale: run python3 models/ipu/gen_isa.py'; exit 1; }")
