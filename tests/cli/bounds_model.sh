#!/bin/sh
# Issue 9, items 5 (huge declarations) and 7 (descriptions with holes): a user's model file
# that `isekit info` must refuse at load, quickly, with the storage's name, file and line.
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

# model NAME STATE DESCRIPTION: write $tmp/NAME.c, an accelerator with that state and description
model() {
    cat >"$tmp/$1.c" <<C
#include <isekit/model.h>
STATE_BEGIN
$2
STATE_END
ACC_FUNCTION(Nop) {}
MODEL_BEGIN($1, "a test model")
    WORD_BITS(8);
    SLOTS(1);
$3
    INSTRUCTION("0000-0000", Nop, "nop");
MODEL_END
C
}

# A declared storage the description does not name (line 4 of the file).
model unnamed '    DECLARE_MEMORY(INT(16), 64) LDM;
    DECLARE_REGISTER(UINT(36)) ACC;
    DECLARE_REGISTER(INT(32)) MULRES;' '    MEMORY(LDM, "Local memory");
    REG(MULRES, "Product");'
bounded 1 "$tmp/unnamed.out" -- "$isekit" info "$tmp/unnamed.c"
expect_in "$tmp/unnamed.out" "$tmp/unnamed.c:4: error: model 'unnamed': storage number 2 of STATE_BEGIN..STATE_END, after 'LDM' (line 3) and before 'MULRES' (line 5), is not named in the description"

# Two storages with one display name (the second at line 11).
model titles '    DECLARE_MEMORY(INT(16), 64) LDM;
    DECLARE_MEMORY(INT(16), 64) TM;' '    MEMORY(LDM, "Data memory");
    MEMORY(TM, "data MEMORY");'
bounded 1 "$tmp/titles.out" -- "$isekit" info "$tmp/titles.c"
expect_in "$tmp/titles.out" "$tmp/titles.c:11: error: model 'titles': the display name 'data MEMORY' is both the title of 'LDM' (line 10) and the title of 'TM' (line 11)"

# Two resources on one bit.
model resources '    DECLARE_REGISTER(INT(32)) ACC;' '    REG(ACC, "Accumulator");
    RESOURCE(1, "adder");
    RESOURCE(1, "multiplier");'
bounded 1 "$tmp/resources.out" -- "$isekit" info "$tmp/resources.c"
expect_in "$tmp/resources.out" "$tmp/resources.c:11: error: model 'resources': resources 'adder' (line 10) and 'multiplier' (line 11) are both bit 0 (0x1)"

# A 2 TiB memory: refused at load with its size and the way to raise the bound, which works.
model huge '    DECLARE_MEMORY(INT(16), 1LL<<40) BIG;' '    MEMORY(BIG, "Big memory");'
bounded 1 "$tmp/huge.out" -- "$isekit" info "$tmp/huge.c"
expect_in "$tmp/huge.out" "$tmp/huge.c:9: error: model 'huge': storage 'BIG' declares 1099511627776 cells of 2 bytes = 2199023255552 bytes (2 TiB), more than the 1 GiB an instance may hold (raise it with ISEKIT_MAX_STORAGE, e.g. ISEKIT_MAX_STORAGE=2049G)"
bounded 0 "$tmp/huge-raised.out" -- env ISEKIT_MAX_STORAGE=2049G "$isekit" info "$tmp/huge.c"
expect_in "$tmp/huge-raised.out" "Big memory"
bounded 1 "$tmp/huge-bad.out" -- env ISEKIT_MAX_STORAGE=lots "$isekit" info "$tmp/huge.c"
expect_in "$tmp/huge-bad.out" "ISEKIT_MAX_STORAGE=lots: 'lots' is not a number"

# A model built against an older ABI (compiled with the version of an older isekit) is refused.
sed 's|^#include <isekit/model.h>|&\n#undef ISK_ABI_VERSION\n#define ISK_ABI_VERSION 1|' "$tmp/titles.c" >"$tmp/old.c"
sed -i 's|MEMORY(TM, "data MEMORY")|MEMORY(TM, "Tile memory")|' "$tmp/old.c"
bounded 1 "$tmp/old.out" -- "$isekit" info "$tmp/old.c"
expect_in "$tmp/old.out" "$tmp/old.c: error: model built for isekit model ABI 1, but this isekit uses ABI"

finish bounds_model
