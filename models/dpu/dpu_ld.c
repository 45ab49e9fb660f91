/* isekit dpu-ld: link DPU objects and archives the way UPMEM's SDK does (its clang driver and
 * its linker script dpu.lds), so that objects in the SDK's layout (a crt0.o, librt*.a) link with
 * no --defsym. Facts: ../shared/reference/dpu/elf-abi.md 3 (sections) and 6 (symbols).
 *
 * What the SDK's driver passes and its script defines, and how this driver provides it:
 *   - NR_TASKLETS, STACK_SIZE_TASKLET_0..23, DPU_IRAM_SIZE, DPU_WRAM_SIZE, DPU_ATOMIC_SIZE,
 *     DPU_ATOMIC_DISPLACEMENT, DPU_NR_THREADS: absolute symbols from the options;
 *   - the stacks: a NOBITS .data.stacks of their total size, __sys_stack_thread_<i> inside it;
 *     __sw_cache_buffer: 8 bytes per tasklet in .data.sw_cache;
 *   - the atomic bits: the program's start after DPU_ATOMIC_DISPLACEMENT reserved bits;
 *     __atomic_start_addr, __atomic_used_addr, __atomic_end_addr;
 *   - __sys_heap_pointer_reset (first free WRAM byte, 8-aligned), __sys_heap_pointer_end,
 *     __sys_used_mram_end (first free MRAM byte, 8-aligned: DPU_MRAM_HEAP_POINTER_NAME),
 *     __rodata_start_addr/__rodata_end_addr, __imm_mem_end;
 *   - .mram.noinit* are NOLOAD: NOBITS in the output whatever the objects say, so the executable
 *     does not carry the printf buffer's megabyte of zeros.
 * Every symbol is a PROVIDE: an input that defines it wins. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "base/num.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/toolchain.h"
#include "elf/elf_file.h"
#include "dpu.h"

typedef struct dpu_ld_opts {
    int64_t nr_tasklets;         /* -DNR_TASKLETS= / --tasklets; default 1 */
    int64_t stack_default;       /* -DSTACK_SIZE_DEFAULT= / --stack; default 1024 */
    int64_t stack[DPU_THREADS];  /* -DSTACK_SIZE_TASKLET_<i>=, -1 = not given */
    bool v1b;                    /* --chip v1B */
} dpu_ld_opts;

/* The chip's sizes, as the SDK's driver passes them. */
typedef struct dpu_chip_sizes { int64_t iram, wram, atomic, displacement, threads; } dpu_chip_sizes;
static const dpu_chip_sizes chip_v1a = { 32768, 65536, 256, 200, 24 };
static const dpu_chip_sizes chip_v1b = { 31744, 63488, 64, 0, 16 };

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit dpu-ld [options] FILE...\n\n"
            "Link DPU objects, .a archives and sources as UPMEM's SDK links them (the conventions of its\n"
            "clang driver and linker script), so that a crt0.o and librt archives in the SDK's layout\n"
            "need no --defsym. The linker defines, unless an input does:\n"
            "  NR_TASKLETS, STACK_SIZE_TASKLET_0..23, DPU_IRAM_SIZE, DPU_WRAM_SIZE, DPU_ATOMIC_SIZE,\n"
            "  DPU_ATOMIC_DISPLACEMENT, DPU_NR_THREADS        from the options and the chip\n"
            "  __sys_stack_thread_<i>       tasklet i's stack, in a NOBITS .data.stacks\n"
            "  __sw_cache_buffer            8 bytes per tasklet, in a NOBITS .data.sw_cache\n"
            "  __atomic_start_addr, __atomic_used_addr, __atomic_end_addr   the atomic bits; the\n"
            "                               program's come after the reserved DPU_ATOMIC_DISPLACEMENT\n"
            "  __sys_heap_pointer_reset, __sys_heap_pointer_end   the free WRAM\n"
            "  __sys_used_mram_end          the first free MRAM byte (the host's MRAM heap pointer)\n"
            "  __rodata_start_addr, __rodata_end_addr, __imm_mem_end\n"
            "and .mram.noinit* sections are NOBITS in the output (they are never loaded).\n\n"
            "options:\n"
            "  -DNR_TASKLETS=N, --tasklets N     tasklets, 1..24 (v1B: 16); default 1\n"
            "  -DSTACK_SIZE_DEFAULT=N, --stack N  stack bytes of each tasklet; default 1024\n"
            "  -DSTACK_SIZE_TASKLET_<i>=N         stack bytes of tasklet i (< NR_TASKLETS)\n"
            "                    (stacks are non-zero multiples of 8; these -D also reach .S sources)\n"
            "  --chip v1A|v1B    the DPU version whose sizes are defined (default v1A)\n"
            "  -o FILE, -L DIR, -lNAME, --defsym NAME=N, -I DIR, -D NAME[=V], -g, --max-errors N\n"
            "                    as for isekit ld (see isekit ld --help); -O/--region for flat outputs\n"
            "  -h, --help        this text\n\n"
            "Exit status: 0 on success, 1 on errors, 2 on bad usage.\n");
}

