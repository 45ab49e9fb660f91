#!/bin/sh
# The IPU's relocations (models/ipu/ipu.c, our own numbers): a label as setzi's immediate
# (R_IPU_ZIMM20, the absolute byte address), a call to a symbol of another object and branches
# to another section (R_IPU_TARGET19, byte address >> 2 in bits 18:0), .word/.long of a symbol
# (R_IPU_32), the aux setzi of a bundle keeping the co-issue bit; `isekit ld -m ipu` writes the
# words, and a target that is not a multiple of 4 or an address beyond 20 bits is a link error.
# usage: ipu_reloc.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

cat >"$tmp/main.S" <<'EOF'
.section .text.a
.align 8
f:  setzi $m0, g
    setzi $m1, data
    { call $m10, ext ; setzi $a1, data + 8 }
    bri g
    brz $m0, f
    exitz $mzero
.section .text.b
g:  exitnz $mzero
.data
data: .word ext
      .long g + 4
EOF
printf '.text\n.globl ext\n    nop\next: exitz $mzero\n' >"$tmp/lib.s"

run 0 "$tmp/as" -- "$isekit" as -m ipu "$tmp/main.S" -o "$tmp/main.o"
run 0 "$tmp/as2" -- "$isekit" as -m ipu "$tmp/lib.s" -o "$tmp/lib.o"
run 0 "$tmp/rel" -- "$isekit" objdump -r -D "$tmp/main.o"
for r in "0: R_IPU_ZIMM20	.text.b" "4: R_IPU_ZIMM20	.data" "8: R_IPU_TARGET19	ext" "c: R_IPU_ZIMM20	.data+0x8" \
         "10: R_IPU_TARGET19	.text.b" "14: R_IPU_TARGET19	.text.a" "0: R_IPU_32	ext" "4: R_IPU_32	.text.b+0x4"; do
    expect_in "$tmp/rel" "$r"
done

# The map: lib's .text (nop, ext) at 0x40000, .text.a at 0x40008, .text.b at 0x40024, .data
# at 0x40028.
run 0 "$tmp/ld" -- "$isekit" ld -m ipu "$tmp/main.o" "$tmp/lib.o" -o "$tmp/p.elf"
run 0 "$tmp/dis" -- "$isekit" objdump -D -t "$tmp/p.elf"
expect_in "$tmp/dis" "00040004 g       .text"                      # ext
expect_in "$tmp/dis" "00040024 l       .text.b"                    # g
expect_in "$tmp/dis" "40008:	19040024	setzi \$m0, 262180"       # g = 0x40024
expect_in "$tmp/dis" "4000c:	19140028	setzi \$m1, 262184"       # data = 0x40028
expect_in "$tmp/dis" "40010:	98a10001 9a140030	{ call \$m10, 0x40004 ; setzi \$a1, 262192 }"
expect_in "$tmp/dis" "40018:	40810009	bri 0x40024 <g>"         # 0x40024 >> 2 = 0x10009
expect_in "$tmp/dis" "4001c:	13010002	brz \$m0, 0x40008 <f>"
expect_in "$tmp/dis" "{ call \$m10, 0x40004 ; setzi \$a1, 262192 } <ext>"   # a bundle's targets after it
expect_in "$tmp/dis" "40028:	00040004"                           # .word ext
expect_in "$tmp/dis" "4002c:	00040028"                           # .long g + 4
# isekit build of the sources gives the same image
run 0 "$tmp/build" -- "$isekit" build -m ipu "$tmp/main.S" "$tmp/lib.s" -o "$tmp/q.elf"
cmp -s "$tmp/p.elf" "$tmp/q.elf" || fail "isekit build and as + ld differ"

# ipu2's memory starts at 0x4C000: --region-start moves the region (and the entry point)
run 0 "$tmp/ld2" -- "$isekit" ld -m ipu --region-start TMEM=0x4C000 "$tmp/main.o" "$tmp/lib.o" -o "$tmp/p2.elf"
run 0 "$tmp/dis2" -- "$isekit" objdump -D "$tmp/p2.elf"
expect_in "$tmp/dis2" "4c018:	40813009	bri 0x4c024 <g>"          # 0x4c024 >> 2
od -An -tx4 -j24 -N4 "$tmp/p2.elf" >"$tmp/entry2"                    # e_entry of ELFCLASS32
expect_in "$tmp/entry2" "0004c000"
run 1 "$tmp/ld3" -- "$isekit" ld -m ipu --region-start TMEM=0x1000 "$tmp/main.o" -o "$tmp/p3.elf"
expect_in "$tmp/ld3" "region TMEM starts at 0x1000 outside the region (0x40000-0xe7fff)"

# errors at link time, naming the section offset and the relocation
printf '.text\nf: bri f + 2\n   setzi $m0, f + 0x100000\n' >"$tmp/bad.s"
run 0 "$tmp/asbad" -- "$isekit" as -m ipu "$tmp/bad.s" -o "$tmp/bad.o"
run 1 "$tmp/ldbad" -- "$isekit" ld -m ipu "$tmp/bad.o" -o "$tmp/bad.elf"
printf '.text\n   call $m10, nowhere\n' >"$tmp/undef.s"
run 1 "$tmp/ldundef" -- "$isekit" build -m ipu "$tmp/undef.s" -o "$tmp/undef.elf"
expect_in "$tmp/ldbad" ".text+0x0: relocation R_IPU_TARGET19 against '.text': value 262146 (0x40002) is not a multiple of 4"
expect_in "$tmp/ldbad" ".text+0x4: relocation R_IPU_ZIMM20 against '.text': value 1310720 (0x140000) does not fit the unsigned 20-bit field"
expect_in "$tmp/ldundef" "undefined symbol 'nowhere', referenced from .text+0x0"

finish ipu_reloc
