#!/bin/sh
# Install the Debian packages isekit needs, only those that are missing.
# Called by the Makefile before every build; a no-op once everything is present.
set -e
need=""
have() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# gtkwave: its vcd2fst reads the VCDs of --vcd in tests/cli/traces.sh
# gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf: build C programs for the rv32 host
#   (docs/rv32.md "Building C programs"; tests/rv32/c is built with them when present)
# qemu-system-misc: tests only, qemu-system-riscv32 is the reference of tests/cli/rv32_qemu.sh
# gdb-multiarch: tests only, the gdb session of tests/cli/gdb.sh
# cpp: isekit cc's preprocessor (docs/cc.md), at run time; gcc also is the host C compiler
#   tests/cli/cc.sh compares the compiled C with (tests only, $CC if set)
# python3: tests only, tests/cc/gen_ops.py writes tests/cli/cc.sh's operator checks
# libedit2: the debugger's line editor, opened at run time when it reads a terminal (src/cli/run_debug.c)
# libopenmpi-dev, openmpi-bin: libdpu-mpi.so (the host API over MPI) and its mpirun test
#   (tests/dpu_mpi); without them the rest builds and only that is left out
for pkg in gcc cpp make cmake libelf-dev libedit2 pkg-config python3 gtkwave libopenmpi-dev openmpi-bin \
           gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf qemu-system-misc gdb-multiarch; do
    have "$pkg" || need="$need $pkg"
done
[ -z "$need" ] && exit 0
echo "isekit: installing missing Debian packages:$need"
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq $need >/dev/null
