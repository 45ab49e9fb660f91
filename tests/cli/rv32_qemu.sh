#!/bin/sh
# The differential test of the rv32 model: each semihosted C program of tests/rv32/c (built by
# tests/rv32/c/programs.cmake) runs on `isekit run rv32` and on qemu-system-riscv32 (-machine
# virt -bios none -kernel, semihosting on stdout); the program's output followed by "exit N"
# must equal tests/rv32/c/NAME.out, which was written from what the C code implies, so the test
# also fails when both simulators agree on a wrong answer.
# usage: rv32_qemu.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

elfs=$(dirname "$isekit")/tests/rv32/c
if ! command -v riscv64-unknown-elf-gcc >/dev/null; then
    echo "skipped: riscv64-unknown-elf-gcc not installed (scripts/deps.sh installs it)"
    exit 77
fi
[ -d "$elfs" ] || { echo "FAIL: no $elfs: the build did not make the C programs"; exit 1; }
qemu=$(command -v qemu-system-riscv32) ||
    echo "note: qemu-system-riscv32 not installed; only the expected outputs are compared"

# The command line each program sees: its name, and two words for args.c.
cmdline() { if [ "$1" = args ]; then echo "args.elf one two"; else echo "$1.elf"; fi; }

# check NAME WHO OUT: OUT (output + "exit N") is NAME.out
check() {
    if ! cmp -s "$src/tests/rv32/c/$1.out" "$3"; then
        fail "$1 on $2 differs from tests/rv32/c/$1.out (expected -, got +):"
        diff -u "$src/tests/rv32/c/$1.out" "$3" | tail -n +3 | head -40 | sed 's/^/    /'
    fi
}

count=0
for c in "$src"/tests/rv32/c/*.c; do
    name=$(basename "$c" .c)
    [ -f "$elfs/$name.elf" ] || { fail "$name.elf was not built"; continue; }
    want=$(tail -n 1 "$src/tests/rv32/c/$name.out" | sed 's/^exit //')
    line=$(cmdline "$name")
    count=$((count + 1))

    # isekit: the run's own summary goes after the program's output on stdout; it is cut off
    # at the first line "summary: N clocks, ..." so that only what the program wrote is compared.
    bounded "$want" "$tmp/$name.isk" -- sh -c 'cd "$1" && exec "$2" run rv32 "$3.elf" --param "cmdline=$4" 2>"$5"' \
        sh "$elfs" "$isekit" "$name" "$line" "$tmp/$name.isk.err"
    st=$?
    { sed '/^summary: [0-9]* clocks, /,$d' "$tmp/$name.isk"; echo "exit $want"; } >"$tmp/$name.isk.out"
    [ -s "$tmp/$name.isk.err" ] && { echo "  isekit stderr for $name:"; head -5 "$tmp/$name.isk.err" | sed 's/^/    /'; }
    check "$name" isekit "$tmp/$name.isk.out"

    [ -n "$qemu" ] || continue
    # qemu: the semihosting console on its own stdio chardev, no serial or monitor on stdout;
    # -semihosting-config arg= words are joined by spaces into the command line. A 32 MiB
    # translation cache and 16 MiB of RAM keep it inside bounded's 1 GiB (its default JIT
    # buffer alone is 1 GiB).
    args=$(echo "$line" | sed 's/^/arg=/; s/ /,arg=/g')
    bounded "$want" "$tmp/$name.qemu" -- sh -c 'cd "$1" && exec "$2" -machine virt -accel tcg,tb-size=32 -m 16M \
        -bios none -kernel "$3.elf" \
        -display none -monitor none -serial none -chardev stdio,id=con \
        -semihosting-config "enable=on,target=native,chardev=con,$4" </dev/null' \
        sh "$elfs" "$qemu" "$name" "$args"
    echo "exit $want" >>"$tmp/$name.qemu"
    check "$name" qemu "$tmp/$name.qemu"
done
[ "$count" -ge 12 ] || fail "only $count C programs"
finish rv32_qemu
