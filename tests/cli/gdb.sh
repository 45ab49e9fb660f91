#!/bin/sh
# isekit debug --gdb PORT: the gdb remote protocol stub. A scripted client (lib/gdb_client.py)
# drives it on the DPU (breakpoints, registers per tasklet, a step, memory, Ctrl-C), bad options
# are refused; then Debian's gdb-multiarch debugs a C program on the rv32 host (skipped, saying
# why, without the rv32 model, gdb-multiarch or riscv64-unknown-elf-gcc with picolibc).
# usage: gdb.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
lib="$src/tests/cli/lib"

# the DPU: the undebugged run, then the session (its 'M' makes the program print "Fib(10)")
run 0 "$tmp/plain" -- "$isekit" run dpu "$src/tests/dpu/programs/recursive.s" --tasklets 4 -o "$tmp/rec.elf"
"$isekit" objdump -t "$tmp/rec.elf" >"$tmp/syms"
fib=$(awk '$NF == "fib" { print "0x" $1 }' "$tmp/syms")
fmt=$(awk '$NF == "fmt" { print "0x" $1 }' "$tmp/syms")
bounded 0 "$tmp/s1" -- python3 "$lib/gdb_client.py" dpu "$tmp/out1" "$fib" "$fmt" -- \
    "$isekit" debug dpu "$tmp/rec.elf" --tasklets 4 --gdb 0
sed 's/^fib/Fib/' "$tmp/plain" >"$tmp/want1"
cmp -s "$tmp/out1" "$tmp/want1" || { fail "the gdb session's output:"; diff "$tmp/want1" "$tmp/out1"; cat "$tmp/s1"; }
# Ctrl-C stops a program that never ends (SIGINT), gdb's kill ends the run (status 1)
printf '    .text\nmain:\n    .globl main\n    nop\nspin:\n    jump spin\n' >"$tmp/spin.s"
bounded 1 "$tmp/s2" -- python3 "$lib/gdb_client.py" spin "$tmp/out2" -- "$isekit" debug dpu "$tmp/spin.s" --gdb 0
expect_in "$tmp/out2" 'isekit debug dpu: gdb killed the program at clock'
# loopback only; a processor must declare GDB_TARGET
run 2 "$tmp/b1" -- "$isekit" debug dpu "$tmp/spin.s" --gdb 10.0.0.1:1234
expect_in "$tmp/b1" '--gdb 10.0.0.1:1234: the stub listens on 127.0.0.1 only'
run 2 "$tmp/b2" -- "$isekit" debug dpu "$tmp/spin.s" --gdb 70000
psm="$src/models/picoblaze/examples/count.psm"
run 1 "$tmp/b3" -- "$isekit" debug kcpsm6 "$psm" --gdb 0
expect_in "$tmp/b3" 'no processor of this system declares what gdb needs (GDB_TARGET'

# gdb-multiarch on the rv32 host
why=
"$isekit" info rv32 >/dev/null 2>&1 || why="no rv32 model in this isekit"
command -v gdb-multiarch >/dev/null || why="gdb-multiarch not installed (scripts/deps.sh installs it)"
command -v riscv64-unknown-elf-gcc >/dev/null || why="riscv64-unknown-elf-gcc not installed (scripts/deps.sh)"
case $(riscv64-unknown-elf-gcc -print-file-name=picolibc.specs 2>/dev/null) in
/*) ;; *) [ -n "$why" ] || why="picolibc not installed (scripts/deps.sh installs picolibc-riscv64-unknown-elf)" ;;
esac
if [ -n "$why" ]; then
    echo "gdb.sh: the gdb-multiarch session is skipped: $why"
    finish gdb.sh
fi
cat >"$tmp/sum.c" <<'C'
#include <stdio.h>

static int sum(int n)
{
    int total = 0;
    for (int i = 1; i <= n; i++) total += i;
    return total;
}

int main(void)
{
    int n = 10;
    int s = sum(n);
    printf("sum(%d) = %d\n", n, s);
    return s == 55 ? 3 : 1;
}
C
# docs/rv32.md's command line (the CPROG part's), at -O0 so that every variable lives
riscv64-unknown-elf-gcc -march=rv32im -misa-spec=2.2 -mabi=ilp32 -O0 -g --specs=picolibc.specs --oslib=semihost \
    --crt0=semihost -Wl,--defsym=__flash=0x80000000,--defsym=__flash_size=0x40000 \
    -Wl,--defsym=__ram=0x80040000,--defsym=__ram_size=0xc0000 -o "$tmp/sum.elf" "$tmp/sum.c" || fail "gcc"
"$isekit" debug rv32 "$tmp/sum.elf" --gdb 0 >"$tmp/run.out" 2>"$tmp/run.err" &
pid=$!
port=
for i in $(seq 100); do
    port=$(sed -n 's/.*gdb stub listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$tmp/run.err")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || fail "the stub announced no port: $(cat "$tmp/run.err")"
bounded 0 "$tmp/gdb.out" -- gdb-multiarch -nx -batch "$tmp/sum.elf" -ex 'set architecture riscv:rv32' \
    -ex "target remote :$port" -ex 'break sum.c:13' -ex continue -ex next -ex 'print s' -ex 'print n' \
    -ex 'info registers pc' -ex continue
wait $pid
rc=$?
[ "$rc" -eq 3 ] || { fail "isekit debug rv32 exited $rc, wanted the program's 3"; cat "$tmp/run.err"; }
expect_in "$tmp/run.out" 'sum(10) = 55'
expect_in "$tmp/gdb.out" 'Breakpoint 1, main () at'
expect_in "$tmp/gdb.out" '13	    int s = sum(n);'
expect_in "$tmp/gdb.out" '14	    printf("sum(%d) = %d\n", n, s);'
expect_in "$tmp/gdb.out" '$1 = 55'
expect_in "$tmp/gdb.out" '$2 = 10'
grep -q '^pc  *0x800[0-9a-f]*.*<main+[0-9]*>' "$tmp/gdb.out" || { fail "info registers pc:"; cat "$tmp/gdb.out"; }
expect_in "$tmp/gdb.out" 'exited with code 03]'
finish gdb.sh
