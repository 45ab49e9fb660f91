#!/bin/sh
# PicoBlaze images: `isekit psm -d` and `isekit objdump -b words` read .hex/.mem/.dec through
# the one word-list reader (elf/image.c), so they see the same words and refuse a bad image
# with the same message; the .psm front end takes the models that declare its syntax.
# usage: psm_images.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

printf '  LOAD s0, 2A\nloop: ADD s0, 01\n  OUTPUT s0, 10\n  JUMP NZ, loop\n' >"$tmp/p.psm"
run 0 "$tmp/asm" -- "$isekit" psm -6 "$tmp/p.psm" -o "$tmp/p.hex" -o "$tmp/p.mem" -o "$tmp/p.dec"

# the words each reader found, upper-case hex, one per line
words='0102A
11001
2D010
36001'
for img in p.hex p.mem p.dec; do
    run 0 "$tmp/psm_$img" -- "$isekit" psm -6 -d "$tmp/$img"
    got=$(awk 'NR <= 4 { print $2 }' "$tmp/psm_$img")
    [ "$got" = "$words" ] || fail "psm -d $img read: $got"
done
for img in p.hex p.mem; do
    run 0 "$tmp/dump_$img" -- "$isekit" objdump -m kcpsm6 -b words "$tmp/$img"
    got=$(awk -F '\t' '/^ *[0-9a-f]+:\t/ && n++ < 4 { print toupper($2) }' "$tmp/dump_$img")
    [ "$got" = "$words" ] || fail "objdump $img read: $got"
done

# the same refusals, at the same file:line:column, from both
printf '00000\n@3\n2A0G0 ; a comment\n' >"$tmp/bad.hex"
printf '@0\n40000\n' >"$tmp/wide.mem"
for bad in "bad.hex:3:4: error: expected a hexadecimal word or @address" \
           "wide.mem:2:1: error: the word 40000 is wider than 18 bits"; do
    f=${bad%%:*}
    run 1 "$tmp/psm_$f.out" -- "$isekit" psm -6 -d "$tmp/$f"
    expect_in "$tmp/psm_$f.out" "$bad"
    run 1 "$tmp/dump_$f.out" -- "$isekit" objdump -m kcpsm6 -b words "$tmp/$f"
    expect_in "$tmp/dump_$f.out" "$bad"
done
# what only the program space refuses
printf '@1000\n00001\n' >"$tmp/far.mem"
run 1 "$tmp/far" -- "$isekit" psm -6 -d "$tmp/far.mem"
expect_in "$tmp/far" "far.mem:2:1: error: address 1000 is outside the 4096-word program space"

# the front end takes a model by what it declares (PARAM_ENUM "syntax" = psm), not by its word width
run 0 "$tmp/info" -- "$isekit" info kcpsm3
expect_in "$tmp/info" "syntax            enumeration  default psm"
run 1 "$tmp/other" -- "$isekit" psm --core example "$tmp/p.psm"
expect_in "$tmp/other" "model 'example' does not declare the .psm syntax"
run 1 "$tmp/otherd" -- "$isekit" psm --core example -d "$tmp/p.hex"
expect_in "$tmp/otherd" "model 'example' does not declare the .psm syntax"

finish psm_images
