#!/bin/sh
# isekit debug: scripted sessions (--batch -x) on the shipped models; each ends in the very
# state an undebugged run ends in. Bad commands get a message and the session goes on.
# usage: debug.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

# same_end PLAIN DEBUGGED LINES: the last LINES lines (the runner's results) are equal
same_end() {
    tail -n "$3" "$1" >"$1.end"; tail -n "$3" "$2" >"$2.end"
    cmp -s "$1.end" "$2.end" || { fail "debugged run ends otherwise than $1:"; diff "$1.end" "$2.end" | sed 's/^/    /'; }
}

# ---- DPU, two tasklets: a symbol, steps, a watched data symbol, registers by name ----
prog="$src/tests/dpu/programs/recursive.s"
cat >"$tmp/dpu.gdb" <<'X'
break fib
info breakpoints
continue
print r0
stepi
si 2
info threads
thread 1
info registers
bogus
break nosuch
print NOPE
delete
watch result
continue
x/4x result
x/2i fib
disassemble
bt
delete
continue
X
run 0 "$tmp/dpu.plain" -- "$isekit" run dpu "$prog" --tasklets 2
bounded 0 "$tmp/dpu.dbg" -- "$isekit" debug dpu "$prog" --tasklets 2 --batch -x "$tmp/dpu.gdb"
expect_in "$tmp/dpu.dbg" 'Breakpoint 1 at pc 0x1b6 in fib'
expect_in "$tmp/dpu.dbg" 'Breakpoint 1, in fib ('
expect_in "$tmp/dpu.dbg" 'recursive.s:17) at pc 0x1b6, dpu context 0, clock 25'
expect_in "$tmp/dpu.dbg" '  0x1b6: jltu r0, 2, 0x1c3'
expect_in "$tmp/dpu.dbg" 'r0 = 10 (0x0000000a)'
expect_in "$tmp/dpu.dbg" 'Stepped, in fib+1 ('
expect_in "$tmp/dpu.dbg" 'recursive.s:18) at pc 0x1b7, dpu context 0, clock 27'
expect_in "$tmp/dpu.dbg" '* dpu context 1  running  pc 0x01b6 in fib'
expect_in "$tmp/dpu.dbg" 't1.id = 1 (0x00000001)'
expect_in "$tmp/dpu.dbg" "unknown command 'bogus' (type help)"
expect_in "$tmp/dpu.dbg" "no symbol 'nosuch' in the program"
expect_in "$tmp/dpu.dbg" "has no storage or register named 'NOPE'"
expect_in "$tmp/dpu.dbg" 'Watchpoint 2: dpu.WRAM[244] changed at clock'
expect_in "$tmp/dpu.dbg" 'old = 0 (0x0), new = 55 (0x37)'
expect_in "$tmp/dpu.dbg" 'WRAM[0xf4]: 0x37 0x00 0x00 0x00'
expect_in "$tmp/dpu.dbg" '  pc 0x1b7: sd r22, 8, d22'
expect_in "$tmp/dpu.dbg" '#0  pc 0x'
expect_in "$tmp/dpu.dbg" 'The program finished at clock 4215.'
same_end "$tmp/dpu.plain" "$tmp/dpu.dbg" 7

# FILE:LINE (the assembler's line information): the recursive call's line
printf 'break recursive.s:23\ncontinue\ndelete\ncontinue\n' >"$tmp/line.gdb"
bounded 0 "$tmp/line" -- "$isekit" debug dpu "$prog" --tasklets 2 --batch -x "$tmp/line.gdb"
expect_in "$tmp/line" 'Breakpoint 1 at pc 0x1bc in fib+6 ('
expect_in "$tmp/line" 'recursive.s:23) at pc 0x1bc, dpu context 0, clock 37'
expect_in "$tmp/line" '  0x1bc: call r23, 0x1b6'
same_end "$tmp/dpu.plain" "$tmp/line" 7
# a line with no code says so
printf 'break recursive.s:8\ncontinue\n' >"$tmp/line8.gdb"
bounded 0 "$tmp/line8" -- "$isekit" debug dpu "$prog" --tasklets 2 --batch -x "$tmp/line8.gdb"
expect_in "$tmp/line8" 'no code at recursive.s:8'

