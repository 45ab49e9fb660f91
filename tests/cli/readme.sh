#!/bin/sh
# The README's thirty-second example works as printed, and so do the models table's commands.
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' "$src/README.md" >"$tmp/mac.c"
sed -n '/^    \$ cat prog.ll/,/^    \$ isekit run/p' "$src/README.md" | sed '1d;$d' | sed 's/^    //' >"$tmp/prog.ll"
grep -q "expect ACC == 28" "$tmp/prog.ll" || { echo "FAIL: could not extract prog.ll"; exit 1; }
"$isekit" run "$tmp/mac.c" "$tmp/prog.ll" >"$tmp/out" 2>&1 || { echo "FAIL:"; cat "$tmp/out"; exit 1; }
grep -q "summary: 4 clocks, 2 launches" "$tmp/out" || { echo "FAIL:"; cat "$tmp/out"; exit 1; }
"$isekit" info "$tmp/mac.c" | grep -q "General Registers" || { echo "FAIL: info"; exit 1; }
# Every `isekit run ...` of the models table, from the top of the source tree.
grep -E '^\| `[a-z0-9_]+`' "$src/README.md" | grep -o '`isekit run [^`]*`' | tr -d '`' >"$tmp/commands"
[ "$(wc -l <"$tmp/commands")" -ge 3 ] || { echo "FAIL: the models table's commands were not found"; exit 1; }
while read -r _ args; do
    # shellcheck disable=SC2086
    (cd "$src" && "$isekit" $args) >"$tmp/out" 2>&1 || { echo "FAIL: isekit $args"; cat "$tmp/out"; exit 1; }
done <"$tmp/commands"
# The commands table's isekit cc example, its output file moved out of the source tree.
grep -o '`isekit cc [^`]*`' "$src/README.md" | tr -d '`' | sed "s| -o fw.h| -o $tmp/fw.h|" >"$tmp/cc"
[ "$(wc -l <"$tmp/cc")" -eq 1 ] || { echo "FAIL: the README's isekit cc example was not found"; exit 1; }
read -r _ args <"$tmp/cc"
# shellcheck disable=SC2086
(cd "$src" && "$isekit" $args) >"$tmp/out" 2>&1 || { echo "FAIL: isekit $args"; cat "$tmp/out"; exit 1; }
grep -q 'static const uint32_t' "$tmp/fw.h" || { echo "FAIL: isekit cc wrote no firmware array"; exit 1; }
echo "cli/readme: the README example and the models table's commands run"
