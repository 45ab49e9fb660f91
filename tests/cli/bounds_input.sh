#!/bin/sh
# Every input is bounded (issue 9, items 1, 2, 3, 8, 9, 10): each command as a user types it
# ends within 10 s and 1 GiB with a clear message, or succeeds when the input is valid.
# usage: bounds_input.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"
cd "$tmp" || exit 1

# 1. Macro arguments in linear memory: .irp over 1,000,000 values, a call with 100 k arguments.
awk 'BEGIN { printf ".irp x"; for (i = 0; i < 1000000; i++) printf ",1"; print ""; print ".byte \\x"; print ".endr" }' >irp.s
bounded 0 irp.out -- "$isekit" as -m dpu irp.s -o irp.o
[ "$(wc -c <irp.o)" -gt 1000000 ] || fail "the 1 M-value .irp did not emit its 1 M bytes"
awk 'BEGIN { print ".macro m a:vararg"; print ".byte \\a"; print ".endm"; printf "m 1";
             for (i = 1; i < 100000; i++) printf ",1"; print "" }' >args.s
bounded 0 args.out -- "$isekit" as -m dpu args.s -o args.o
[ "$(wc -c <args.o)" -gt 100000 ] || fail "the 100 k-argument call did not emit its bytes"

# 2. An exponential macro that errors at every leaf stops at the error cap of its file (20), the
# next file still gets its turn, the total cap (50) ends the run; --max-errors sets both.
printf '.macro m\n m\n m\n.endm\n m\n' >e.s
bounded 1 e.out -- "$isekit" as -m dpu e.s
expect_in e.out "e.s: error: too many errors in this file (more than 20); skipping the rest of it"
[ "$(grep -c '^e.s:[0-9]*:[0-9]*: error: ' e.out)" -eq 20 ] || fail "e.s: not 20 errors shown"
awk 'BEGIN { for (i = 0; i < 30; i++) print "frob" }' >frob.s
cp frob.s frob2.s
cp frob.s frob3.s
bounded 1 files.out -- "$isekit" as -m dpu e.s frob.s frob2.s frob3.s
[ "$(grep -c '^frob.s:[0-9]*:1: error: ' files.out)" -eq 20 ] || fail "frob.s: not 20 errors shown after e.s"
expect_in files.out "frob2.s:8:1: error: unknown instruction 'frob'"
[ "$(grep -c '^frob2.s:[0-9]*:1: error: ' files.out)" -eq 8 ] || fail "frob2.s: not 8 errors within the total"
expect_in files.out "error: too many errors (more than 50); stopping here"
if grep -q '^frob3.s' files.out; then fail "frob3.s read after the total cap"; fi
bounded 1 files.out -- "$isekit" as -m dpu --max-errors 100 e.s frob.s
[ "$(grep -c '^e.s:[0-9]*:[0-9]*: error: ' files.out)" -eq 100 ] || fail "--max-errors 100: not 100 errors of e.s"
cp frob.s frob.ll
bounded 1 files.out -- "$isekit" run example frob.ll
expect_in files.out "frob.ll: error: too many errors in this file (more than 20); skipping the rest of it"
awk 'BEGIN { for (i = 0; i < 30; i++) print "FROB s0" }' >frob.psm
bounded 1 files.out -- "$isekit" psm frob.psm
expect_in files.out "frob.psm: error: too many errors in this file (more than 20); skipping the rest of it"
# Without errors, the expansion limit counts every line of every nesting level.
printf '.rept 3\n.rept 4000000\nnop\n.endr\n.endr\n' >rept.s
bounded 1 rept.out -- "$isekit" as -m dpu rept.s -o rept.o
expect_in rept.out "rept.s:3: error: more than 10000000 lines expanded from macros and repeats; stopping"
printf '.macro m\n.rept 1000\nnop\n.endr\n.endm\n.rept 20000\nm\n.endr\n' >nested.s
bounded 1 nested.out -- "$isekit" as -m dpu nested.s -o nested.o
expect_in nested.out "more than 10000000 lines expanded from macros and repeats"
# An exponential macro without errors whose argument grows at each level: the bound on expanded
# text ends it (the line bound alone took 33 s), naming the macro, the call and how to raise it.
printf '.macro m n\n.if \\n > 0\n m \\n-1\n m \\n-1\n.endif\n.endm\n m 60\n' >grow.s
bounded 1 grow.out -- "$isekit" as -m dpu grow.s -o grow.o
expect_in grow.out "grow.s:4: error: more than 134217728 bytes of text expanded from macros and repeats; stopping (set ISEKIT_MAX_EXPANSION to raise it)"
expect_in grow.out "grow.s:7:2: note: in expansion of macro 'm' (51 levels of expansion not shown)"
bounded 1 grow.out -- env ISEKIT_MAX_EXPANSION=64KiB "$isekit" as -m dpu grow.s -o grow.o
expect_in grow.out "more than 65536 bytes of text expanded"
head -c 100000000 /dev/urandom >random.s
bounded 1 random.out -- "$isekit" run dpu random.s
expect_in random.out "random.s: error: this looks like a binary file, not assembly"
[ "$(wc -l <random.out)" -le 3 ] || fail "random.s: more than one message"
cp random.s random.psm
bounded 1 random.out -- "$isekit" psm random.psm
expect_in random.out "this looks like a binary file, not a .psm source"
# Text images (word lists, Intel-HEX, PicoBlaze .hex/.mem) refuse binary data in one line (they
# gave 51 and 10 garbled errors); a raw binary image is still read as one.
head -c 1000000 random.s >rnd.bin
bounded 1 img.out -- "$isekit" objdump -m example -b words rnd.bin
expect_in img.out "rnd.bin: error: this looks like a binary file, not a word list"
[ "$(wc -l <img.out)" -eq 1 ] || fail "objdump -b words: more than one message"
bounded 1 img.out -- "$isekit" objdump -m example -b ihex rnd.bin
expect_in img.out "rnd.bin: error: this looks like a binary file, not an Intel-HEX file"
cp rnd.bin rnd.hex
bounded 1 img.out -- "$isekit" psm -d rnd.hex
expect_in img.out "rnd.hex: error: this looks like a binary file, not a .hex or .mem image"
[ "$(wc -l <img.out)" -eq 1 ] || fail "psm -d rnd.hex: more than one message"
bounded 0 img.out -- "$isekit" objdump -m example -b binary rnd.bin
# A few control characters are a mistake in text: shown escaped, never raw.
printf 'nop\n\001\002bad\n' >ctl.s
bounded 1 ctl.out -- "$isekit" as -m dpu ctl.s -o ctl.o
expect_in ctl.out "ctl.s:2:1: error: unknown instruction '\\x01\\x02bad'"
if LC_ALL=C grep -q "$(printf '\001')" ctl.out; then fail "a raw control character reached the output"; fi