# ---- the example accelerator: clocks, the launch list, a watched register ----
ll="$src/models/example/programs/demo.ll"
cat >"$tmp/ex.gdb" <<'X'
info slots
cycle 2
info launches
cycle 3
info slots
watch ACR
continue
print GR0
info registers
break foo
print GR5
x/4q 0
watch LRF[3..99]
info bogus
finish
set GR0 = abc
set LR3 = 9
x/4d LRF
delete
continue
X
run 0 "$tmp/ex.plain" -- "$isekit" run example "$ll" --show LR3
printf 'set LR3 = 9\n' >"$tmp/ex0.gdb"
bounded 0 "$tmp/ex.dbg" -- "$isekit" debug example "$ll" --show LR3 --batch -x "$tmp/ex.gdb"
expect_in "$tmp/ex.dbg" 'example: 0 of 4 slots busy'
expect_in "$tmp/ex.dbg" 'clock 0      example slot 0: Load_LREG_IMM (0xc10051), ended at clock 0'
expect_in "$tmp/ex.dbg" 'example: resources used in clock 4: MAC multiplier;'
expect_in "$tmp/ex.dbg" 'example slot 0: MAC_LREG_GREG (word 0xc00200), launched at clock 4, in its clock 2'
expect_in "$tmp/ex.dbg" 'Watchpoint 1: example.ACR[0] changed at clock 6'
expect_in "$tmp/ex.dbg" 'old = 0 (0x0), new = 25 (0x19)'
expect_in "$tmp/ex.dbg" 'MULRES = -15 (0xfffffff1)'
expect_in "$tmp/ex.dbg" "no label 'foo' in the launch program"
expect_in "$tmp/ex.dbg" "no storage or register named 'GR5'"
expect_in "$tmp/ex.dbg" 'LRF[0x0]: 0 5 0 9'
expect_in "$tmp/ex.dbg" 'write x/NF ADDR with N 1 to 65536 and F one of x d u f b c i'
expect_in "$tmp/ex.dbg" "cells 3 to 99 are not in 'LRF' (16 cells)"
expect_in "$tmp/ex.dbg" "unknown info command 'bogus'"
expect_in "$tmp/ex.dbg" "no processor in this system: finish needs one"
expect_in "$tmp/ex.dbg" "'abc' is not a number"
expect_in "$tmp/ex.dbg" 'The program finished at clock'
expect_in "$tmp/ex.dbg" 'LR3 = 9 (0x9)'
# the run with LR3 set by hand differs from the plain one only there
grep -v LR3 "$tmp/ex.plain" >"$tmp/ex.p2"; grep -v LR3 "$tmp/ex.dbg" >"$tmp/ex.d2"
same_end "$tmp/ex.p2" "$tmp/ex.d2" 5

# ---- KCPSM6: a .psm program's label, a watched register ----
psm="$src/models/picoblaze/examples/count.psm"
cat >"$tmp/pb.gdb" <<'X'
break loop
continue
print s0
stepi
delete 1
watch s0
continue
info breakpoints
delete
x/3i 0
continue
X
run 0 "$tmp/pb.plain" -- "$isekit" run kcpsm6 "$psm" --stop-port 0xFF --show s0
bounded 0 "$tmp/pb.dbg" -- "$isekit" debug kcpsm6 "$psm" --stop-port 0xFF --show s0 --batch -x "$tmp/pb.gdb"
expect_in "$tmp/pb.dbg" "Breakpoint 1, in loop ($psm:4) at pc 0x1, kcpsm6 context 0, clock 2"
expect_in "$tmp/pb.dbg" 's0 = 5 (0x05)'
expect_in "$tmp/pb.dbg" 'Watchpoint 2: kcpsm6.'
expect_in "$tmp/pb.dbg" 'old = 5 (0x5), new = 6 (0x6)'
expect_in "$tmp/pb.dbg" '  pc 0x1: OUTPUT s0, 0x10'
expect_in "$tmp/pb.dbg" "Stepped, in loop+1 ($psm:5) at pc 0x2"
same_end "$tmp/pb.plain" "$tmp/pb.dbg" 3

# ---- EdkDSP firmware without a host: steps, registers, to the clock limit ----
fw="$src/models/edkdsp/examples/fw_seed.psm"
printf 'info threads\nstepi 3\ninfo registers\ninfo slots\ncontinue\n' >"$tmp/edk.gdb"
run 0 "$tmp/edk.plain" -- "$isekit" run edkdsp --firmware "$fw" --max-clocks 2000
bounded 0 "$tmp/edk.dbg" -- "$isekit" debug edkdsp --firmware "$fw" --max-clocks 2000 --batch -x "$tmp/edk.gdb"
expect_in "$tmp/edk.dbg" '* pb context 0  running'
expect_in "$tmp/edk.dbg" 'Stepped, in pb2mb_report_running+2 (<isekit>/pbbcelib.psm:103) at pc 0x33, pb context 0, clock 6'
expect_in "$tmp/edk.dbg" 'dfu: 0 of 1 slots busy'
expect_in "$tmp/edk.dbg" '--max-clocks reached at clock 2000'     # counted from the reset
same_end "$tmp/edk.plain" "$tmp/edk.dbg" 2

