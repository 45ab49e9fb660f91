#!/bin/sh
# A processor of two instruction sets and issue groups, seen from the command line: `isekit
# info` counts each set's instructions, names the group bit and marks solo instructions; a .iset past the sets is a load
# error at its line of the user's description.
# usage: isets.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

cat >"$tmp/two.c" <<'MODEL'
#include <isekit/model.h>

STATE_BEGIN
    DECLARE_CODE_MEMORY(UINT(16, 0), 64) ROM;
STATE_END

BEHAVIOUR(Add, i) { (void)i; }
BEHAVIOUR(Sub, i) { (void)i; }
BEHAVIOUR(Enter) { SET_ISET(CONTEXT, 1); }
BEHAVIOUR(Leave) { SET_ISET(CONTEXT, 0); }

MODEL_BEGIN(two, "a supervisor set and a worker set")
    WORD_BITS(16);
    PROCESSOR(.code = "ROM", .contexts = 2, .isets = 2, .group_bit = 15, .group_words = 2);
    MEMORY(ROM, "code");
    INSTRUCTION("*-001-0000-iiiiiiii", Add, "add {i}");
    INSTRUCTION("*-010-0000-0000-0000", Enter, "enter");
    INSTRUCTION("*-001-0000-iiiiiiii", Sub, "sub {i}", .iset = 1);
    INSTRUCTION("*-011-0000-0000-0000", Leave, "leave", .iset = 1, .solo = ISK_SOLO);
    INSTRUCTION("*-100-0000-0000-0000", Leave, "stop", .iset = 1, .solo = ISK_SOLO_BIT_SET);
MODEL_END
MODEL
run 0 "$tmp/info" -- "$isekit" info "$tmp/two.c"
expect_in "$tmp/info" 'issue groups: a word with bit 15 set opens a group of 2 words'
expect_in "$tmp/info" 'instruction sets (2):'
expect_in "$tmp/info" '  set 0: 2 instructions'
expect_in "$tmp/info" '  set 1: 3 instructions'
expect_in "$tmp/info" 'sub {i}   [set 1]'
expect_in "$tmp/info" 'leave   [set 1]   [solo]'
expect_in "$tmp/info" 'stop   [set 1]   [solo, group bit 1]'
expect_in "$tmp/info" 'undecodable in instruction set 0'

sed 's/"stop", .iset = 1/"stop", .iset = 2/' "$tmp/two.c" >"$tmp/bad.c"
run 1 "$tmp/bad" -- "$isekit" info "$tmp/bad.c"
expect_in "$tmp/bad" "bad.c:20: error: model 'two': INSTRUCTION '*-100-0000-0000-0000' (.iset = 2): the PROCESSOR (line 14) has 2 instruction set(s), .iset 0..1"

finish isets