/* "NAME=NUMBER" of a -D option that names one of the driver's settings, else NULL. */
static int64_t *setting(dpu_ld_opts *o, const char *def, const char **value)
{
    const char *eq = strchr(def, '=');
    if (!eq) return NULL;
    size_t n = (size_t)(eq - def);
    *value = eq + 1;
    if (n == 11 && strncmp(def, "NR_TASKLETS", n) == 0) return &o->nr_tasklets;
    if (n == 18 && strncmp(def, "STACK_SIZE_DEFAULT", n) == 0) return &o->stack_default;
    const char *p = "STACK_SIZE_TASKLET_";
    size_t pl = strlen(p);
    if (n > pl && n <= pl + 2 && strncmp(def, p, pl) == 0) {
        int i = 0;
        for (size_t k = pl; k < n; k++) {
            if (def[k] < '0' || def[k] > '9') return NULL;
            i = i * 10 + (def[k] - '0');
        }
        if (i < DPU_THREADS) return &o->stack[i];
    }
    return NULL;
}

static bool number(const char *opt, const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    char why[200];
    if (isk_parse_i64(text, lo, hi, ISK_UNIT_NONE, out, why, sizeof why)) return true;
    fprintf(stderr, "isekit dpu-ld: %s: %s\n", opt, why);
    return false;
}

/* The driver's options; -D settings are also left to tc_parse, for .S sources. */
static int extra(void *user, int argc, char **argv, int i)
{
    dpu_ld_opts *o = user;
    const char *s = argv[i], *v;
    if (strcmp(s, "--tasklets") == 0 || strcmp(s, "--stack") == 0 || strcmp(s, "--chip") == 0) {
        if (i + 1 >= argc) {
            fprintf(stderr, "isekit dpu-ld: option '%s' needs a value\n", s);
            return -1;
        }
        if (s[2] == 't') return number(s, argv[i + 1], 1, DPU_THREADS, &o->nr_tasklets) ? 2 : -1;
        if (s[2] == 's') return number(s, argv[i + 1], 8, 65536, &o->stack_default) ? 2 : -1;
        if (strcmp(argv[i + 1], "v1A") != 0 && strcmp(argv[i + 1], "v1B") != 0) {
            fprintf(stderr, "isekit dpu-ld: --chip: '%s' is not v1A or v1B\n", argv[i + 1]);
            return -1;
        }
        o->v1b = argv[i + 1][2] == 'B';
        return 2;
    }
    if (strcmp(s, "-m") == 0 || strcmp(s, "--model") == 0) {
        fprintf(stderr, "isekit dpu-ld: links for the dpu model only; leave out %s (or use isekit ld)\n", s);
        return -1;
    }
    const char *def = strncmp(s, "-D", 2) == 0 ? (s[2] ? s + 2 : i + 1 < argc ? argv[i + 1] : NULL) : NULL;
    int64_t *slot = def ? setting(o, def, &v) : NULL;
    if (slot && !number(def, v, 0, 65536, slot)) return -1;
    return 0;
}

