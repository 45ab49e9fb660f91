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

# FILE:LINE once the assembler emits line information (objdump -l shows it)
run 0 "$tmp/dpu.elf.log" -- "$isekit" run dpu "$prog" --tasklets 2 -o "$tmp/rec.elf"
if "$isekit" objdump -l "$tmp/rec.elf" 2>/dev/null | grep -q 'recursive.s:'; then
    printf 'break recursive.s:8\ncontinue\ndelete\ncontinue\n' >"$tmp/line.gdb"
    bounded 0 "$tmp/line" -- "$isekit" debug dpu "$prog" --tasklets 2 --batch -x "$tmp/line.gdb"
    expect_in "$tmp/line" 'recursive.s:'
    same_end "$tmp/dpu.plain" "$tmp/line" 7
else
    printf 'break recursive.s:16\ncontinue\n' >"$tmp/line.gdb"
    bounded 0 "$tmp/line" -- "$isekit" debug dpu "$prog" --tasklets 2 --batch -x "$tmp/line.gdb"
    expect_in "$tmp/line" 'no line information in the program'
    same_end "$tmp/dpu.plain" "$tmp/line" 7
fi

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
expect_in "$tmp/ex.dbg" 'no processor in this system'
expect_in "$tmp/ex.dbg" "no storage or register named 'GR5'"
expect_in "$tmp/ex.dbg" 'LRF[0x0]: 0 5 0 9'
expect_in "$tmp/ex.dbg" 'write x/NF ADDR with N 1 to 65536 and F one of x d u b c i'
expect_in "$tmp/ex.dbg" "cells 3 to 99 are not in 'LRF' (16 cells)"
expect_in "$tmp/ex.dbg" "unknown info command 'bogus'"
expect_in "$tmp/ex.dbg" "finish is not supported: model 'example' declares no call ABI"
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
expect_in "$tmp/pb.dbg" 'Breakpoint 1, in loop at pc 0x1, kcpsm6 context 0, clock 2'
expect_in "$tmp/pb.dbg" 's0 = 5 (0x05)'
expect_in "$tmp/pb.dbg" 'Watchpoint 2: kcpsm6.'
expect_in "$tmp/pb.dbg" 'old = 5 (0x5), new = 6 (0x6)'
expect_in "$tmp/pb.dbg" '  pc 0x1: OUTPUT s0, 0x10'
expect_in "$tmp/pb.dbg" 'Stepped, in loop+1 at pc 0x2'
same_end "$tmp/pb.plain" "$tmp/pb.dbg" 3

# ---- EdkDSP firmware without a host: steps, registers, to the clock limit ----
fw="$src/models/edkdsp/examples/fw_seed.psm"
printf 'info threads\nstepi 3\ninfo registers\ninfo slots\ncontinue\n' >"$tmp/edk.gdb"
run 0 "$tmp/edk.plain" -- "$isekit" run edkdsp --firmware "$fw" --max-clocks 2000
bounded 0 "$tmp/edk.dbg" -- "$isekit" debug edkdsp --firmware "$fw" --max-clocks 2000 --batch -x "$tmp/edk.gdb"
expect_in "$tmp/edk.dbg" '* pb context 0  running'
expect_in "$tmp/edk.dbg" 'Stepped, at pc 0x2b, pb context 0'
expect_in "$tmp/edk.dbg" 'dfu: 0 of 1 slots busy'
expect_in "$tmp/edk.dbg" '--max-clocks reached at clock 2005'
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
expect_in "$tmp/ipu.dbg" 'Breakpoint 1, at pc 0x3000, tile context'
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
expect_in "$tmp/sys.dbg" '  pb1 context 0  running  pc 0x0000, 0 instructions'
expect_in "$tmp/sys.dbg" 'Stepped, in pb2mb_report_running+1 at pc 0x13, pb1 context 0, clock 4'
expect_in "$tmp/sys.dbg" 'Watchpoint 1: dfu0.CMEM[128] changed at clock 83'
expect_in "$tmp/sys.dbg" 'clock 20     dfu1 slot 0: DFU_VMUL (0x2), ended at clock 72'
same_end "$tmp/sys.plain" "$tmp/sys.dbg" 4

# ---- usage: -x without debug; a missing script; quitting early says so ----
run 1 "$tmp/u1" -- "$isekit" run kcpsm6 "$psm" -x "$tmp/pb.gdb" --batch
expect_in "$tmp/u1" '-x and --batch are options of isekit debug'
bounded 1 "$tmp/u2" -- "$isekit" debug kcpsm6 "$psm" --batch -x "$tmp/none.gdb"
expect_in "$tmp/u2" 'none.gdb: cannot open it'
printf 'stepi\nquit\n' >"$tmp/q.gdb"
bounded 1 "$tmp/u3" -- "$isekit" debug kcpsm6 "$psm" -x "$tmp/q.gdb"
expect_in "$tmp/u3" 'the debugger left the program unfinished at clock'
# commands from stdin when it is not a terminal
printf 'break 4\ncontinue\nprint s0\ndelete\ncontinue\n' | "$isekit" debug kcpsm6 "$psm" --stop-port 0xFF >"$tmp/stdin" 2>&1
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
expect_in "$tmp/sp.dbg" '  read by kcpsm6 context 0 at pc 0x3, clock 7'
expect_in "$tmp/sp.dbg" '  read by kcpsm6 context 0 at pc 0x4, clock 9'
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

finish debug
