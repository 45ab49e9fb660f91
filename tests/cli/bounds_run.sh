#!/bin/sh
# Every run ends with a report, every number is checked (issue 9, items 4, 5, 6, 11): each
# command as a user types it, within the bounds of `bounded`, with its status and message.
# usage: bounds_run.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
ex="$src/models/example"

# ---- item 4: waits that can never end, far clocks, the clock limit ----
printf 'wait irq\n' >"$tmp/w.ll"
bounded 1 "$tmp/w" -- "$isekit" run example "$tmp/w.ll"
expect_in "$tmp/w" "w.ll:1: error: clock 0: wait irq: deadlock: no interrupt is pending"
printf 'ldg gr0, 3\nwait flag GR0 == 4\n' >"$tmp/flag.ll"
bounded 1 "$tmp/flag" -- "$isekit" run example "$tmp/flag.ll"
expect_in "$tmp/flag" "flag.ll:2: error:"
expect_in "$tmp/flag" "wait flag GR0 == 4: deadlock: the condition does not hold"
# a wait that holds in the end is no deadlock
printf 'mac gr0, gr1\nwait idle\nwait flag GR0 == 0\nexpect clock == 2\n' >"$tmp/ok.ll"
bounded 0 "$tmp/ok" -- "$isekit" run example "$tmp/ok.ll"
printf '@1000000000000 clracc\n' >"$tmp/far.ll"
bounded 3 "$tmp/far" -- "$isekit" run example "$tmp/far.ll"
expect_in "$tmp/far" "the launch list waits at $tmp/far.ll:1 for clock 1000000000000: clracc"
printf 'wait 1000000000000\n' >"$tmp/wt.ll"
bounded 3 "$tmp/wt" -- "$isekit" run example "$tmp/wt.ll"
expect_in "$tmp/wt" "waits at $tmp/wt.ll:1 until clock 1000000000000"
# --max-clocks reached: its own status, what was still running, the statistics
printf 'mac gr0, gr1\nmac gr1, gr1\nwait idle\n' >"$tmp/mac.ll"
bounded 3 "$tmp/lim" -- "$isekit" run example "$tmp/mac.ll" --max-clocks 1
expect_in "$tmp/lim" "isekit run: --max-clocks reached: stopped at clock 1"
expect_in "$tmp/lim" "still running:"
expect_in "$tmp/lim" "slot 0"
expect_in "$tmp/lim" "summary: 1 clocks, 1 launches, 0 commands completed"
expect_in "$tmp/lim" "average occupancy 1.00"
# a list that ends in the last allowed clock has finished (wait 5 ends in clock 5: 6 clocks)
printf 'wait 5\n' >"$tmp/w5.ll"
bounded 0 "$tmp/w5" -- "$isekit" run example "$tmp/w5.ll" --max-clocks 6
expect_in "$tmp/w5" "summary: 6 clocks"
bounded 3 "$tmp/w5b" -- "$isekit" run example "$tmp/w5.ll" --max-clocks 5
# a list whose last step is a launch has finished once it launched (found by launchlist_wait_fuzz)
printf 'wait 9\nflag shm[7], 8\n' >"$tmp/wl.ll"
bounded 0 "$tmp/wl" -- "$isekit" run example "$tmp/wl.ll" --max-clocks 10
expect_in "$tmp/wl" "summary: 10 clocks, 1 launches, 1 commands completed"
expect_in "$tmp/w5b" "the launch list waits at $tmp/w5.ll:1 until clock 5: wait 5"
bounded 2 "$tmp/lim0" -- "$isekit" run example "$tmp/mac.ll" --max-clocks 0
expect_in "$tmp/lim0" "isekit run: --max-clocks: 0 is out of range"
# a DPU loop forever: the limit, with the tasklet still running
printf '.text\n.global main\nmain:\n1: jump 1b\n' >"$tmp/loop.s"
bounded 3 "$tmp/loop" -- "$isekit" run dpu "$tmp/loop.s" --max-clocks 100k
expect_in "$tmp/loop" "isekit run dpu: --max-clocks reached: stopped at clock 100000"
expect_in "$tmp/loop" "dpu: tasklet"
bounded 3 "$tmp/loop2" -- "$isekit" run dpu "$tmp/loop.s" --max-cycles 1000
expect_in "$tmp/loop2" "stopped at clock 1000"
bounded 3 "$tmp/loop3" -- "$isekit" run dpu "$tmp/loop.s" --max-clocks 1000 --show R[0]
expect_in "$tmp/loop3" "R[0] = "