# ---- the IPU vertex example: six workers; its own hook (the vertex's return) still ends the
# run; a watched tensor element; the output tensor file equals the undebugged run's ----
ex="$src/models/ipu/examples"
cp "$ex/vector_add.toml" "$ex"/*.csv "$tmp/"
mkdir "$tmp/ipu_p" "$tmp/ipu_d"
cat >"$tmp/ipu.gdb" <<'X'
info threads
break 0x3000
continue
print M[0]
watch *0x800a0
delete 1
continue
x/2u 0x800a0
delete
continue
X
bounded 0 "$tmp/ipu.plain" -- "$isekit" run ipu "$ex/vector_add.S" --state "$tmp/vector_add.toml" -o "$tmp/ipu_p"
bounded 0 "$tmp/ipu.dbg" -- "$isekit" debug ipu "$ex/vector_add.S" --state "$tmp/vector_add.toml" -o "$tmp/ipu_d" --batch -x "$tmp/ipu.gdb"
expect_in "$tmp/ipu.dbg" '  tile context 6  stopped'
expect_in "$tmp/ipu.dbg" "Breakpoint 1, in __runCodelet_VectorAdd ($ex/vector_add.S:11) at pc 0x3000, tile context"
expect_in "$tmp/ipu.dbg" '  0x3000: get $m0, 1'
expect_in "$tmp/ipu.dbg" 'Watchpoint 2: tile.TMEM[65576] changed at clock'
expect_in "$tmp/ipu.dbg" 'old = 0 (0x0), new = 1 (0x1)'
expect_in "$tmp/ipu.dbg" 'The program finished at clock 279.'
same_end "$tmp/ipu.plain" "$tmp/ipu.dbg" 8
cmp -s "$tmp/ipu_p/vector_add_out.npy" "$tmp/ipu_d/vector_add_out.npy" || fail "the debugged vertex wrote another output tensor"

# ---- a system description: two PicoBlazes and two DFUs; INST.NAME, thread INST N, stop ports ----
sysf="$src/models/edkdsp/examples/two_bces.sys"
printf 'info threads\nthread pb1 0\nstepi 2\nwatch dfu0.CMEM[0x80]\ncontinue\ninfo launches\ndelete\ncontinue\n' >"$tmp/sys.gdb"
bounded 0 "$tmp/sys.plain" -- "$isekit" run "$sysf" --show 'dfu0.CMEM[0x80]'
bounded 0 "$tmp/sys.dbg" -- "$isekit" debug "$sysf" --show 'dfu0.CMEM[0x80]' --batch -x "$tmp/sys.gdb"
expect_in "$tmp/sys.dbg" "  pb1 context 0  running  pc 0x0000 ($src/models/edkdsp/examples/fw_bce_b.psm:7), 0 instructions"
expect_in "$tmp/sys.dbg" 'Stepped, in pb2mb_report_running+1 (<isekit>/pbbcelib.psm:102) at pc 0x13, pb1 context 0, clock 4'
expect_in "$tmp/sys.dbg" 'Watchpoint 1: dfu0.CMEM[128] changed at clock 83'
expect_in "$tmp/sys.dbg" 'clock 20     dfu1 slot 0: DFU_VMUL (0x2), ended at clock 72'
same_end "$tmp/sys.plain" "$tmp/sys.dbg" 4

# ---- usage: -x without debug; a missing script; quitting early says so ----
run 2 "$tmp/u1" -- "$isekit" run kcpsm6 "$psm" -x "$tmp/pb.gdb" --batch
expect_in "$tmp/u1" 'isekit run: -x is an option of isekit debug (or of --debug)'
run 2 "$tmp/u1b" -- "$isekit" run dpu "$psm" --batch
expect_in "$tmp/u1b" 'isekit run dpu: --batch is an option of isekit debug (or of --debug)'
expect_in "$tmp/u1b" 'usage: isekit run dpu'
bounded 1 "$tmp/u2" -- "$isekit" debug kcpsm6 "$psm" --batch -x "$tmp/none.gdb"
expect_in "$tmp/u2" 'none.gdb: cannot open it'
printf 'stepi\nquit\n' >"$tmp/q.gdb"
bounded 1 "$tmp/u3" -- "$isekit" debug kcpsm6 "$psm" -x "$tmp/q.gdb"
expect_in "$tmp/u3" 'the debugger left the program unfinished at clock'
# commands from stdin when it is not a terminal
printf 'break 0x4\ncontinue\nprint s0\ndelete\ncontinue\n' | "$isekit" debug kcpsm6 "$psm" --stop-port 0xFF >"$tmp/stdin" 2>&1
expect_in "$tmp/stdin" 's0 = 6 (0x06)'
expect_in "$tmp/stdin" 'The program finished'

# ---- read watchpoints: a DPU load, a PicoBlaze FETCH, a command's GET; awatch; no rwatch ----
cat >"$tmp/rd.s" <<'X'
// reads a WRAM variable (lw), then writes it back plus one
    .data
    .p2align 2
counter:
    .globl counter
    .word 41
    .text
    .globl main
main:
    move r1, 1
    lw r0, zero, counter
    add r0, r0, r1
    sw zero, counter, r0
    move r0, 0
    jump r23
X
printf 'rwatch counter\ninfo breakpoints\ncontinue\nprint r0\ndelete\nawatch *counter,4\ncontinue\ncontinue\ndelete\ncontinue\n' >"$tmp/rd.gdb"
run 0 "$tmp/rd.plain" -- "$isekit" run dpu "$tmp/rd.s"
bounded 0 "$tmp/rd.dbg" -- "$isekit" debug dpu "$tmp/rd.s" --batch -x "$tmp/rd.gdb"
expect_in "$tmp/rd.dbg" 'Hardware read watchpoint 1: counter'
expect_in "$tmp/rd.dbg" '1    read watch  dpu.WRAM['
expect_in "$tmp/rd.dbg" 'Hardware read watchpoint 1: dpu.WRAM['
expect_in "$tmp/rd.dbg" ']  Value = 41 (0x29)'
expect_in "$tmp/rd.dbg" 'read by dpu context 0 at pc 0x1b7 in main+1 ('
expect_in "$tmp/rd.dbg" 'rd.s:11), clock 7'
expect_in "$tmp/rd.dbg" 'r0 = 41 (0x00000029)'
expect_in "$tmp/rd.dbg" 'Hardware access (read/write) watchpoint 2: *counter,4'
expect_in "$tmp/rd.dbg" 'Hardware access (read/write) watchpoint 2: dpu.WRAM['
expect_in "$tmp/rd.dbg" '  old = 41 (0x29), new = 42 (0x2a)'
same_end "$tmp/rd.plain" "$tmp/rd.dbg" 4

cat >"$tmp/sp.psm" <<'X'
; stores s0 at scratchpad 0x10, fetches it back into s1 (direct) and s3 (through s2)
            LOAD s0, 2A
            STORE s0, 10
            LOAD s2, 10
            FETCH s1, 10
            FETCH s3, (s2)
            OUTPUT s1, FF
X
printf 'rwatch SPM[0x10]\ncontinue\ncontinue\ninfo breakpoints\ndelete\ncontinue\n' >"$tmp/sp.gdb"
run 0 "$tmp/sp.plain" -- "$isekit" run kcpsm6 "$tmp/sp.psm" --stop-port 0xFF --show s3
bounded 0 "$tmp/sp.dbg" -- "$isekit" debug kcpsm6 "$tmp/sp.psm" --stop-port 0xFF --show s3 --batch -x "$tmp/sp.gdb"
expect_in "$tmp/sp.dbg" 'Hardware read watchpoint 1: kcpsm6.SPM[16]  Value = 42 (0x2a)'
expect_in "$tmp/sp.dbg" '  read by kcpsm6 context 0 at pc 0x3 ('
expect_in "$tmp/sp.dbg" 'sp.psm:5), clock 7'
expect_in "$tmp/sp.dbg" '  read by kcpsm6 context 0 at pc 0x4 ('
expect_in "$tmp/sp.dbg" 'sp.psm:6), clock 9'
expect_in "$tmp/sp.dbg" 'kcpsm6.SPM[16..16], hit 2 time(s)'
same_end "$tmp/sp.plain" "$tmp/sp.dbg" 3

printf 'rwatch DM0[2]\ncontinue\nprint LOOPREG\ndelete\ncontinue\n' >"$tmp/exr.gdb"
bounded 0 "$tmp/exr.dbg" -- "$isekit" debug example "$ll" --show LR3 --batch -x "$tmp/exr.gdb"
expect_in "$tmp/exr.dbg" 'Hardware read watchpoint 1: example.DM0[2]  Value = 3 (0x3)'
expect_in "$tmp/exr.dbg" '  read by example slot '
same_end "$tmp/ex.plain" "$tmp/exr.dbg" 5
printf 'rwatch\nrwatch NOPE\nawatch LRF[3..99]\ncontinue\n' >"$tmp/exu.gdb"
bounded 0 "$tmp/exu.dbg" -- "$isekit" debug example "$ll" --show LR3 --batch -x "$tmp/exu.gdb"
expect_in "$tmp/exu.dbg" 'rwatch needs a storage cell'
expect_in "$tmp/exu.dbg" "no storage or register named 'NOPE'"
expect_in "$tmp/exu.dbg" "cells 3 to 99 are not in 'LRF' (16 cells)"
same_end "$tmp/ex.plain" "$tmp/exu.dbg" 5

# ---- symbols and lines of the IPU vertex runner and of EdkDSP firmware: break at a symbol and
# at FILE:LINE, step by line; the end equals the undebugged run's ----
printf 'break __runCodelet_VectorAdd\nbreak vector_add.S:23\ncontinue\ndelete 1\ncontinue\ndelete\nstep\ncontinue\n' >"$tmp/ipu2.gdb"
mkdir "$tmp/ipu_d2"
bounded 0 "$tmp/ipu2.dbg" -- "$isekit" debug ipu "$ex/vector_add.S" --state "$tmp/vector_add.toml" -o "$tmp/ipu_d2" --batch -x "$tmp/ipu2.gdb"
expect_in "$tmp/ipu2.dbg" "Breakpoint 1 at pc 0x3000 in __runCodelet_VectorAdd ($ex/vector_add.S:11)"
expect_in "$tmp/ipu2.dbg" "Breakpoint 2 at pc 0x300b in __runCodelet_VectorAdd+11 ($ex/vector_add.S:23)"
expect_in "$tmp/ipu2.dbg" "Breakpoint 2, in __runCodelet_VectorAdd+11 ($ex/vector_add.S:23) at pc 0x300b"
expect_in "$tmp/ipu2.dbg" "Stepped, in __runCodelet_VectorAdd+12 ($ex/vector_add.S:24) at pc 0x300c"
expect_in "$tmp/ipu2.dbg" 'The program finished at clock 279.'
same_end "$tmp/ipu.plain" "$tmp/ipu2.dbg" 8
cmp -s "$tmp/ipu_p/vector_add_out.npy" "$tmp/ipu_d2/vector_add_out.npy" || fail "the vertex debugged by line wrote another output tensor"

printf 'break main_loop\nbreak fw_seed.psm:17\ncontinue\ncontinue\nstep\nbacktrace\ndelete\ncontinue\n' >"$tmp/edk2.gdb"
bounded 0 "$tmp/edk2.dbg" -- "$isekit" debug edkdsp --firmware "$fw" --max-clocks 2000 --batch -x "$tmp/edk2.gdb"
expect_in "$tmp/edk2.dbg" "Breakpoint 1, in main_loop ($fw:16) at pc 0x1, pb context 0"
expect_in "$tmp/edk2.dbg" "Breakpoint 2, in main_loop+1 ($fw:17) at pc 0x2, pb context 0"
expect_in "$tmp/edk2.dbg" 'Stepped, in mbpb_exchange_data (<isekit>/pbbcelib.psm:93) at pc 0x2b'
expect_in "$tmp/edk2.dbg" '--max-clocks reached at clock 2000'
same_end "$tmp/edk.plain" "$tmp/edk2.dbg" 2

# ---- call frames (INSTRUCTION .flow): backtrace inside a recursion, finish to the caller ----
cat >"$tmp/bt.gdb" <<'X'
break fib
continue
continue
continue
bt
delete
finish
bt
continue
X
run 0 "$tmp/bt.plain" -- "$isekit" run dpu "$prog" --tasklets 1
bounded 0 "$tmp/bt.dbg" -- "$isekit" debug dpu "$prog" --tasklets 1 --batch -x "$tmp/bt.gdb"
# the third entry of fib: two recursive calls from fib's first call site, under main's call
grep -A5 '^#0  pc 0x1b6 in fib (' "$tmp/bt.dbg" | head -5 >"$tmp/bt.first"
cat >"$tmp/bt.want" <<'X'
#0  pc 0x1b6 in fib (tests/dpu/programs/recursive.s:17)
#1  pc 0x1bc in fib+6 (tests/dpu/programs/recursive.s:23)
#2  pc 0x1bc in fib+6 (tests/dpu/programs/recursive.s:23)
#3  pc 0x1cb in main+7 (tests/dpu/programs/recursive.s:42)
#4  pc 0x5 in __sys_start_thread+3 (crt0.s:54)
X
sed "s|$src/||" "$tmp/bt.first" | cmp -s - "$tmp/bt.want" || { fail "backtrace in fib(8):"; sed 's/^/    /' "$tmp/bt.first"; }
expect_in "$tmp/bt.dbg" 'Run till exit from #0  pc 0x1b6 in fib ('
expect_in "$tmp/bt.dbg" 'Returned to pc 0x1bd in fib+7 ('
expect_in "$tmp/bt.dbg" 'recursive.s:24), dpu context 0, clock'
# after the return, one fib frame fewer
grep -A4 '^#0  pc 0x1bd in fib+7' "$tmp/bt.dbg" | grep '^#' | sed 's/ (.*//' | tr '\n' ';' >"$tmp/bt.after"
[ "$(cat "$tmp/bt.after")" = '#0  pc 0x1bd in fib+7;#1  pc 0x1bc in fib+6;#2  pc 0x1cb in main+7;#3  pc 0x5 in __sys_start_thread+3;' ] ||
    fail "frames after finish: $(cat "$tmp/bt.after")"
