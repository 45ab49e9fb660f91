#!/bin/sh
# isekit cc, the C compiler for the PicoBlaze (docs/cc.md): the seed's firmware in C under its
# host program, every integer operator at 8/16/32 bits against the host's C compiler, programs
# whose output must equal the host-compiled version's, the interrupt handler's code, and a table
# of bad programs with their file:line:column messages.
# usage: cc.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
lib="$src/models/edkdsp/pbbcelib"
cc_dir="$src/tests/cc"
host_cc=${CC:-cc}

# the seed's example firmware, typed as C: a header, an image and a listing; the host program
# sends WAL_OP_GETCAP and op 0x10 and checks the DFU's results and every return code
run 0 "$tmp/fw" -- "$isekit" cc -I "$lib" "$cc_dir/fw_ex1.c" -o "$tmp/fw_ex1.h" -o "$tmp/fw_ex1.hex" -o "$tmp/fw_ex1.psm"
expect_in "$tmp/fw_ex1.h" 'static const uint32_t fw_ex1[FW_EX1_WORDS]'
expect_in "$tmp/fw_ex1.psm" '; 44: pb2dfu_start_op(DFU_VMUL, l);'
expect_in "$tmp/fw_ex1.psm" 'INCLUDE "pbbcelib.psm"'
printf '#include <stdio.h>\n#include "fw_ex1.h"\nint main(void) { printf("%%u words, first %%05X\\n", (unsigned)FW_EX1_WORDS, (unsigned)fw_ex1[0]); return 0; }\n' >"$tmp/usefw.c"
run 0 "$tmp/usefw-build" -- "$host_cc" -I "$tmp" -o "$tmp/usefw" "$tmp/usefw.c"
run 0 "$tmp/usefw-out" -- "$tmp/usefw"
expect_in "$tmp/usefw-out" ' words, first '
for core in kcpsm3 kcpsm6; do
    run 0 "$tmp/fw-$core" -- "$isekit" cc -m $core -I "$lib" "$cc_dir/fw_ex1.c" -o "$tmp/fw-$core.hex"
    bounded 0 "$tmp/seed-$core" -- "$isekit" run edkdsp --core $core --firmware "$tmp/fw-$core.hex" --host "$src/models/edkdsp/examples/host_seed.c"
    expect_in "$tmp/seed-$core" 'capabilities: rc 0'
    expect_in "$tmp/seed-$core" 'VMUL of 16 elements: return code 0'
    expect_in "$tmp/seed-$core" 'unknown op: return code 0xff'
    expect_in "$tmp/seed-$core" 'all results correct'
done
# the library on the command line, as `pbcc pbbcelib.psmo fw.c` has it, links it once
run 0 "$tmp/fw-cmdline" -- "$isekit" cc "$lib/pbbcelib.psm" -I "$lib" "$cc_dir/fw_ex1.c" -o "$tmp/fw2.psm"
[ "$(grep -c 'INCLUDE' "$tmp/fw2.psm")" -eq 1 ] || fail "pbbcelib.psm INCLUDEd more than once"

# fw_bce_a.psm's C version in two_bces.sys: the same DFU time on port 40 and the same BCE ID
mkdir "$tmp/sys"
run 0 "$tmp/bce-a" -- "$isekit" cc -I "$lib" "$cc_dir/fw_bce_a.c" -o "$tmp/sys/fw_bce_a.psm"
cp "$src/models/edkdsp/examples/fw_bce_b.psm" "$src/models/edkdsp/examples/two_bces.sys" "$tmp/sys/"
bounded 0 "$tmp/bce-a.run" -- "$isekit" run "$tmp/sys/two_bces.sys" --show dfu0.CMEM[0x80]
expect_in "$tmp/bce-a.run" 'pb0    out 0x40 = 0x1d'
expect_in "$tmp/bce-a.run" 'pb0    out 0x41 = 0x00'
expect_in "$tmp/bce-a.run" 'dfu0.CMEM[0x80] = 160 (0xa0)'

# fw_lift4sa.psm's C version (libdwt's lifting step, 15 DFU operations) under host_lift4sa.c:
# the results bit-exact on both cores, and the .psm original under the same host
for core in kcpsm3 kcpsm6; do
    run 0 "$tmp/lift-$core" -- "$isekit" cc -m $core -I "$lib" "$cc_dir/fw_lift4sa.c" -o "$tmp/lift-$core.hex"
    bounded 0 "$tmp/lift-$core.run" -- "$isekit" run edkdsp --core $core --firmware "$tmp/lift-$core.hex" --host "$cc_dir/host_lift4sa.c"
    expect_in "$tmp/lift-$core.run" 'lifting step: 15 DFU operations'
    expect_in "$tmp/lift-$core.run" 'all results correct'