# Ctrl-C: stops at the end of a clock, prints the statistics so far, exits 130
interrupted "$tmp/int" -- "$isekit" run dpu "$tmp/loop.s"
expect_in "$tmp/int" "isekit run dpu: interrupted (Ctrl-C) at clock"
expect_in "$tmp/int" "dpu: tasklet  instructions"

# ---- item 5: crashes in a user's model are reported with where they happened ----
# the example with one more command, whose behaviour misbehaves as GR0 says
sed -e 's|^MODEL_END|    INSTRUCTION("11-**-1011-0000-0000-0000-ssss", Crash, "crash {s:gr}");\nMODEL_END|' \
    -e 's|^/\* ---- description|static int deep(volatile int n) { volatile char pad[4096]; pad[0] = (char)n; return n ? deep(n + 1) + pad[0] : 0; }\nACC_FUNCTION(Crash, s)\n{\n    int how = (int)GET(GRF, s);\n    if (how == 1) { volatile int *p = 0; *p = 1; }\n    if (how == 2) { volatile int z = 0; SET(ACC, 10 / z); }\n    if (how == 3) SET(ACC, deep(1));\n    if (how == 4) abort();\n    if (how == 5) for (;;) { }\n}\n\n/* ---- description|' \
    -e 's|^#include <isekit/model.h>|#include <stdlib.h>\n#include <isekit/model.h>|' \
    "$ex/example.c" >"$tmp/crash.c"
where="clock 1, example slot 0 (Crash, word 0xcb0000, launched at clock 1), in behaviour Crash of model 'example' ($tmp/crash.c)"
for k in 1 2 3 4 5; do
    printf 'ldg gr0, %d\nwait idle\ncrash gr0\nwait idle\n' $k >"$tmp/c$k.ll"
done
"$isekit" info "$tmp/crash.c" >/dev/null 2>&1     # compiled once, outside the time bounds
bounded 1 "$tmp/c1" -- "$isekit" run "$tmp/crash.c" "$tmp/c1.ll"
expect_in "$tmp/c1" "error: $where: crashed: SIGSEGV"
expect_in "$tmp/c1" "summary: 1 clocks, 2 launches, 1 commands completed"
bounded 1 "$tmp/c2" -- "$isekit" run "$tmp/crash.c" "$tmp/c2.ll"
expect_in "$tmp/c2" "error: $where: crashed: SIGFPE"
bounded 1 "$tmp/c3" -- "$isekit" run "$tmp/crash.c" "$tmp/c3.ll" --behaviour-stack 1M
expect_in "$tmp/c3" "error: $where: stack overflow: the behaviour needs more than its stack of 1048576 bytes"
expect_in "$tmp/c3" "isekit run: give the behaviours a larger stack with --behaviour-stack BYTES"
bounded 1 "$tmp/c4" -- "$isekit" run "$tmp/crash.c" "$tmp/c4.ll"
expect_in "$tmp/c4" "error: $where: crashed: SIGABRT"
bounded 1 "$tmp/c5" -- "$isekit" run "$tmp/crash.c" "$tmp/c5.ll" --watchdog 1
expect_in "$tmp/c5" "error: $where: did not return to the engine within 1000 ms (watchdog)"
bounded 2 "$tmp/bs" -- "$isekit" run "$tmp/crash.c" "$tmp/c5.ll" --behaviour-stack 1k
expect_in "$tmp/bs" "isekit run: --behaviour-stack: 1k is out of range (16384 to 1073741824)"

# ---- item 6: numbers and usage errors ----
printf 'nop\n' >"$tmp/nop.ll"
for bad in abc 1e1 3abc ''; do
    bounded 2 "$tmp/n" -- "$isekit" run example "$tmp/nop.ll" --max-clocks "$bad"
    expect_in "$tmp/n" "isekit run: --max-clocks: '$bad' is not a number"
done
bounded 2 "$tmp/n" -- "$isekit" run example "$tmp/nop.ll" --max-clocks -5
expect_in "$tmp/n" "isekit run: --max-clocks: -5 is out of range"
for bad in 0 25; do
    bounded 2 "$tmp/t" -- "$isekit" run dpu "$tmp/loop.s" --tasklets $bad
    expect_in "$tmp/t" "isekit run dpu: --tasklets: $bad is out of range (1 to 24)"
