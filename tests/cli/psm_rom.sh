#!/bin/sh
# The ROM as VHDL/Verilog from a user's template (the Xilinx ROM_form mechanism): the text after
# {begin template} with {name}, {INIT_xx} and {INITP_xx} filled in. The expected strings follow
# the documented layout (16 low halves per INIT, highest word leftmost; 2 parity bits a word in
# INITP, first word in bits 1:0); opbasm 1.3 fills this template with the same strings.
# usage: psm_rom.sh ISEKIT SOURCE_DIR
isekit=$1
src=$2
. "$src/tests/cli/lib/common.sh"

printf '  LOAD s0, 00\n  OUTPUT s4, 12\n  ADD s4, 01\n  LOAD s1, 40\n  SUB s0, 18\n  JUMP NZ, 001\n  JUMP 000\n' >"$tmp/x.psm"
printf 'notes for the user, not copied\n{begin template}\nentity {name} is -- {other}\n INIT_00 => X"{INIT_00}",\n INIT_3F => X"{INIT_3F}",\n INITP_00 => X"{INITP_00}",\n' >"$tmp/form.vhd"
run 0 "$tmp/out" -- "$isekit" psm "$tmp/x.psm" --template "$tmp/form.vhd" -o "$tmp/rom.vhd" -o "$tmp/rom.v"
want='entity rom is -- {other}
 INIT_00 => X"00000000000000000000000000000000000040005401C01801408401C4120000",
 INIT_3F => X"0000000000000000000000000000000000000000000000000000000000000000",
 INITP_00 => X"0000000000000000000000000000000000000000000000000000000000003D18",'
[ "$(cat "$tmp/rom.vhd")" = "$want" ] || { fail "rom.vhd:"; cat "$tmp/rom.vhd"; }
cmp -s "$tmp/rom.vhd" "$tmp/rom.v" || fail "rom.v differs from rom.vhd"

run 2 "$tmp/no" -- "$isekit" psm "$tmp/x.psm" -o "$tmp/rom2.vhd"
expect_in "$tmp/no" "rom2.vhd: a VHDL or Verilog ROM needs --template (e.g. ROM_form.vhd)"
run 1 "$tmp/missing" -- "$isekit" psm "$tmp/x.psm" --template "$tmp/none.vhd" -o "$tmp/rom3.vhd"
expect_in "$tmp/missing" "none.vhd"

finish psm_rom
