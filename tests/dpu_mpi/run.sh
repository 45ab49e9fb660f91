#!/bin/sh
# The host API over MPI: run.sh MPIRUN TESTS_BINARY_DIR SOURCE_DIR (tests.cmake). The 64-DPU
# vector add and reduction of tests/dpu_host give the same output under `mpirun -np 1, 2, 4`
# (libdpu-mpi.so) as in one process with libdpu.so; spread_host puts rank r on process r % P,
# reads a remote DPU's log and gets a remote DPU's fault back with the server's message.
mpirun=$1 bin=$2 src=$3
. "$src/tests/cli/lib/common.sh"
# 64 DPUs reserve gigabytes of address space they do not touch (MAP_NORESERVE)
bounded_vm=unlimited
# we are root in CI; loopback only; more processes than the 2 cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader OMPI_MCA_rmaps_base_oversubscribe=1
if [ -n "$ISEKIT_SANITIZED" ]; then
    # Open MPI's own leaks (lsan.supp): full stacks, and its plugins kept loaded so that the
    # stacks name them
    export LSAN_OPTIONS="suppressions=$src/tests/dpu_mpi/lsan.supp:print_suppressions=0"
    export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
    export OMPI_MCA_mca_base_component_disable_dlclose=1
fi
cd "$bin/dpu_host" || exit 1
# (bounded runs a program, not a shell function)
mpi="$mpirun --oversubscribe -np"
# the programs' own lines: what must not change with the number of processes
own() { grep -E '^(vecadd|reduce|async):|^[0-9]+ checks' "$1" | grep -v '^async:'; }

for t in vecadd reduce; do
    # vecadd's 64 DPUs in 8 ranks, so that they spread
    profile=""; [ "$t" = vecadd ] && profile="nrDpusPerRank=8"
    bounded 0 "$tmp/$t.1" -- "$bin/dpu_host_$t" $profile
    own "$tmp/$t.1" >"$tmp/$t.want"
    expect_in "$tmp/$t.want" "0 failed"
    for np in 1 2 4; do
        bounded 0 "$tmp/$t.np$np" -- $mpi $np "$bin/dpu_mpi_$t" $profile
        own "$tmp/$t.np$np" >"$tmp/$t.got"
        cmp -s "$tmp/$t.want" "$tmp/$t.got" || { fail "$t: mpirun -np $np differs from one process:"; diff "$tmp/$t.want" "$tmp/$t.got"; }
    done
done

# the asynchronous launch and callbacks, with the ranks on two processes
bounded 0 "$tmp/async" -- $mpi 2 "$bin/dpu_mpi_async"
expect_in "$tmp/async" "0 failed"

for np in 1 2 4; do
    bounded 0 "$tmp/spread.$np" -- $mpi $np "$bin/dpu_mpi_spread" $np
    expect_in "$tmp/spread.$np" "Hello World!"
    expect_in "$tmp/spread.$np" "0 failed"
    expect_in "$tmp/spread.$np" "rank 7 on process $((7 % np))"
    expect_in "$tmp/spread.$np" "rank 7, DPU 3: tasklet 0 faulted at pc"
done
# a program that initialises and finalises MPI itself ends, and prints after MPI_Finalize
bounded 0 "$tmp/own_init" -- $mpi 4 "$bin/dpu_mpi_own_init"
expect_in "$tmp/own_init" "Hello World!"
expect_in "$tmp/own_init" "finalized by the program, 4 processes"
expect_in "$tmp/own_init" "0 failed"

# the fault happened on process 3 and its message came back from there
expect_in "$tmp/spread.4" "dpu: on MPI process 3:"
finish dpu_mpi