done
for bad in x 1e1 3abc; do
    bounded 2 "$tmp/t" -- "$isekit" run dpu "$tmp/loop.s" --tasklets $bad
    expect_in "$tmp/t" "isekit run dpu: --tasklets: '$bad' is not a number"
done
bounded 2 "$tmp/s" -- "$isekit" run dpu "$tmp/loop.s" --stack 0
expect_in "$tmp/s" "isekit run dpu: --stack: 0 is out of range"
bounded 2 "$tmp/b" -- "$isekit" objdump -m example --base zz "$tmp/nop.ll"
expect_in "$tmp/b" "isekit objdump: --base: 'zz' is not a number"
bounded 2 "$tmp/sp" -- "$isekit" psm --scratchpad 100 "$src/models/edkdsp/examples/fw_seed.psm"
expect_in "$tmp/sp" "isekit psm: --scratchpad: 100 is not 64, 128 or 256"
bounded 2 "$tmp/sp" -- "$isekit" psm --scratchpad x "$src/models/edkdsp/examples/fw_seed.psm"
expect_in "$tmp/sp" "isekit psm: --scratchpad: 'x' is not a number"
bounded 2 "$tmp/to" -- "$isekit" run edkdsp --firmware "$src/models/edkdsp/examples/fw_seed.psm" --timeout 10x
expect_in "$tmp/to" "isekit run edkdsp: --timeout: '10x' is not a number"
bounded 2 "$tmp/info" -- "$isekit" info --bogus
expect_in "$tmp/info" "isekit info: unknown option '--bogus'"
bounded 2 "$tmp/me" -- "$isekit" as -m example --max-errors many "$tmp/loop.s"
expect_in "$tmp/me" "isekit as: --max-errors: 'many' is not a number"
bounded 2 "$tmp/ds" -- "$isekit" ld -m example --defsym x=0q1 "$tmp/loop.s"
expect_in "$tmp/ds" "isekit ld: --defsym: '0q1' is not a number"
bounded 2 "$tmp/wd" -- "$isekit" run example "$tmp/nop.ll" --watchdog -1
expect_in "$tmp/wd" "isekit run: --watchdog: -1 is out of range"
# --max-errors caps the errors of a launch list
awk 'BEGIN { for (i = 0; i < 200; i++) print "frob" }' >"$tmp/many.ll"
bounded 1 "$tmp/many" -- "$isekit" run example "$tmp/many.ll" --max-errors 3
n=$(grep -c "error: unknown instruction 'frob'" "$tmp/many")
[ "$n" -eq 3 ] || fail "--max-errors 3: $n errors shown"
# launch-list numbers go through the strict parser
printf 'setloop 0x1_0\nwait 2x\n' >"$tmp/num.ll"
bounded 1 "$tmp/num" -- "$isekit" run example "$tmp/num.ll"
expect_in "$tmp/num" "num.ll:2:6: error: expected a number of clocks: '2x' is not a number"
# CRLF line ends in a launch list
printf 'ldg gr0, 3\r\nwait idle\r\nexpect GR0 == 3\r\n' >"$tmp/crlf.ll"
bounded 0 "$tmp/crlf" -- "$isekit" run example "$tmp/crlf.ll"

# ---- item 11: launch programs and binaries given to an accelerator ----
bounded 0 "$tmp/macs" -- "$isekit" run example "$ex/programs/mac.s" --show ACR --show LR15
expect_in "$tmp/macs" "ACR = 80"
expect_in "$tmp/macs" "LR15 = 6"
bounded 0 "$tmp/convo" -- "$isekit" as -m example -I "$ex/programs" "$ex/programs/convolution.s" -o "$tmp/conv.o"
bounded 0 "$tmp/conv" -- "$isekit" run example "$tmp/conv.o" --show ACR
expect_in "$tmp/conv" "ACR = 30"
head -c 4096 /dev/urandom >"$tmp/random.ll"
printf '\0' >>"$tmp/random.ll"
bounded 1 "$tmp/rnd" -- "$isekit" run example "$tmp/random.ll"
expect_in "$tmp/rnd" "binary"

finish bounds_run
