// fuzz-sources: fuzz/builtin_dpu.c src/engine/*.c src/base/*.c src/asm/syntax.c
// fuzz-seeds: fuzz/dpu_exec_seeds.c
// fuzz-cflags: -DISK_CORO_UCONTEXT=1
// fuzz-libs: -ldl -lm -lpthread
/* libFuzzer harness for running arbitrary code on the DPU model: what a corrupted or hostile
 * executable can make the simulator do. The first byte chooses the mode (bit 0: cycle mode)
 * and the chip (bit 1: v1B); the next 256 bytes (if present) are WRAM's first bytes; the rest
 * is IRAM, 6 bytes (one 48-bit instruction) per word. Each input runs for at most 20,000
 * cycles from thread 0 at PC 0. Beyond "no crash, no sanitizer report, no hang", it checks
 * that a run ends stopped, at the cycle limit or in a reported fault that names a PC. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isekit/sim.h"

static void discard(void *user, isk_severity sev, const char *msg)
{
    (void)user, (void)sev, (void)msg;
}

static isk_model *model;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!model) {
        isk_diag d;
        isk_diag_init(&d);
        model = isk_model_load("dpu", &d);
        if (!model) abort();
    }
    if (size < 1) return 0;
    isk_diag d;
    isk_diag_init(&d);
    d.emit = discard;
    isk_system_options so = { .diag = &d };
    isk_system *sys = isk_system_new(&so);
    isk_inst *dpu = isk_system_add(sys, model, "dpu");
    if (isk_set_param(dpu, "mode", data[0] & 1 ? "cycle" : "functional") != ISK_OK ||
        isk_set_param(dpu, "chip", data[0] & 2 ? "v1B" : "v1A") != ISK_OK)
        abort();
    size_t at = 1;
    for (size_t i = 0; i < 256 && at < size; i++, at++) isk_write(dpu, "WRAM", i, data[at]);
    for (uint64_t pc = 0; at + 6 <= size && pc < 4096; pc++, at += 6) {
        uint64_t word = 0;
        for (int b = 0; b < 6; b++) word |= (uint64_t)data[at + (size_t)b] << (8 * b);
        isk_write(dpu, "IRAM", pc, (int64_t)word);
    }
    isk_status st = isk_run(sys, 20000);
    if (st != ISK_STOPPED && st != ISK_OK && st != ISK_FAULT) abort();
    if (st == ISK_FAULT && !strstr(isk_last_error(sys), "pc 0x")) abort();
    isk_system_free(sys);
    return 0;
}