expect_in "$tmp/bt.dbg" 'The program finished at clock'
same_end "$tmp/bt.plain" "$tmp/bt.dbg" 6

# KCPSM6: nested CALLs, a conditional CALL not taken (no frame), a conditional RETURN taken
cat >"$tmp/calls.psm" <<'X'
            LOAD s0, 00
main:       CALL outer
            OUTPUT s0, FF
outer:      ADD s0, 01
            CALL inner
            COMPARE s0, 00
            CALL Z, never
            RETURN
inner:      ADD s0, 10
            RETURN NZ
never:      RETURN
X
printf 'break inner\ncontinue\nbt\nfinish\nstepi 2\nbt\nfinish\nbt\nfinish\ncontinue\n' >"$tmp/calls.gdb"
run 0 "$tmp/calls.plain" -- "$isekit" run kcpsm6 "$tmp/calls.psm" --stop-port 0xFF --show s0
bounded 0 "$tmp/calls.dbg" -- "$isekit" debug kcpsm6 "$tmp/calls.psm" --stop-port 0xFF --show s0 --batch -x "$tmp/calls.gdb"
grep '^#' "$tmp/calls.dbg" | sed "s|$tmp/||" >"$tmp/calls.bt"
cat >"$tmp/calls.want" <<'X'
#0  pc 0x8 in inner (calls.psm:9)
#1  pc 0x4 in outer+1 (calls.psm:5)
#2  pc 0x1 in main (calls.psm:2)
#0  pc 0x7 in outer+4 (calls.psm:8)
#1  pc 0x1 in main (calls.psm:2)
#0  pc 0x2 in main+1 (calls.psm:3)
X
cmp -s "$tmp/calls.bt" "$tmp/calls.want" || { fail "KCPSM6 backtraces:"; diff "$tmp/calls.want" "$tmp/calls.bt" | sed 's/^/    /'; }
expect_in "$tmp/calls.dbg" "Returned to pc 0x5 in outer+2 ($tmp/calls.psm:6), kcpsm6 context 0"
expect_in "$tmp/calls.dbg" "Returned to pc 0x2 in main+1 ($tmp/calls.psm:3), kcpsm6 context 0"
expect_in "$tmp/calls.dbg" '"finish" not meaningful in the outermost frame'
same_end "$tmp/calls.plain" "$tmp/calls.dbg" 3