/* The settings checked as the SDK's script asserts them. */
static bool check(const dpu_ld_opts *o, const dpu_chip_sizes *c)
{
    if (o->nr_tasklets < 1 || o->nr_tasklets > c->threads) {
        fprintf(stderr, "isekit dpu-ld: NR_TASKLETS = %" PRId64 ": a %s DPU runs 1..%" PRId64 " tasklets\n",
                o->nr_tasklets, o->v1b ? "v1B" : "v1A", c->threads);
        return false;
    }
    for (int i = 0; i < DPU_THREADS; i++) {
        int64_t s = o->stack[i] >= 0 ? o->stack[i] : i < o->nr_tasklets ? o->stack_default : 0;
        if (i < o->nr_tasklets && (s == 0 || s % 8)) {
            fprintf(stderr, "isekit dpu-ld: the stack of tasklet %d is %" PRId64 " bytes: a tasklet's stack is a "
                    "non-zero multiple of 8\n", i, s);
            return false;
        }
        if (i >= o->nr_tasklets && s) {
            fprintf(stderr, "isekit dpu-ld: STACK_SIZE_TASKLET_%d = %" PRId64 ", but NR_TASKLETS = %" PRId64
                    " leaves tasklet %d without a stack (raise NR_TASKLETS)\n", i, s, o->nr_tasklets, i);
            return false;
        }
    }
    return true;
}

static int64_t stack_of(const dpu_ld_opts *o, int i)
{
    return o->stack[i] >= 0 ? o->stack[i] : i < o->nr_tasklets ? o->stack_default : 0;
}

