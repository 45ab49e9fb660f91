#!/bin/sh
# `isekit run edkdsp` without a host runs exactly --max-clocks from the reset, also when the
# firmware never reports running (no wait for it, no 10M-clock timeout), and an error (a host's
# timeout) is printed once.
# usage: psm_bce.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

printf 'spin: JUMP spin\n' >"$tmp/spin.psm"
bounded 0 "$tmp/spin" -- "$isekit" run edkdsp --firmware "$tmp/spin.psm" --max-clocks 1000
expect_in "$tmp/spin" "summary: 1000 clocks, 500 PicoBlaze instructions"

cat >"$tmp/host.c" <<'HOST'
#include "isekit/edkdsp.h"
EDK_HOST_MAIN(bce) { return edk_start(bce, EDK_SLOT_P0) == EDK_OK ? 0 : 1; }
HOST
bounded 1 "$tmp/host" -- "$isekit" run edkdsp --firmware "$tmp/spin.psm" --host "$tmp/host.c" --timeout 5000
expect_in "$tmp/host" "clock 5000: the host waited 5000 clocks in vain (timeout)"
n=$(grep -c "waited 5000 clocks" "$tmp/host")
[ "$n" -eq 1 ] || fail "the timeout is printed $n times"

finish psm_bce
