#!/bin/sh
# The article's example from C (models/rv32/examples/article): article.c, built with Debian's
# RISC-V gcc and picolibc, runs on the rv32 host of article.sys with the example accelerator.
# The results must be what the article's semantics give for the data in article.c (computed
# here), and the clocks the host counts (mcycle) those the semantics imply: CONV takes LOOPREG +
# 2 clocks from its launch; its flag (SHM, latency 1), written in its last clock, is seen by the
# host's poll the clock after; its interrupt reaches the host in its last clock and the handler
# runs after. A Perfetto trace of the same run (host instructions, commands, interrupts) then
# pins each style to the exact clocks the semantics give (docs/rv32-launch.md).
# usage: article_c.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
dir="$src/models/rv32/examples/article"

command -v riscv64-unknown-elf-gcc >/dev/null ||
    { fail "riscv64-unknown-elf-gcc is not installed (scripts/deps.sh installs it)"; finish article_c; }
cp "$dir/article.sys" "$tmp/"
if ! riscv64-unknown-elf-gcc -march=rv32im -misa-spec=2.2 -mabi=ilp32 -O2 -g -Wall -Wextra -Werror \
        -I "$src/include" --specs=picolibc.specs --oslib=semihost --crt0=semihost \
        -Wl,--defsym=__flash=0x80000000,--defsym=__flash_size=0x40000 \
        -Wl,--defsym=__ram=0x80040000,--defsym=__ram_size=0xc0000 \
        -o "$tmp/article.elf" "$dir/article.c" >"$tmp/gcc" 2>&1; then
    fail "article.c does not build:"; sed 's/^/    /' "$tmp/gcc"; finish article_c
fi

bounded 0 "$tmp/run" -- "$isekit" run "$tmp/article.sys" --perfetto "$tmp/trace.json"
out="$tmp/run"

# what the semantics give: CONV's dot product of article.c's DM0 and TM0 (N pairs, as LOOPREG
# = N - 1), MAC's 7 * -3 of the LR values moved into GR0 and GR1
vec() { sed -n "s/^static const int16_t $1\[N\] = { \(.*\) };/\1/p" "$dir/article.c" | tr -d ' '; }
d=$(vec dm0); t=$(vec tm0)
[ -n "$d" ] && [ -n "$t" ] || fail "cannot read dm0/tm0 from article.c"
n=$(echo "$d" | tr ',' '\n' | wc -l)
dot=0
i=1
while [ "$i" -le "$n" ]; do
    a=$(echo "$d" | cut -d, -f"$i"); b=$(echo "$t" | cut -d, -f"$i")
    dot=$((dot + a * b)); i=$((i + 1))
done
loopreg=$((n - 1))
grep -q 'LDI(2, 7)' "$dir/article.c" && grep -q 'LDI(3, -3)' "$dir/article.c" || fail "article.c's MAC operands changed"
expect_in "$out" "move: gr0 = 7, gr1 = -3"
expect_in "$out" "mac: acc = -21"
for style in static flag interrupt; do expect_in "$out" "$style: acc = $dot, launched at clock "; done

# the clocks the host counted from each CONV's launch (rdcycle and the launch are adjacent)
after() { sed -n "s/^$1: .* launched at clock [0-9]*, .* after \([0-9]*\) clocks.*/\1/p" "$out"; }
# static: the host's wait loop (rdcycle, sub, branch) leaves once rdcycle shows LOOPREG + 2
# clocks, at most one loop late; then its own rdcycle: LOOPREG + 3 to LOOPREG + 5
s=$(after static)
[ -n "$s" ] && [ "$s" -ge $((loopreg + 3)) ] && [ "$s" -le $((loopreg + 5)) ] ||
    fail "static: read after '$s' clocks, not LOOPREG + 3 to 5 (the wait for LOOPREG + 2)"
# flag: written in CONVF's last clock (launch + LOOPREG + 1), visible from launch + LOOPREG + 2;
# the poll (lw, branch) that sees it, the branch out, then rdcycle: LOOPREG + 4 or + 5
s=$(after flag)
[ -n "$s" ] && [ "$s" -ge $((loopreg + 4)) ] && [ "$s" -le $((loopreg + 5)) ] ||
    fail "flag: seen after '$s' clocks, not LOOPREG + 4 or 5 (visible from LOOPREG + 2)"
# interrupt: raised at the host's input in CONV's last clock; wfi wakes, the trap is taken and
# the handler's prologue saves registers before its rdcycle
s=$(after interrupt)
[ -n "$s" ] && [ "$s" -gt $((loopreg + 2)) ] && [ "$s" -le $((loopreg + 12)) ] ||
    fail "interrupt: handler after '$s' clocks"
expect_in "$out" "(claimed source 1)"

# The exact clocks, from the trace: L is each CONV's launch clock as the host printed it.
launched() { sed -n "s/^$1: .* launched at clock \([0-9]*\),.*/\1/p" "$out"; }
python3 - "$tmp/trace.json" "$loopreg" "$(launched static)" "$(launched flag)" "$(launched interrupt)" \
    >"$tmp/exact" 2>&1 <<'PY' || { fail "the trace does not show the clocks the semantics imply:"; sed 's/^/    /' "$tmp/exact"; }
import json, sys
events = json.load(open(sys.argv[1]))["traceEvents"]
loop, l1, l2, l3 = (int(a) for a in sys.argv[2:6])
end = loop + 2                        # CONV's length: its last clock is L + end - 1
host = [e for e in events if e.get("cat") == "instruction"]
def after(clock): return [e for e in host if e["ts"] >= clock]
def check(what, ok):
    if not ok: print(what); sys.exit(1)
for launch, name in ((l1, "conv "), (l2, "convf "), (l3, "conv ")):
    cmd = [e for e in events if e.get("cat") == "command" and e["ts"] == launch]
    check(f"no command launched at clock {launch}", len(cmd) == 1 and cmd[0]["name"].startswith(name))
    check(f"{name}at {launch} takes {cmd[0]['dur']} clocks, not LOOPREG + 2", cmd[0]["dur"] == end)
# static: the first read of the accumulator (mapped at 0x40002000) comes once the result is
# visible, at L + LOOPREG + 2 or later
acc = lambda es: next(i for i, e in enumerate(es) if e["args"]["asm"].startswith("lui") and "0x40002" in e["args"]["asm"])
rest = after(l1)
check("static: the accumulator is read before CONV's end", rest[acc(rest) + 1]["ts"] >= l1 + end)
# flag: CONVF writes SHM[1] in its last clock (latency 1): the first poll at or after
# L + LOOPREG + 2 sees it and ends the loop; the poll before it came earlier
rest = after(l2 + 1)
polls = [e["ts"] for e in rest[:acc(rest)] if e["name"] == "lw"]
check(f"flag: polls at {polls}", len(polls) >= 2 and polls[-1] >= l2 + end and polls[-2] < l2 + end)
# interrupt: raised in CONV's last clock; the sleeping wfi wakes the clock after and completes,
# and the trap is taken after it: the handler's first instruction issues at L + LOOPREG + 3
irq = [e["ts"] for e in events if e.get("cat") == "interrupt" and e["name"] == "interrupt line 0 raised" and e["ts"] >= l3]
check(f"interrupt raised at {irq}, not {l3 + end - 1}", irq == [l3 + end - 1])
trap = next(e["ts"] for e in after(l3) if e["args"].get("function") == "on_trap")
check(f"the handler's first instruction at {trap}, not {l3 + end + 1}", trap == l3 + end + 1)
PY
expect_in "$out" "host context 0: "
finish article_c