# ---- EdkDSP with a host program: the host drives the clock, its waits stop for the debugger.
# The first stop is before the firmware's first instruction (edk_start has loaded it); a
# breakpoint at main_loop is hit inside the host's first wait, and one at its line again inside
# the rendezvous of its VMUL request; a watch on the operand
# memory stops at the clock the host itself writes it, one on the result memory inside the
# host's edk_pb2mb (the DFU writes it); the host's output and the run's results are the
# undebugged run's ----
host="$src/models/edkdsp/examples/host_seed.c"
cat >"$tmp/host.gdb" <<'X'
info threads
break main_loop
continue
info registers
stepi
print s0
delete
watch dfu.DMB[8]
continue
print dfu.DMB[8]
delete
break fw_seed.psm:16
continue
delete
watch dfu.DMA[0x100..0x10f]
continue
print dfu.DMA[0x100]
delete
continue
info threads
continue
X
bounded 0 "$tmp/host.plain" -- "$isekit" run edkdsp --firmware "$fw" --host "$host"
bounded 0 "$tmp/host.dbg" -- "$isekit" debug edkdsp --firmware "$fw" --host "$host" --batch -x "$tmp/host.gdb"
expect_in "$tmp/host.dbg" 'isekit debug: pb stopped before clock 0'
expect_in "$tmp/host.dbg" "* pb context 0  running  pc 0x0000 ($fw:15), 0 instructions"
expect_in "$tmp/host.dbg" "Breakpoint 1, in main_loop ($fw:16) at pc 0x1, pb context 0, clock 8"
expect_in "$tmp/host.dbg" 'SP = 31 (0x1f)'
expect_in "$tmp/host.dbg" "Stepped, in main_loop+1 ($fw:17) at pc 0x2, pb context 0, clock 10"
expect_in "$tmp/host.dbg" 'Watchpoint 2: dfu.DMB[8] changed at clock 584'
expect_in "$tmp/host.dbg" "Breakpoint 3, in main_loop ($fw:16) at pc 0x1, pb context 0, clock 588"
expect_in "$tmp/host.dbg" 'DMB[8] = 3225419776 (0xc0400000)'
expect_in "$tmp/host.dbg" 'Watchpoint 4: dfu.DMA[256] changed at clock 727'
expect_in "$tmp/host.dbg" 'old = 0 (0x0), new = 3230662656 (0xc0900000)'
expect_in "$tmp/host.dbg" 'The program finished at clock 823.'
expect_in "$tmp/host.dbg" '* pb context 0  running  pc 0x0030 in mbpb_wait_host+4 (<isekit>/pbbcelib.psm:98), 412 instructions'
expect_in "$tmp/host.dbg" 'The program is not being run: it finished at clock 823.'
# the first breakpoint came before the host's first output, the host's write after it
sed -n '1,/^Breakpoint 1, in main_loop .* clock 8$/p' "$tmp/host.dbg" | grep -q '^capabilities' &&
    fail "the host printed its capabilities before the first breakpoint in edk_start's wait"
