#!/bin/sh
# The IPU's own Poplar headers (models/ipu/include) for .S codelets: found by `isekit as -m ipu`
# without -I, their constants per chip, the stack declarations (recorded; a second one or a
# missing one is an error at its line), CSR names, ldconst, and a pair left as `$a0: 1` by the
# C preprocessor. tests/ipu/data/poplar_vertex.S is ours, in poplibs' style.
# usage: ipu_poplar.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
v="$src/tests/ipu/data/poplar_vertex.S"

run 0 "$tmp/as" -- "$isekit" as -m ipu "$v" -o "$tmp/v.o"
run 0 "$tmp/dis" -- "$isekit" objdump -d -t "$tmp/v.o"
expect_in "$tmp/dis" "41030001	get \$m3, 1"                  # \$WSR is CSR 1
expect_in "$tmp/dis" "42338007	and \$m3, \$m3, 7"            # CSR_W_WSR__CTXTID_M1__MASK
expect_in "$tmp/dis" "19445678	setzi \$m4, 284280"           # ldconst: the low 20 bits...
expect_in "$tmp/dis" "4244c123	or \$m4, \$m4, 0x12300000"     # ...then the upper 12
expect_in "$tmp/dis" "1954c000	setzi \$m5, 311296"           # ipu2's region 0 at 0x4C000, no or
expect_in "$tmp/dis" "19600024	setzi \$m6, 36"               # CTXT_WORKERS * NUM_WORKERS
expect_in "$tmp/dis" "1ef00206	ld64step \$a0:1, \$m15, \$m0+=, 6"
expect_in "$tmp/dis" "51f08001	put 1, \$a15"                 # uput \$FP_CLR
expect_in "$tmp/dis" "__isekit_stack.__runCodelet_isekit_test__AddConstant"
grep -q "4255" "$tmp/dis" && fail "ldconst of 0x4C000 emitted an 'or'"
# ipu1 (popc's __IPU_ARCH_VERSION__ 1): region 0 at 0x40000, the compact layouts available
run 0 "$tmp/as1" -- "$isekit" as -m ipu -D__IPU_ARCH_VERSION__=1 "$v" -o "$tmp/v1.o"
run 0 "$tmp/dis1" -- "$isekit" objdump -d "$tmp/v1.o"
expect_in "$tmp/dis1" "19540000	setzi \$m5, 262144"
printf '#include "poplar/AvailableVTypes.h"\n#ifdef VECTOR_AVAIL_SCALED_PTR64\n.word 64\n#endif\n' >"$tmp/vt.S"
run 0 "$tmp/vt1" -- "$isekit" as -m ipu -D__IPU_ARCH_VERSION__=1 "$tmp/vt.S" -o "$tmp/vt1.o"
run 0 "$tmp/vt2" -- "$isekit" as -m ipu -D__IPU_ARCH_VERSION__=2 "$tmp/vt.S" -o "$tmp/vt2.o"
run 0 "$tmp/vth" -- "$isekit" objdump -h "$tmp/vt1.o" "$tmp/vt2.o"
[ "$(grep -c '^  0 .text  *00000004' "$tmp/vth")" = 1 ] || { fail "SCALED_PTR64 on ipu1 only:"; cat "$tmp/vth"; }

# the record: size 24, kind 1 (DEF_STACK_SIZE_OWN), then the name
printf '#include <poplar/StackSizeDefs.hpp>\nDEF_STACK_SIZE_OWN 24, f\n.text\nf: exitz $mzero\nISEKIT_STACK_CHECK f\n' >"$tmp/own.S"
run 0 "$tmp/own" -- "$isekit" as -m ipu "$tmp/own.S" -o "$tmp/own.o"
run 0 "$tmp/ownh" -- "$isekit" objdump -h "$tmp/own.o"
expect_in "$tmp/ownh" ".isekit.stack        0000000a"
od -An -v -tx1 "$tmp/own.o" | tr -d ' \n' | grep -q 18000000010000006600 || fail "no record 24, 1, \"f\" in own.o"
# a second declaration of one function (either kind) and a missing one are errors at their line
printf '#include "poplar/StackSizeDefs.hpp"\nDEF_STACK_USAGE 0 f\nDEF_STACK_SIZE_OWN 8 f\n' >"$tmp/dup.S"
run 1 "$tmp/dup" -- "$isekit" as -m ipu "$tmp/dup.S" -o "$tmp/dup.o"
expect_in "$tmp/dup" "dup.S:3:"
expect_in "$tmp/dup" "second stack size declaration for f"
printf '#include "poplar/StackSizeDefs.hpp"\n.text\ng: exitz $mzero\nISEKIT_STACK_CHECK g\n' >"$tmp/miss.S"
run 1 "$tmp/miss" -- "$isekit" as -m ipu "$tmp/miss.S" -o "$tmp/miss.o"
expect_in "$tmp/miss" "miss.S:4:"
expect_in "$tmp/miss" "no stack size declaration for g"

# the user's -I comes first: a header of the same name replaces the model's
mkdir -p "$tmp/inc/poplar"
echo '#define CTXT_WORKERS 5' >"$tmp/inc/poplar/TileConstants.hpp"
printf '#include "poplar/TileConstants.hpp"\n.word CTXT_WORKERS\n' >"$tmp/w.S"
run 0 "$tmp/w" -- "$isekit" as -m ipu -I "$tmp/inc" "$tmp/w.S" -o "$tmp/w.o"
run 0 "$tmp/wd" -- "$isekit" objdump -D "$tmp/w.o"
expect_in "$tmp/wd" "00000005"
# the headers are the IPU's: another model does not see them
run 1 "$tmp/other" -- "$isekit" as -m example "$tmp/w.S" -o "$tmp/x.o"
expect_in "$tmp/other" "poplar/TileConstants.hpp"

# a bundle at 4 mod 8, as 129 poplibs files place them (PROCESSOR .group_align = 1): it
# assembles and objdump lists it from its head, the aux word (bit 31 too) not taken for one
printf '.text\nnop\n{ nop ; fnop }\n{ add $m1, $m1, 1 ; fnop }\nexitz $m15\n' >"$tmp/b.S"
run 0 "$tmp/b" -- "$isekit" as -m ipu "$tmp/b.S" -o "$tmp/b.o"
run 0 "$tmp/bd" -- "$isekit" objdump -d "$tmp/b.o"
expect_in "$tmp/bd" "       4:	99e00000 9ad00000	{ nop ; fnop }"
expect_in "$tmp/bd" "       c:	a2110001 9ad00000	{ adds \$m1, \$m1, 1 ; fnop }"
run 0 "$tmp/info" -- "$isekit" info ipu
expect_in "$tmp/info" "opens a group of 2 words, at any word"

finish ipu_poplar
