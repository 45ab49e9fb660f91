#!/bin/sh
# Several BCEs driven by one host: isekit run edkdsp --system F.sys --host H.c hands the host the
# description's BCEs (edk_bce_count / edk_bce_at); the example host gives each its own data,
# starts both multiplications before collecting a reply and checks every result, the return
# codes and that the two DFU operations overlapped on the one clock.
# usage: edkdsp_system.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
ex="$src/models/edkdsp/examples"

run 0 "$tmp/two" -- "$isekit" run edkdsp --system "$ex/two_bces_host.sys" --host "$ex/host_two.c"
expect_in "$tmp/two" '2 BCEs'
expect_in "$tmp/two" 'BCE 0: VMUL of 64 elements: return code 0, DFU busy in clocks 1288..1362'
expect_in "$tmp/two" 'BCE 1: VMUL of 64 elements: return code 0, DFU busy in clocks 1324..1409'
expect_in "$tmp/two" 'all results correct'
expect_in "$tmp/two" 'pb1: DFU operations: 1'
expect_in "$tmp/two" 'summary: 2 BCEs, 1439 clocks'

# a host that fails makes the run fail: a description with one BCE (the host wants two)
sed '/^\[instance pb1\]/,$d' "$ex/two_bces_host.sys" | sed "s|program = |program = $ex/|" >"$tmp/one.sys"
run 1 "$tmp/one" -- "$isekit" run edkdsp --system "$tmp/one.sys" --host "$ex/host_two.c"
expect_in "$tmp/one" '1 BCEs'
expect_in "$tmp/one" 'FAILED'

# a description without a BCE, and bad usage
printf '[instance p]\nmodel = kcpsm3\nprogram = %s\n' "$ex/fw_seed.psm" >"$tmp/none.sys"
run 1 "$tmp/none" -- "$isekit" run edkdsp --system "$tmp/none.sys" --host "$ex/host_two.c"
expect_in "$tmp/none" 'none.sys: no BCE (no processor with ports = edkdsp_bce DFU)'
run 2 "$tmp/nohost" -- "$isekit" run edkdsp --system "$ex/two_bces_host.sys"
expect_in "$tmp/nohost" '--system needs --host'
run 2 "$tmp/fw" -- "$isekit" run edkdsp --system "$ex/two_bces_host.sys" --firmware "$ex/fw_seed.psm" --host "$ex/host_two.c"
expect_in "$tmp/fw" '(no --firmware, --core, --param or --timeout)'

finish edkdsp_system