# 3. Inputs that never end, or are too large.
bounded 1 zero.out -- "$isekit" objdump /dev/zero
expect_in zero.out "/dev/zero: error: this input (not a regular file) is longer than the limit of 268435456 bytes (set ISEKIT_MAX_INPUT to raise it)"
bounded 1 zero.out -- "$isekit" psm /dev/zero
expect_in zero.out "/dev/zero: error: this looks like a binary file, not a .psm source"
bounded 1 zero.out -- "$isekit" run dpu /dev/zero
expect_in zero.out "/dev/zero: error: this looks like a binary file, not assembly"
printf '.include "/dev/zero"\n' >inc.s
bounded 1 zero.out -- "$isekit" as -m dpu inc.s
expect_in zero.out "inc.s:1:9: error: /dev/zero: this looks like a binary file, not assembly"
printf 'nop\n' >small.s
bounded 1 big.out -- env ISEKIT_MAX_INPUT=2 "$isekit" as -m dpu small.s
expect_in big.out "small.s: error: the file is 4 bytes, more than the limit of 2 bytes (set ISEKIT_MAX_INPUT to raise it)"
bounded 0 pipe.out -- sh -c "cat small.s | '$isekit' as -m dpu -o pipe.o /dev/stdin"
bounded 0 lf.out -- "$isekit" as -m dpu small.s -o lf.o
cmp -s pipe.o lf.o || fail "a source read from a pipe assembled differently"

# 8. CR LF line ends everywhere; a NUL byte is an error at its place.
printf 'start:\r\n  nop\r\n  nop ; nop\r\n' >crlf.s
printf 'start:\n  nop\n  nop ; nop\n' >lf.s
bounded 0 crlf.out -- "$isekit" as -m dpu crlf.s -o crlf.o
bounded 0 lf.out -- "$isekit" as -m dpu lf.s -o lf.o
cmp -s crlf.o lf.o || fail "CR LF source assembled differently from LF"
printf 'CONSTANT k, 2A\r\nstart: LOAD s0, k\r\nJUMP start\r\n' >crlf.psm
bounded 0 crlf.out -- "$isekit" psm crlf.psm -o crlf.hex
printf 'nop\nn\000op\n' >nul.s
bounded 1 nul.out -- "$isekit" as -m dpu nul.s
expect_in nul.out "nul.s:2:2: error: a NUL byte: assembly cannot contain one"

# 9. %NAME with a value that is not one: the column points into the line.
printf 'CONSTANT x, %%HOME\n' >home.psm
bounded 1 home.out -- env HOME=/root "$isekit" psm home.psm
expect_in home.out "home.psm:1:13: error: environment variable 'HOME' holds '/root', not a value"

# 10. Symbol and section tables are hashed.
awk 'BEGIN { for (i = 0; i < 200000; i++) printf "CONSTANT k%d, %02X\n", i, i % 256 }' >const.psm
bounded 0 const.out -- "$isekit" psm const.psm -o const.hex
awk 'BEGIN { for (i = 0; i < 60000; i++) printf ".section s%d\n.byte 1\n", i }' >sec.s
bounded 0 sec.out -- "$isekit" as -m dpu sec.s -o sec.o
# Each of 30 k sections with a relocation (and its .rela section): section symbols are found in
# one pass over the symbols (a scan per section took 1.1 s, now 0.14 s).
awk 'BEGIN { for (i = 0; i < 30000; i++) printf ".section s%d\nl%d: .byte 1\n.long l%d\n", i, i, i }' >secrel.s
bounded 0 secrel.out -- "$isekit" as -m dpu secrel.s -o secrel.o
awk 'BEGIN { for (i = 0; i < 100000; i++) printf ".section s%d\n.byte 1\n", i }' >sec.s
bounded 1 sec.out -- "$isekit" as -m dpu sec.s -o sec.o
expect_in sec.out "too many sections"

finish bounds_input