sed -n '/^Watchpoint 2: dfu.DMB\[8\] changed/,$p' "$tmp/host.dbg" | grep -q '^capabilities' &&
    fail "the host's write of B stopped before its capabilities call returned"
grep -E '^(capabilities|VMUL|unknown op|all results|FAILED)' "$tmp/host.plain" >"$tmp/host.plain.out"
grep -E '^(capabilities|VMUL|unknown op|all results|FAILED)' "$tmp/host.dbg" >"$tmp/host.dbg.out"
cmp -s "$tmp/host.plain.out" "$tmp/host.dbg.out" || { fail "the debugged host printed otherwise:"; diff "$tmp/host.plain.out" "$tmp/host.dbg.out"; }
same_end "$tmp/host.plain" "$tmp/host.dbg" 5
# leaving while the host waits: status 1, the host's calls fail from there and it ends
printf 'break 0x1\ncontinue\ncontinue\n' >"$tmp/hostq.gdb"
bounded 1 "$tmp/hostq" -- "$isekit" debug edkdsp --firmware "$fw" --host "$host" --batch -x "$tmp/hostq.gdb"
expect_in "$tmp/hostq" 'the debugger left the program unfinished at clock 588'
expect_in "$tmp/hostq" 'summary: 588 clocks'

# the same run served to a DAP client: entry, a breakpoint inside the host's wait, registers,
# a step, the end; the host's output and the results (on stderr while serving) are the same
bounded 0 "$tmp/hostdap" -- python3 "$src/tests/cli/lib/dap_host.py" "$isekit" "$fw" "$host" "$tmp/hostdap.out"
grep -E '^(capabilities|VMUL|unknown op|all results|FAILED)' "$tmp/hostdap.out" >"$tmp/hostdap.out.host"
cmp -s "$tmp/host.plain.out" "$tmp/hostdap.out.host" || { fail "the host served over DAP printed otherwise:"; cat "$tmp/hostdap" "$tmp/hostdap.out"; }
same_end "$tmp/host.plain" "$tmp/hostdap.out" 5