done
bounded 0 "$tmp/lift-psm.run" -- "$isekit" run edkdsp --firmware "$src/models/edkdsp/examples/fw_lift4sa.psm" --host "$cc_dir/host_lift4sa.c"
expect_in "$tmp/lift-psm.run" 'lifting step: 15 DFU operations, 2710 clocks'

# port 1's bytes, as two hex digits a line
port1() { awk '$3 == "out" && $4 == "0x01" { print substr($6, 3) }' "$1"; }

# every operator on every pair of types, compared with the host's C compiler
mkdir "$tmp/ops"
run 0 "$tmp/gen" -- python3 "$cc_dir/gen_ops.py" "$tmp/ops" 30
for pb in "$tmp"/ops/ops*_pb.c; do
    base=${pb%_pb.c}
    run 0 "$base.hc" -- "$host_cc" -w -o "$base.host" "${base}_host.c"
    "$base.host" >"$base.want" || fail "host run of ${base}_host.c"
    run 0 "$base.cc" -- "$isekit" cc -m kcpsm6 "$pb" -o "$base.hex"
    bounded 0 "$base.run" -- "$isekit" run kcpsm6 "$base.hex" --port-log --stop-port 0xFF
    port1 "$base.run" >"$base.got"
    [ -s "$base.want" ] && cmp -s "$base.want" "$base.got" || { fail "operators differ from the host: $pb"; diff "$base.want" "$base.got" | head -20; }
done
checks=$(($(cat "$tmp"/ops/*.want | wc -l) / 4))
[ "$checks" -ge 800 ] || fail "only $checks operator checks"

# programs: the same output as the host-compiled version
for p in flow data unsized; do
    run 0 "$tmp/$p.hc" -- "$host_cc" -w -I "$cc_dir/programs" -o "$tmp/$p.host" "$cc_dir/programs/$p.c"
    "$tmp/$p.host" >"$tmp/$p.want" || fail "host run of $p.c"
    for core in kcpsm3 kcpsm6; do
        run 0 "$tmp/$p.$core.cc" -- "$isekit" cc -m $core "$cc_dir/programs/$p.c" -o "$tmp/$p.$core.hex"
        bounded 0 "$tmp/$p.$core.run" -- "$isekit" run $core "$tmp/$p.$core.hex" --port-log --stop-port 0xFF
        port1 "$tmp/$p.$core.run" >"$tmp/$p.$core.got"
        [ -s "$tmp/$p.want" ] && cmp -s "$tmp/$p.want" "$tmp/$p.$core.got" || { fail "$p.c on $core differs from the host"; diff "$tmp/$p.want" "$tmp/$p.$core.got"; }
    done
done

# the interrupt handler: it saves and restores what it uses, returns with RETURNI ENABLE, and
# the vector at 3FF jumps to it; main's loop polls the global the handler changes
run 0 "$tmp/isr" -- "$isekit" cc "$cc_dir/programs/isr.c" -o "$tmp/isr.psm" -o "$tmp/isr.hex"
expect_in "$tmp/isr.psm" 'RETURNI ENABLE'
expect_in "$tmp/isr.psm" 'ADDRESS 3FF'
expect_in "$tmp/isr.psm" 'JUMP c_tick'
expect_in "$tmp/isr.psm" 'ENABLE INTERRUPT'
[ "$(sed -n '/^c_tick:/,/RETURNI/p' "$tmp/isr.psm" | grep -c '^ *STORE s0, ')" -ge 1 ] || fail "the handler does not save s0"

# bad programs: each error names file:line:column
n=0
grep -v '^#' "$cc_dir/errors.tsv" | while IFS='	' read -r source message; do
    n=$((n + 1))
    printf '%b\n' "$source" >"$tmp/bad$n.c"
    "$isekit" cc "$tmp/bad$n.c" -o "$tmp/bad$n.hex" >"$tmp/bad$n.out" 2>&1
    status=$?
    [ "$status" -eq 1 ] || echo "FAIL: bad$n.c: exit $status"
    grep -qF -- "$tmp/bad$n.c$message" "$tmp/bad$n.out" || { echo "FAIL: bad$n.c: wanted '$message', got:"; cat "$tmp/bad$n.out"; }
done >"$tmp/errors.log"
[ -s "$tmp/errors.log" ] && { failures=$((failures + 1)); cat "$tmp/errors.log"; }
run 2 "$tmp/usage" -- "$isekit" cc -m kcpsm9 x.c
expect_in "$tmp/usage" "-m: 'kcpsm9' is not kcpsm3 or kcpsm6"

finish cc.sh
