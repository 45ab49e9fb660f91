#!/bin/sh
# isekit psm and isekit run edkdsp: the seed's example firmware under its host program, images,
# the disassembler, and bad input.
# usage: edkdsp.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
ex="$src/models/edkdsp/examples"

# the seed's example: the host checks every result and return code; the DFU time is listed
run 0 "$tmp/seed" -- "$isekit" run edkdsp --firmware "$ex/fw_seed.psm" --host "$ex/host_seed.c"
expect_in "$tmp/seed" 'all results correct'
expect_in "$tmp/seed" 'DFU operations: 1'
expect_in "$tmp/seed" 'VMUL'
run 0 "$tmp/seed6" -- "$isekit" run edkdsp --core kcpsm6 --param latency_vmul=4 --firmware "$ex/fw_seed.psm" --host "$ex/host_seed.c"
expect_in "$tmp/seed6" '      21  0'          # 2 + 16 - 1 + 4 clocks, no error
# the runners' engine options reach the BCE's system (edk_config.system); --show does not apply
run 0 "$tmp/seedwd" -- "$isekit" run edkdsp --firmware "$ex/fw_seed.psm" --host "$ex/host_seed.c" --watchdog 5 --behaviour-stack 64K
expect_in "$tmp/seedwd" 'all results correct'
run 2 "$tmp/seedshow" -- "$isekit" run edkdsp --firmware "$ex/fw_seed.psm" --show A[0]
expect_in "$tmp/seedshow" 'isekit run edkdsp: --show does not apply to the EdkDSP BCE'

# firmware as an image and a C header; the header compiles into a host-side array
run 0 "$tmp/psm" -- "$isekit" psm "$ex/fw_seed.psm" -o "$tmp/fw.hex" -o "$tmp/fw.mem" -o "$tmp/fw_exl.h"
expect_in "$tmp/fw_exl.h" 'static const uint32_t fw_exl[FW_EXL_WORDS]'
[ "$(wc -l < "$tmp/fw.hex")" -eq 1024 ] || fail "fw.hex is not 1024 lines"
[ "$(head -1 "$tmp/fw.mem")" = "@00000000" ] || fail "fw.mem does not start with @00000000"
run 0 "$tmp/run-hex" -- "$isekit" run edkdsp --firmware "$tmp/fw.hex" --host "$ex/host_seed.c"
expect_in "$tmp/run-hex" 'all results correct'
run 0 "$tmp/dis" -- "$isekit" psm -d "$tmp/fw.hex"
expect_in "$tmp/dis" '000  30'
expect_in "$tmp/dis" 'CALL '
run 0 "$tmp/dis6" -- "$isekit" psm -d -6 "$src/tests/picoblaze/programs/rv12_pb6_table.psm"
expect_in "$tmp/dis6" 'CALL@ (sB, sA)'

# bad input: file:line:column and a caret
printf 'LOAD s0, 1FF\n' > "$tmp/bad.psm"
run 1 "$tmp/bad" -- "$isekit" psm "$tmp/bad.psm"
expect_in "$tmp/bad" 'bad.psm:1:10: error: operand k: 511 is out of range [0, 255]'
printf '00000\nZZZZZ\n' > "$tmp/bad.hex"
run 1 "$tmp/badhex" -- "$isekit" psm -d "$tmp/bad.hex"
expect_in "$tmp/badhex" 'bad.hex:2:1: error: expected a hexadecimal word or @address'
run 1 "$tmp/nohost" -- "$isekit" run edkdsp --firmware "$ex/fw_seed.psm" --host "$tmp/missing.c"
expect_in "$tmp/nohost" 'missing.c'
run 2 "$tmp/usage" -- "$isekit" run edkdsp
expect_in "$tmp/usage" '--firmware is required'

finish edkdsp
