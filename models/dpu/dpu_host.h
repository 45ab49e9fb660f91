/* The host side of the DPU model: DPU executables (checking, loading), building programs from
 * DPU assembly with isekit's DPU runtime, and reading what the program printed.
 *
 *     dpu_program p;
 *     if (dpu_program_open(&p, "prog.elf", &diag) == 0 && dpu_program_load(dpu, &p, &diag) == 0) {
 *         isk_run(sys, 0);
 *         char *out = dpu_program_stdout(dpu, &p, NULL);
 *         ...
 *     }
 *     dpu_program_close(&p);
 */
#ifndef ISEKIT_MODEL_DPU_HOST_H
#define ISEKIT_MODEL_DPU_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf/obj.h"
#include "isekit/desc.h"

/* The ABI version of the executables the DPU runs (e_flags bits 31:24, bit 23 set). */
#define DPU_ABI_VERSION 2
#define DPU_EM 0xf5

typedef struct dpu_program {
    isk_obj *exe;
    char chip[8];                /* from .dpu.attributes: "v1A", "v1B", or "" if absent */
    int nr_tasklets;             /* the NR_TASKLETS symbol, 0 if the executable has none */
    uint32_t stack_size[24];     /* STACK_SIZE_TASKLET_<i> (0 where undefined) */
} dpu_program;

/* Read a DPU executable and check it: ELF, ET_EXEC, ELFCLASS32 little-endian, e_machine 0xf5,
 * ABI version 2, a readable .dpu.attributes, NR_TASKLETS in 1..24. Returns 0, or -1 after one
 * clear error naming the file (and *p is empty). */
int dpu_program_open(dpu_program *p, const char *path, isk_diag *diag);
/* The same checks on an executable in memory; p takes the object (also on failure). */
int dpu_program_from_obj(dpu_program *p, isk_obj *exe, isk_diag *diag);
void dpu_program_close(dpu_program *p);

/* Load into a DPU instance: its chip becomes the executable's (PARAM chip, which resets the
 * instance), the program must fit that chip's IRAM and WRAM, the sections go to their
 * memories, thread 0 starts at the entry. Returns 0 or -1 after an error. */
int dpu_program_load(isk_inst *dpu, const dpu_program *p, isk_diag *diag);

/* What the program printed (printf/puts/putchar of the runtime, the SDK's buffer format),
 * formatted as the host library would: a malloc'd NUL-terminated string, "" if the program
 * has no printf buffer. */
char *dpu_program_stdout(isk_inst *dpu, const dpu_program *p, size_t *len);

/* ---- isekit's DPU runtime ------------------------------------------------------------------ */

typedef struct dpu_runtime_file {
    const char *name;            /* "crt0.s", "syslib.s", "stdio.s", "dpu.inc" */
    const char *text;
} dpu_runtime_file;
/* The runtime's sources, compiled into isekit (models/dpu/runtime); NULL-terminated. */
const dpu_runtime_file *dpu_runtime_files(void);

/* Assemble DPU sources (files) together with the runtime and link them into an executable:
 * NR_TASKLETS = nr_tasklets (1..24), STACK_SIZE_DEFAULT = stack_size (0: 1024). The program
 * defines `main`; it may `.include "dpu.inc"`. NULL after errors (reported to diag). */
isk_obj *dpu_build(const isk_model *m, const char *const *paths, size_t n, int nr_tasklets, int stack_size,
                   isk_diag *diag);
/* The same from source text held in memory (name for messages). */
isk_obj *dpu_build_text(const isk_model *m, const char *name, const char *text, int nr_tasklets, int stack_size,
                        isk_diag *diag);

/* The value of a symbol of the executable (an ELF virtual address or an absolute value). */
bool dpu_symbol(const dpu_program *p, const char *name, uint64_t *value);

/* ---- host-side copies (the agreed interface of the host API and `isekit run dpu`) ---------- */

/* Copy len bytes between buf and the program's symbol (WRAM or MRAM by its address), starting
 * offset bytes into it; to_dpu says the direction. The copy must stay inside the symbol when
 * the executable gives its size (st_size), and inside the symbol's memory always. Errors name
 * the symbol and say why (unknown symbol, out of the symbol's size/memory, ...). 0 or -1. */
int dpu_copy_symbol(isk_inst *dpu, const dpu_program *p, const char *symbol, uint32_t offset, void *buf, size_t len,
                    bool to_dpu, isk_diag *diag);
/* The same for MRAM by byte offset (the SDK's DPU_MRAM_HEAP_POINTER_NAME copies). */
int dpu_copy_mram(isk_inst *dpu, uint32_t offset, void *buf, size_t len, bool to_dpu, isk_diag *diag);

#endif