/* The link step of tc_build: the SDK's symbols, the stacks object, then NOLOAD .mram.noinit. */
static isk_obj *sdk_link(void *user, isk_model_link *ml, isk_obj *const *objs, size_t nobjs, isk_archive *const *ars,
                         size_t nars, const char *output, isk_diag *diag)
{
    const dpu_ld_opts *o = user;
    const dpu_chip_sizes *c = o->v1b ? &chip_v1b : &chip_v1a;
    char name[40];
    isk_model_link_defsym(ml, "NR_TASKLETS", o->nr_tasklets);
    int64_t total = 0;
    for (int i = 0; i < DPU_THREADS; i++) {
        snprintf(name, sizeof name, "STACK_SIZE_TASKLET_%d", i);
        isk_model_link_defsym(ml, name, stack_of(o, i));
        snprintf(name, sizeof name, "__sys_stack_thread_%d", i);
        isk_model_link_symbol(ml, name, ISK_LSYM_SECTION_START, ".data.stacks", total, 0);
        total += stack_of(o, i);
    }
    isk_model_link_defsym(ml, "DPU_IRAM_SIZE", c->iram);
    isk_model_link_defsym(ml, "DPU_WRAM_SIZE", c->wram);
    isk_model_link_defsym(ml, "DPU_ATOMIC_SIZE", c->atomic);
    isk_model_link_defsym(ml, "DPU_ATOMIC_DISPLACEMENT", c->displacement);
    isk_model_link_defsym(ml, "DPU_NR_THREADS", c->threads);
    isk_model_link_defsym(ml, "__sys_heap_pointer_end", c->wram);
    isk_model_link_symbol(ml, "__sw_cache_buffer", ISK_LSYM_SECTION_START, ".data.sw_cache", 0, 0);
    isk_model_link_symbol(ml, "__sys_heap_pointer_reset", ISK_LSYM_REGION_USED, "WRAM", 0, 8);
    isk_model_link_symbol(ml, "__sys_used_mram_end", ISK_LSYM_REGION_USED, "MRAM", 0, 8);
    isk_model_link_symbol(ml, "__rodata_start_addr", ISK_LSYM_SECTION_START, ".rodata", 0, 0);
    isk_model_link_symbol(ml, "__rodata_end_addr", ISK_LSYM_SECTION_END, ".rodata", 0, 0);
    isk_model_link_symbol(ml, "__imm_mem_end", ISK_LSYM_SECTION_END, ".data.immediate_memory", 0, 0);
    /* The atomic bits: the region's first DPU_ATOMIC_DISPLACEMENT bits stay unused (v1A). */
    const isk_link_target *t = isk_model_link_target(ml);
    uint64_t abase = 0;
    for (size_t r = 0; r < t->nregions; r++)
        if (strcmp(t->regions[r].name, "ATOMIC") == 0) abase = t->regions[r].base;
    isk_model_link_defsym(ml, "__atomic_start_addr", (int64_t)abase);
    isk_model_link_defsym(ml, "__atomic_end_addr", (int64_t)abase + c->atomic);
    isk_model_link_symbol(ml, "__atomic_used_addr", ISK_LSYM_REGION_START, "ATOMIC", 0, 0);
    if (!isk_model_link_region_start(ml, "ATOMIC", abase + (uint64_t)c->displacement, diag)) return NULL;

    char text[256];
    snprintf(text, sizeof text,
             "    .section .data.stacks, \"aw\", @nobits\n    .p2align 3\n    .space %" PRId64 "\n"
             "    .section .data.sw_cache, \"aw\", @nobits\n    .p2align 3\n    .space %" PRId64 "\n",
             total, 8 * o->nr_tasklets);
    isk_asm *a = isk_asm_new(t->data, "<dpu-ld stacks>", NULL, diag);
    isk_obj *stacks = isk_asm_text(a, "<dpu-ld stacks>", text, strlen(text)) ? isk_asm_finish(a) : NULL;
    isk_asm_free(a);
    if (!stacks) return NULL;
    isk_obj **all = malloc((nobjs + 1) * sizeof *all);
    if (!all) abort();
    memcpy(all, objs, nobjs * sizeof *all);
    all[nobjs] = stacks;
    isk_obj *exe = isk_model_link_objects(ml, all, nobjs + 1, ars, nars, output, diag);
    free(all);
    isk_obj_free(stacks);
    for (size_t i = 1; exe && i < exe->secs.len; i++) {
        isk_section *s = &exe->secs.data[i];
        if (strcmp(s->name, ".mram.noinit") != 0 && strncmp(s->name, ".mram.noinit.", 13) != 0) continue;
        s->type = SHT_NOBITS;
        free(s->data);
        s->data = NULL;
        s->cap = 0;
    }
    return exe;
}

static int cmd_dpu_ld(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            usage(stdout);
            return EXIT_OK;
        }
    dpu_ld_opts o = { .nr_tasklets = 1, .stack_default = 1024 };
    for (int i = 0; i < DPU_THREADS; i++) o.stack[i] = -1;
    tc_args a = { .tool = "dpu-ld", .takes = TC_OUTPUT | TC_LINK | TC_CPP, .model = "dpu", .link = sdk_link,
                  .link_user = &o };
    int rc = EXIT_USAGE;
    if (!tc_parse(argc, argv, &a, extra, &o) || !check(&o, o.v1b ? &chip_v1b : &chip_v1a)) goto out;
    if (!a.inputs.len) {
        fprintf(stderr, "isekit dpu-ld: no input files\n\n");
        usage(stderr);
        goto out;
    }
    isk_diag diag;
    cli_diag_init(&diag, a.max_errors);
    isk_model *m = tc_model(&a, &diag);
    rc = EXIT_FAILED;
    if (m) rc = tc_build(&a, m, &diag);
    isk_model_release(m);
out:
    tc_free(&a);
    return rc;
}

CLI_COMMAND(cmd_dpu_ld, "dpu-ld", "link DPU objects and archives as UPMEM's SDK does (no --defsym needed)");