# ---- messages under the debugger name the command typed: isekit debug, not isekit run ----
run 2 "$tmp/n1" -- "$isekit" debug kcpsm6 "$psm" --max-clocks 0
expect_in "$tmp/n1" 'isekit debug: --max-clocks: 0 is out of range'
grep -q 'isekit run:' "$tmp/n1" && fail "isekit debug's usage error names isekit run: $(cat "$tmp/n1")"
run 2 "$tmp/n2" -- "$isekit" debug dpu "$psm" --tasklets 0
expect_in "$tmp/n2" 'isekit debug dpu: --tasklets: 0 is out of range (1 to 24)'
expect_in "$tmp/u3" 'isekit debug: the debugger left the program unfinished at clock'
printf 'quit\n' >"$tmp/q2.gdb"
bounded 2 "$tmp/n3" -- "$isekit" debug kcpsm6 "$psm" --param nosuch=1 --batch -x "$tmp/q2.gdb"
expect_in "$tmp/n3" 'isekit debug: --param nosuch=1:'

# ---- float display: the IPU's $a registers are FLOAT(32); set takes float literals, print,
# info storage and x/f show floats beside the bits (x/f on an INT cell reads it by its width),
# the bits stay raw ----
cat >"$tmp/fl.gdb" <<'X'
set w0.$a0 = 1.5
print w0.$a0
set w0.$a1 = -2.25e1
x/1x w0.$a1
x/2f w0.$a0
set w0.$a2 = 0x3f800000
print w0.$a2
set w0.$a3 = 1e39
set w0.$a3 = 1.5.5
x/1f $m0
info storage
print w0.$AACC0
delete
continue
X
mkdir "$tmp/ipu_f"
bounded 0 "$tmp/fl.dbg" -- "$isekit" debug ipu "$ex/vector_add.S" --state "$tmp/vector_add.toml" -o "$tmp/ipu_f" --batch -x "$tmp/fl.gdb"
expect_in "$tmp/fl.dbg" 'w0.$a0 = 1.5 (0x3fc00000)'
expect_in "$tmp/fl.dbg" 'w0.$a1 = -22.5 (0xc1b40000)'
expect_in "$tmp/fl.dbg" 'A[0x1]: 0xc1b40000'
expect_in "$tmp/fl.dbg" 'A[0x0]: 1.5 -22.5'
expect_in "$tmp/fl.dbg" 'w0.$a2 = 1 (0x3f800000)'
expect_in "$tmp/fl.dbg" '1e39 is beyond the f32 range'
expect_in "$tmp/fl.dbg" "'1.5.5' is not a float"
expect_in "$tmp/fl.dbg" 'M[0x0]: 0'
expect_in "$tmp/fl.dbg" 'unsigned 32 bits x 96, f32'
expect_in "$tmp/fl.dbg" 'w0.$AACC0 = 0 (0x00000000)'
expect_in "$tmp/fl.dbg" 'The program finished at clock 279.'
run 0 "$tmp/fl.info" -- "$isekit" info ipu
expect_in "$tmp/fl.info" 'FLOAT(32), latency 0'


