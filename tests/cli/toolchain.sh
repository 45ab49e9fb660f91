#!/bin/sh
# isekit as / ld / build / objdump (dis): the toolchain from the command line.
# usage: toolchain.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
tiny="$src/tests/asm/models/tiny.c"
data="$src/tests/asm/data"

# --help everywhere, usage errors exit 2
for cmd in as ld build objdump dis; do
    run 0 "$tmp/help" -- "$isekit" "$cmd" --help
    expect_in "$tmp/help" "usage: isekit"
done
run 2 "$tmp/usage" -- "$isekit" as
expect_in "$tmp/usage" "no input files"
run 2 "$tmp/usage" -- "$isekit" as "$data/main.s"
expect_in "$tmp/usage" "give -m MODEL"
run 2 "$tmp/usage" -- "$isekit" ld -m example --frobnicate x.o
expect_in "$tmp/usage" "unknown option '--frobnicate'"
# an option of another tool is a usage error, not silently taken (objdump's input format is -b)
run 2 "$tmp/usage" -- "$isekit" objdump --format words x.o
expect_in "$tmp/usage" "isekit objdump: option '--format' does not apply to isekit objdump"
run 2 "$tmp/usage" -- "$isekit" as -m example -O binary x.s
expect_in "$tmp/usage" "isekit as: option '-O' does not apply to isekit as"

# two files, assembled separately and linked; the listing shows the resolved call
run 0 "$tmp/as1" -- "$isekit" as -m "$tiny" "$data/main.s" -o "$tmp/main.o"
run 0 "$tmp/as2" -- "$isekit" as -m "$tiny" "$data/lib.s" -o "$tmp/lib.o"
run 0 "$tmp/dumpo" -- "$isekit" objdump -m "$tiny" -r "$tmp/main.o"
expect_in "$tmp/dumpo" "R_TINY_CALL	add_one"
expect_in "$tmp/dumpo" "R_TINY_ABS20	counter"
run 0 "$tmp/ld" -- "$isekit" ld -m "$tiny" "$tmp/main.o" "$tmp/lib.o" -o "$tmp/prog.elf"
run 0 "$tmp/dump" -- "$isekit" dis -m "$tiny" -d -t "$tmp/prog.elf"
expect_in "$tmp/dump" "70000009	call 0x9 <add_one>"
expect_in "$tmp/dump" "<add_one>:"
expect_in "$tmp/dump" "bne r3, r0, 0x2 <_start+0x8>"
expect_in "$tmp/dump" "0001000c g       .data        00000000 counter"
# flat outputs
run 0 "$tmp/ld" -- "$isekit" ld -m "$tiny" "$tmp/main.o" "$tmp/lib.o" -O binary -o "$tmp/prog.bin"
[ "$(wc -c <"$tmp/prog.bin")" -eq 64 ] || fail "prog.bin is not 16 instructions"
run 0 "$tmp/ld" -- "$isekit" ld -m "$tiny" "$tmp/main.o" "$tmp/lib.o" -O ihex -o "$tmp/prog.hex"
expect_in "$tmp/prog.hex" ":00000001FF"
run 0 "$tmp/ld" -- "$isekit" ld -m "$tiny" "$tmp/main.o" "$tmp/lib.o" -O mem -o "$tmp/prog.mem"
expect_in "$tmp/prog.mem" "70000009"
# ... and read back: a raw binary, a HEX image, a word list
run 0 "$tmp/dumpb" -- "$isekit" objdump -m "$tiny" "$tmp/prog.bin"
expect_in "$tmp/dumpb" "call 0x9"
run 0 "$tmp/dumph" -- "$isekit" objdump -m "$tiny" "$tmp/prog.hex"
expect_in "$tmp/dumph" "call 0x9"
run 0 "$tmp/dumpm" -- "$isekit" objdump -m "$tiny" "$tmp/prog.mem"
expect_in "$tmp/dumpm" "call 0x9"
printf '11000100\n@8\n90000000\nzz\n' >"$tmp/bad.mem"
run 1 "$tmp/dumpbad" -- "$isekit" objdump -m "$tiny" -b words "$tmp/bad.mem"
expect_in "$tmp/dumpbad" "bad.mem:4:1: error: expected a hexadecimal word or @address"

# one step
run 0 "$tmp/build" -- "$isekit" build -m "$tiny" "$data/main.s" "$data/lib.s" -o "$tmp/prog2.elf"
cmp -s "$tmp/prog.elf" "$tmp/prog2.elf" || fail "isekit build and as+ld differ"
# the library in an archive (made with the system's ar, when there is one)
if command -v ar >/dev/null 2>&1 && ar rc "$tmp/libtl.a" "$tmp/lib.o" 2>/dev/null; then
    run 0 "$tmp/ar" -- "$isekit" ld -m "$tiny" "$tmp/main.o" -L "$tmp" -ltl -o "$tmp/prog3.elf"
    cmp -s "$tmp/prog.elf" "$tmp/prog3.elf" || fail "linking with the archive gives another program"
fi

# errors: undefined symbol, ABI versions, an out-of-range branch, a bad source
run 1 "$tmp/undef" -- "$isekit" ld -m "$tiny" "$tmp/main.o" -o "$tmp/x.elf"
expect_in "$tmp/undef" "main.o: error: undefined symbol 'add_one', referenced from .text+0x8"
run 0 "$tmp/as3" -- "$isekit" as -m "$src/tests/asm/models/tiny_abi3.c" "$data/lib.s" -o "$tmp/lib3.o"
run 1 "$tmp/abi" -- "$isekit" ld -m "$tiny" "$tmp/main.o" "$tmp/lib3.o" -o "$tmp/x.elf"
expect_in "$tmp/abi" "ABI version mismatch: $tmp/main.o has ABI version 1 (e_flags 0x01800000) but $tmp/lib3.o has ABI version 3"
printf '        bne r1, r2, far\n        .space 1024\nfar:    ret\n        bogus r1\n' >"$tmp/far.s"
run 1 "$tmp/far" -- "$isekit" as -m "$tiny" "$tmp/far.s"
expect_in "$tmp/far" "far.s:1:21: error: operand o: target 0x101 is out of reach: offset 256 is outside [-128, 127]"
expect_in "$tmp/far" "far.s:4:9: error: unknown instruction 'bogus' for model 'tiny'"
expect_in "$tmp/far" "isekit as: 2 errors"

# the example accelerator: a launch program from assembly, listed as a launch list and run
run 0 "$tmp/conv" -- "$isekit" as -m example "$src/models/example/programs/convolution.s" -o "$tmp/conv.o"
run 0 "$tmp/convll" -- "$isekit" dis -m example --plain "$tmp/conv.o"
expect_in "$tmp/convll" "conv acc, dm0[ar0], tm0[ar1]"
run 0 "$tmp/convrun" -- "$isekit" run example "$tmp/convll"
expect_in "$tmp/convrun" "interrupts: 1"

# a .S file through the C preprocessor
printf '#define SEVEN 7\n        addi r1, r0, SEVEN\n' >"$tmp/pp.S"
run 0 "$tmp/pp" -- "$isekit" as -m "$tiny" "$tmp/pp.S" -o "$tmp/pp.o"
run 0 "$tmp/ppd" -- "$isekit" dis -m "$tiny" "$tmp/pp.o"
expect_in "$tmp/ppd" "addi r1, r0, 7"

finish toolchain
