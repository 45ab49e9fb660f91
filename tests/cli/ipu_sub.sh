#!/bin/sh
# The IPU's pseudo-instruction `sub $d, $s, imm` = `add $d, $s, -imm` (architecture.md 11.1; the
# table's simm16 form of add with its immediate negated, field flag n): the words, the range
# -32767..32768 refused at file:line:column beyond it, and the two real forms of sub unchanged,
# in bundles too.
# usage: ipu_sub.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

printf '  sub $m1, $m2, 5\n  sub $m1, $m2, 32768\n  sub $m1, $m2, -32767\n  sub $m1, $m2, $m3\n  sub $m1, 7, $m3\n  { sub $m1, $m2, 1 ; fnop }\n' >"$tmp/ok.s"
run 0 "$tmp/as" -- "$isekit" as -m ipu "$tmp/ok.s" -o "$tmp/ok.o"
run 0 "$tmp/dis" -- "$isekit" objdump -m ipu "$tmp/ok.o"
for w in "0:	2221fffb" "4:	22218000" "8:	22217fff" "c:	44302612" "10:	39310007" "14:	a221ffff 9ad00000"; do
    expect_in "$tmp/dis" "$w"
done

printf '  nop\n  sub $m1, $m2, 32769\n  sub $m1, $m2, -32768\n' >"$tmp/bad.s"
run 1 "$tmp/bad" -- "$isekit" as -m ipu "$tmp/bad.s" -o "$tmp/bad.o"
expect_in "$tmp/bad" "bad.s:2:17: error: operand Imm: 32769 is out of range [-32767, 32768]"
expect_in "$tmp/bad" "bad.s:3:17: error: operand Imm: -32768 is out of range"
finish ipu_sub