# ---- the example accelerator's launch list as a program: break at FILE:LINE, stepi ----
# The stop comes before the clock in which the line would act: the MACs of lines 11 and 12 are
# not yet launched; stepi advances the list by one line; the run's timing and end are the
# undebugged run's.
cat >"$tmp/ll.gdb" <<'X'
break demo.ll:11
break demo.ll:1
break 12
info breakpoints
continue
info launches
print ACR
continue
stepi
info launches
break nosuch
delete
continue
X
run 0 "$tmp/ll.plain" -- "$isekit" run example "$ll" --show ACR
bounded 0 "$tmp/ll.dbg" -- "$isekit" debug example "$ll" --show ACR --batch -x "$tmp/ll.gdb"
expect_in "$tmp/ll.dbg" 'Breakpoint 1 at demo.ll:11 (mac gr0, gr0)'
expect_in "$tmp/ll.dbg" 'no launch step at demo.ll:1'
expect_in "$tmp/ll.dbg" 'Breakpoint 2 at demo.ll:12 (mac gr0, gr1)'
expect_in "$tmp/ll.dbg" 'Breakpoint 1, demo.ll:11 (mac gr0, gr0) at clock 4'
expect_in "$tmp/ll.dbg" 'clock 3      example slot 0: Clear_ACC (0xc00400), ended at clock 3'
expect_in "$tmp/ll.dbg" 'Breakpoint 2, demo.ll:12 (mac gr0, gr1) at clock 5'
expect_in "$tmp/ll.dbg" 'Stepped, demo.ll:13 (wait idle) at clock 6'
expect_in "$tmp/ll.dbg" 'clock 5      example slot 1: MAC_LREG_GREG (0xc00201), running'
expect_in "$tmp/ll.dbg" "no label 'nosuch' in the launch program"
expect_in "$tmp/ll.dbg" 'The program finished at clock 28.'
# before line 11 acts nothing of it has run: no MAC in the launch history at the first stop
sed -n '/^Breakpoint 1, /,/^Breakpoint 2, /p' "$tmp/ll.dbg" >"$tmp/ll.first"
grep -q MAC_LREG_GREG "$tmp/ll.first" && fail "the MAC of demo.ll:11 launched before its breakpoint:" && sed 's/^/    /' "$tmp/ll.first"
expect_in "$tmp/ll.first" 'ACR = 0 (0x000000000)'
same_end "$tmp/ll.plain" "$tmp/ll.dbg" 7

# ---- the launch program mac.s: break at its label and at mac.s:LINE ----
mac="$src/models/example/programs/mac.s"
cat >"$tmp/mac.gdb" <<'X'
break start
break mac.s:19
break mac.s:4
tbreak mac.s:14
continue
info launches
continue
continue
print ACR
stepi
break nosuch
continue
X
run 0 "$tmp/mac.plain" -- "$isekit" run example "$mac" --show ACR --show LR15
bounded 0 "$tmp/mac.dbg" -- "$isekit" debug example "$mac" --show ACR --show LR15 --batch -x "$tmp/mac.gdb"
expect_in "$tmp/mac.dbg" 'Breakpoint 1 at mac.s:10 (ldi lr1, 5)'
expect_in "$tmp/mac.dbg" 'Breakpoint 2 at mac.s:19 (mac gr0, gr1)'
expect_in "$tmp/mac.dbg" 'no launch step at mac.s:4'
expect_in "$tmp/mac.dbg" 'Temporary breakpoint 3 at mac.s:14 (mac gr0, gr0)'
expect_in "$tmp/mac.dbg" 'Breakpoint 1, mac.s:10 (ldi lr1, 5) at clock 0'
expect_in "$tmp/mac.dbg" 'No launches yet.'
expect_in "$tmp/mac.dbg" 'Breakpoint 3, mac.s:14 (mac gr0, gr0) at clock 5'
expect_in "$tmp/mac.dbg" 'Breakpoint 2, mac.s:19 (mac gr0, gr1) at clock 8'
expect_in "$tmp/mac.dbg" 'ACR = 50 (0x000000032)'
expect_in "$tmp/mac.dbg" 'Stepped, mac.s:21 (add lr15, gr0, gr1) at clock 9'
expect_in "$tmp/mac.dbg" "no label 'nosuch' in the launch program"
expect_in "$tmp/mac.dbg" 'The program finished at clock 11.'
same_end "$tmp/mac.plain" "$tmp/mac.dbg" 8

finish debug
