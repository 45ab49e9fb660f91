/* isekit run dpu PROGRAM...: run a DPU executable (or DPU assembly sources, built with isekit's
 * DPU runtime first) on one simulated DPU; print what it printed, the tasklets' results and
 * the statistics. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/syntax.h"
#include "base/file.h"
#include "base/num.h"
#include "cli/cli.h"
#include "cli/runctl.h"
#include "elf/elf_file.h"
#include "isekit/sim.h"
#include "dpu.h"
#include "dpu_host.h"

typedef struct dpu_run_options {
    const char *inputs[64];
    int ninputs;
    int tasklets;             /* 0 = the program's */
    int stack;
    bool cycles, quiet;
    const char *chip, *output;
    /* host inputs and outputs, as a host program's copies would do them */
    struct { const char *path; uint64_t offset; } mram[16];
    struct { const char *symbol; uint32_t offset, value; } set[64];
    struct { const char *symbol; uint32_t words; } dump[64];
    struct { uint64_t offset, bytes; const char *path; } dump_mram[16];
    int nmram, nset, ndump, ndump_mram;
    cli_run_opts run;
} dpu_run_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit run dpu PROGRAM... [options]\n\n"
            "Run a DPU program on one simulated UPMEM DPU. PROGRAM is a DPU executable (ELF, as the\n"
            "UPMEM SDK or isekit ld -m dpu make them), or DPU assembly sources (.s, .S) that define\n"
            "`main`: they are assembled and linked with isekit's DPU runtime first (crt0, barriers,\n"
            "mutexes, mram_read/mram_write, printf; see models/dpu/README.md). Thread 0 starts at\n"
            "instruction 0; the program's runtime boots the other tasklets. The run ends when every\n"
            "tasklet has stopped. printf output goes to stdout; results and statistics (also after a\n"
            "fault or at the cycle limit) to stderr.\n\n"
            "options:\n"
            "  --tasklets N      sources: NR_TASKLETS (default 1); executables: must match theirs\n"
            "  --cycles          cycle mode: the 11-cycle revolver rule and the DMA cost (77/61 +\n"
            "                    bytes/2); the default functional mode issues one instruction per clock\n"
            "  --trace           print every instruction issued (cycle, tasklet, pc, word and text),\n"
            "                    the registers and flags it changed, and every DMA\n"
            "  --chip v1A|v1B    the DPU version (default: the executable's, else v1A)\n"
            "  --stack BYTES     sources: stack bytes per tasklet (default 1024, multiple of 8)\n"
            "  -o FILE           sources: also write the executable built from them\n"
            "  -q, --quiet       no results or statistics\n"
            "host inputs and outputs (what a host program's copies do; symbols by name, checked\n"
            "against the symbol's size and memory; each option may be repeated):\n"
            "  --mram FILE[@OFFSET]  load FILE's bytes into the MRAM at OFFSET (default 0) before the run\n"
            "  --set SYMBOL[[I]]=N   store the 32-bit word N at SYMBOL (+4*I) before the run\n"
            "  --dump SYMBOL[:N]     after the run print N (default 1) 32-bit words from SYMBOL, one a\n"
            "                        line, 'SYMBOL[i] = DEC (0xHEX)': words, as DPU data is mostly int\n"
            "                        and the host copies WRAM in 4-byte units\n"
            "  --dump-mram OFFSET:N FILE  after the run write N bytes of the MRAM from OFFSET to FILE\n"
            "                    (numbers: decimal, 0x, 0b, '_', K/KiB/MiB suffixes; bad ones, unknown\n"
            "                    symbols and copies outside a symbol or memory are usage errors)\n"
            CLI_RUN_OPTIONS_HELP
            "                    (--max-cycles N is the same as --max-clocks N)\n"
            "  -h, --help        this text\n\n"
            "Model parameters: e.g. --param uncertain=fault. On a terminal a progress line shows the\n"
            "cycle every second.\n\n"
            CLI_EXIT_HELP);
}

static bool num(cli_args *a, const char *opt, const char *text, uint64_t max, uint64_t *out)
{
    char why[200];
    if (isk_parse_u64(text, 0, max, ISK_UNIT_BYTES, out, why, sizeof why)) return true;
    cli_usage_error(a, "%s: %s", opt, why);
    return false;
}

/* --mram, --set, --dump, --dump-mram; true if argv[a->i] was one (errors through a->bad). */
static bool host_option(cli_args *a, dpu_run_options *o)
{
    const char *v, *opt = a->argv[a->i];
    uint64_t x, y;
    if (cli_value(a, "--mram", &v)) {
        if (!v) return true;
        const char *at = strrchr(v, '@');
        if (o->nmram == 16) cli_usage_error(a, "--mram: at most 16");
        else if (!at || num(a, "--mram", at + 1, DPU_MRAM_BYTES - 1, &x)) {
            o->mram[o->nmram].path = at ? isk_xstrndup(v, (size_t)(at - v)) : isk_xstrdup(v);
            o->mram[o->nmram++].offset = at ? x : 0;
        }
    } else if (cli_value(a, "--set", &v)) {
        if (!v) return true;
        const char *eq = strchr(v, '='), *br = strchr(v, '[');
        size_t n = eq ? (size_t)(eq - v) : 0;
        char idx[32] = "0";
        if (br && eq && br < eq) {
            if (eq[-1] != ']' || eq - br - 2 <= 0 || eq - br - 2 >= (long)sizeof idx) n = 0;
            else snprintf(idx, sizeof idx, "%.*s", (int)(eq - br - 2), br + 1), n = (size_t)(br - v);
        }
        int64_t val;
        char why[200];
        if (!n) cli_usage_error(a, "--set: '%s' is not SYMBOL=NUMBER or SYMBOL[INDEX]=NUMBER", v);
        else if (o->nset == 64) cli_usage_error(a, "--set: at most 64");
        else if (!isk_parse_i64(eq + 1, INT32_MIN, UINT32_MAX, ISK_UNIT_NONE, &val, why, sizeof why))
            cli_usage_error(a, "--set %s: %s", v, why);
        else if (num(a, "--set", idx, DPU_MRAM_BYTES / 4 - 1, &x)) {
            o->set[o->nset].symbol = isk_xstrndup(v, n);
            o->set[o->nset].offset = (uint32_t)x * 4;
            o->set[o->nset++].value = (uint32_t)val;
        }
    } else if (cli_value(a, "--dump", &v)) {
        if (!v) return true;
        const char *colon = strchr(v, ':');
        if (o->ndump == 64) cli_usage_error(a, "--dump: at most 64");
        else if (colon == v || (v[0] == 0)) cli_usage_error(a, "--dump: '%s' is not SYMBOL[:N]", v);
        else if (!colon || num(a, "--dump", colon + 1, DPU_MRAM_BYTES / 4, &x)) {
            if (colon && !x) cli_usage_error(a, "--dump %s: N is at least 1", v);
            o->dump[o->ndump].symbol = colon ? isk_xstrndup(v, (size_t)(colon - v)) : isk_xstrdup(v);
            o->dump[o->ndump++].words = colon ? (uint32_t)x : 1;
        }
    } else if (strcmp(opt, "--dump-mram") == 0) {
        const char *range = a->i + 1 < a->argc ? a->argv[a->i + 1] : NULL, *colon = range ? strchr(range, ':') : NULL;
        char off[64];
        if (!range || a->i + 2 >= a->argc) cli_usage_error(a, "--dump-mram needs OFFSET:N FILE");
        else if (!colon || (size_t)(colon - range) >= sizeof off) cli_usage_error(a, "--dump-mram: '%s' is not OFFSET:N", range);
        else if (o->ndump_mram == 16) cli_usage_error(a, "--dump-mram: at most 16");
        else if (snprintf(off, sizeof off, "%.*s", (int)(colon - range), range) > 0 &&
                 num(a, "--dump-mram", off, DPU_MRAM_BYTES - 1, &x) && num(a, "--dump-mram", colon + 1, DPU_MRAM_BYTES, &y)) {
            o->dump_mram[o->ndump_mram].offset = x;
            o->dump_mram[o->ndump_mram].bytes = y;
            o->dump_mram[o->ndump_mram++].path = a->argv[a->i + 2];
        }
        a->i += 2;
    } else {
        return false;
    }
    return true;
}

static void free_host_options(dpu_run_options *o)
{
    for (int i = 0; i < o->nmram; i++) free((char *)o->mram[i].path);
    for (int i = 0; i < o->nset; i++) free((char *)o->set[i].symbol);
    for (int i = 0; i < o->ndump; i++) free((char *)o->dump[i].symbol);
}

/* Before the run: --mram files and --set words go in, and the --dump symbols are checked (a
 * read now fails as it would after the run). False after an error: bad usage. */
static bool host_inputs(const dpu_run_options *o, isk_inst *dpu, const dpu_program *prog, isk_diag *diag)
{
    for (int i = 0; i < o->nmram; i++) {
        uint8_t *data;
        size_t size;
        if (isk_file_read_all(o->mram[i].path, &data, &size, diag) != 0) return false;
        int rc = dpu_copy_mram(dpu, (uint32_t)o->mram[i].offset, data, size, true, diag);
        free(data);
        if (rc != 0) return false;
    }
    for (int i = 0; i < o->nset; i++) {
        uint8_t w[4] = { (uint8_t)o->set[i].value, (uint8_t)(o->set[i].value >> 8), (uint8_t)(o->set[i].value >> 16),
                         (uint8_t)(o->set[i].value >> 24) };
        if (dpu_copy_symbol(dpu, prog, o->set[i].symbol, o->set[i].offset, w, 4, true, diag) != 0) return false;
    }
    for (int i = 0; i < o->ndump; i++) {
        uint8_t *buf = malloc((size_t)o->dump[i].words * 4);
        if (!buf) abort();
        int rc = dpu_copy_symbol(dpu, prog, o->dump[i].symbol, 0, buf, (size_t)o->dump[i].words * 4, false, diag);
        free(buf);
        if (rc != 0) return false;
    }
    for (int i = 0; i < o->ndump_mram; i++)
        if (o->dump_mram[i].offset + o->dump_mram[i].bytes > DPU_MRAM_BYTES) {
            isk_error(diag, NULL, "--dump-mram 0x%" PRIx64 ":%" PRIu64 ": past the end of the MRAM (%u bytes)",
                      o->dump_mram[i].offset, o->dump_mram[i].bytes, (unsigned)DPU_MRAM_BYTES);
            return false;
        }
    return true;
}

/* After the run: --dump words to stdout, --dump-mram files. False after an error. */
static bool host_outputs(const dpu_run_options *o, isk_inst *dpu, const dpu_program *prog, isk_diag *diag)
{
    bool ok = true;
    for (int i = 0; i < o->ndump; i++) {
        uint32_t n = o->dump[i].words;
        uint8_t *buf = malloc((size_t)n * 4);
        if (!buf) abort();
        if (dpu_copy_symbol(dpu, prog, o->dump[i].symbol, 0, buf, (size_t)n * 4, false, diag) == 0)
            for (uint32_t k = 0; k < n; k++) {
                uint32_t w = (uint32_t)buf[4 * k] | (uint32_t)buf[4 * k + 1] << 8 | (uint32_t)buf[4 * k + 2] << 16 |
                             (uint32_t)buf[4 * k + 3] << 24;
                printf("%s[%u] = %" PRId32 " (0x%08" PRIx32 ")\n", o->dump[i].symbol, (unsigned)k, (int32_t)w, w);
            }
        else ok = false;
        free(buf);
    }
    for (int i = 0; i < o->ndump_mram; i++) {
        size_t n = (size_t)o->dump_mram[i].bytes;
        uint8_t *buf = malloc(n ? n : 1);
        if (!buf) abort();
        FILE *f = NULL;
        if (dpu_copy_mram(dpu, (uint32_t)o->dump_mram[i].offset, buf, n, false, diag) != 0) ok = false;
        else if (!(f = fopen(o->dump_mram[i].path, "wb")) || fwrite(buf, 1, n, f) != n) {
            isk_error(diag, NULL, "--dump-mram: cannot write %s", o->dump_mram[i].path);
            ok = false;
        }
        if (f && fclose(f) != 0 && ok) {
            isk_error(diag, NULL, "--dump-mram: cannot write %s", o->dump_mram[i].path);
            ok = false;
        }
        free(buf);
    }
    fflush(stdout);
    return ok;
}

static bool parse(int argc, char **argv, void *opts)
{
    dpu_run_options *o = opts;
    memset(o, 0, sizeof *o);
    cli_run_opts_init(&o->run, CLI_DEFAULT_MAX_CLOCKS);
    cli_args a = { "isekit run dpu", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        const char *s = argv[a.i];
        if (cli_flag(&a, "--cycles")) o->cycles = true;
        else if (cli_flag(&a, "-q") || cli_flag(&a, "--quiet")) o->quiet = true;
        else if (cli_int(&a, "--tasklets", 1, DPU_THREADS, &o->tasklets)) continue;
        else if (cli_int(&a, "--stack", 8, 65536, &o->stack)) continue;
        else if (cli_value(&a, "--chip", &o->chip)) continue;
        else if (cli_value(&a, "-o", &o->output)) continue;
        else if (cli_run_option(&a, &o->run, "--max-cycles")) continue;
        else if (host_option(&a, o)) continue;
        else if (s[0] == '-' && s[1]) cli_usage_error(&a, "unknown option '%s'", s);
        else if (o->ninputs < 64) o->inputs[o->ninputs++] = s;
        else cli_usage_error(&a, "at most 64 programs");
    }
    if (!a.bad && !o->ninputs) cli_usage_error(&a, "need a PROGRAM (a DPU executable or assembly sources)");
    if (!a.bad && o->stack % 8) cli_usage_error(&a, "--stack: %d is not a multiple of 8", o->stack);
    if (!a.bad && o->chip && strcmp(o->chip, "v1A") != 0 && strcmp(o->chip, "v1B") != 0)
        cli_usage_error(&a, "--chip: '%s' is not v1A or v1B", o->chip);
    return !a.bad;
}

static bool is_elf(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char m[4] = { 0 };
    size_t n = f ? fread(m, 1, 4, f) : 0;
    if (f) fclose(f);
    return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}

static void disassemble(const isk_model *m, isk_inst *dpu, uint64_t pc, char *text, size_t cap, uint64_t *word)
{
    int64_t w = 0;
    isk_read(dpu, "IRAM", pc, &w);
    *word = (uint64_t)w;
    int64_t ops[ISK_MAX_OPS];
    int pat = isk_model_decode(m, (uint64_t)w, ops);
    if (pat < 0 || !isk_syntax_print(m, isk_syntax_display_pattern(m, pat, (uint64_t)w), (uint64_t)w, pc, text, cap))
        snprintf(text, cap, "(illegal)");
}

/* --trace: each instruction as it issues, the registers and flags it changed, each DMA, from
 * the engine's events. Storages up to this size are watched. */
#define DPU_TRACED_BYTES 4096

static void print_event(void *user, const isk_event *ev)
{
    (void)user;
    char text[200];
    if (ev->kind == ISK_EV_ISSUE) {
        cli_issue_text(ev, text, sizeof text);
        printf("%10" PRIu64 "  t%-2u %4" PRIx64 ":  %012" PRIx64 "  %s\n", ev->clock, ev->context, ev->pc, ev->word, text);
    } else {
        printf("%10" PRIu64 "  t%-2u %s\n", ev->clock, ev->context, isk_event_text(ev, text, sizeof text));
    }
}

/* What the run did, also when it ended in a fault or at the cycle limit (then up to there). */
static void print_statistics(const dpu_run_options *o, isk_system *sys, isk_inst *dpu, const dpu_program *prog)
{
    struct isk_state *S = (struct isk_state *)(void *)isk_inst_state(dpu);
    isk_stats stats;
    isk_inst_stats(dpu, &stats);
    uint64_t cycles = isk_clock(sys);
    fprintf(stderr, "dpu: %s, %s mode: %" PRIu64 " %s, %" PRIu64 " instructions",
            S->v1b ? "v1B" : "v1A", o->cycles ? "cycle" : "functional", cycles, o->cycles ? "cycles" : "clocks",
            stats.instructions);
    if (o->cycles && cycles)
        fprintf(stderr, ", IPC %.3f, %.2f us at %d MHz\n", (double)stats.instructions / (double)cycles,
                (double)cycles / (S->v1b ? 400.0 : 350.0), S->v1b ? 400 : 350);
    else
        fprintf(stderr, "\n");
    if (prog->nr_tasklets) {
        uint32_t lo = UINT32_MAX, hi = 0;
        for (int t = 0; t < prog->nr_tasklets; t++) {
            if (prog->stack_size[t] < lo) lo = prog->stack_size[t];
            if (prog->stack_size[t] > hi) hi = prog->stack_size[t];
        }
        if (lo == hi) fprintf(stderr, "dpu: NR_TASKLETS %d, stacks of %u bytes\n", prog->nr_tasklets, (unsigned)lo);
        else fprintf(stderr, "dpu: NR_TASKLETS %d, stacks of %u..%u bytes\n", prog->nr_tasklets, (unsigned)lo, (unsigned)hi);
    }
    if (o->cycles) {
        isk_stats st;
        isk_inst_stats(dpu, &st);
        if (!S->detailed) {
            fprintf(stderr, "dpu: idle %" PRIu64 " cycles: %" PRIu64 " with a DMA in flight, %" PRIu64
                    " revolver or no tasklet ready\n", st.idle_clocks, st.idle_blocked_clocks,
                    st.idle_clocks - st.idle_blocked_clocks);
        } else {   /* timing=detailed: a cycle issues (run), or why it does not (the engine skips
                    * some stalls: its idle count leaves them out) */
            const uint64_t dma_wait = st.idle_blocked_clocks - S->rf_stall_in_dma_wait;
            const uint64_t busy = st.instructions + dma_wait + dpu_rf_stalls(S);
            fprintf(stderr, "dpu: detailed timing: run %" PRIu64 ", DMA wait %" PRIu64 ", revolver %" PRIu64
                    ", register-file stall %" PRIu64 " cycles; MRAM %" PRIu64 " commands, %" PRIu64
                    " activations, %" PRIu64 " precharges\n", st.instructions, dma_wait,
                    cycles > busy ? cycles - busy : 0, dpu_rf_stalls(S), S->dram.commands, S->dram.activations,
                    S->dram.precharges);
        }
    }
    fprintf(stderr, "dpu: DMA %" PRIu64 " reads (%" PRIu64 " bytes), %" PRIu64 " writes (%" PRIu64
            " bytes): %" PRIu64 " MRAM bytes\n", S->dma_reads, S->dma_read_bytes, S->dma_writes,
            S->dma_write_bytes, S->dma_read_bytes + S->dma_write_bytes);
    fprintf(stderr, "dpu: tasklet  instructions  %s  DMA bytes  result (r0)\n", o->cycles ? "DMA cycles" : "          ");
    for (int t = 0; t < DPU_THREADS; t++) {
        const isk_context *c = isk_context_of(dpu, t);
        if (!c->insns) continue;
        int64_t r0 = 0;
        isk_read(dpu, "R", (uint64_t)t * DPU_REGS, &r0);
        char dma[24] = "";
        if (o->cycles) snprintf(dma, sizeof dma, "%10" PRIu64, S->thread[t].dma_cycles);
        fprintf(stderr, "dpu: %7d  %12" PRIu64 "  %10s  %9" PRIu64 "  %" PRId64 " (0x%" PRIx64 ")\n", t, c->insns,
                dma, S->thread[t].dma_bytes, (int64_t)(int32_t)r0, (uint64_t)(uint32_t)r0);
    }
}

static int cmd_run_dpu(int argc, char **argv)
{
    dpu_run_options o;
    memset(&o, 0, sizeof o);
    int start = cli_start(argc, argv, usage, parse, &o);
    if (start >= 0) {
        free_host_options(&o);
        return start;
    }
    isk_diag diag;
    cli_diag_init(&diag, o.run.max_errors);
    isk_model *m = isk_model_load("dpu", &diag);
    if (!m) {
        free_host_options(&o);
        return EXIT_FAILED;
    }
    int rc = EXIT_FAILED;
    dpu_program prog = { 0 };
    isk_system *sys = NULL;

    /* the program: an executable, or sources built with the runtime */
    if (o.ninputs == 1 && is_elf(o.inputs[0])) {
        if (dpu_program_open(&prog, o.inputs[0], &diag) != 0) goto out;
        if (o.tasklets && prog.nr_tasklets && o.tasklets != prog.nr_tasklets) {
            isk_error(&diag, NULL, "%s was linked for NR_TASKLETS = %d, not %d: rebuild it with --tasklets %d",
                      o.inputs[0], prog.nr_tasklets, o.tasklets, o.tasklets);
            goto out;
        }
    } else {
        for (int i = 0; i < o.ninputs; i++)
            if (is_elf(o.inputs[i])) {
                isk_error(&diag, NULL, "%s: give an executable alone, or only assembly sources", o.inputs[i]);
                goto out;
            }
        isk_obj *exe = dpu_build(m, o.inputs, (size_t)o.ninputs, o.tasklets ? o.tasklets : 1, o.stack, &diag);
        if (!exe) goto out;
        if (o.output && isk_elf_write_file(exe, o.output, &diag) != 0) {
            isk_obj_free(exe);
            goto out;
        }
        if (dpu_program_from_obj(&prog, exe, &diag) != 0) goto out;
    }

    isk_system_options so = { .diag = &diag };
    cli_run_system_options(&o.run, &so);
    sys = isk_system_new(&so);
    isk_inst *dpu = isk_system_add(sys, m, "dpu");
    if (!dpu) goto out;
    if (o.chip && prog.chip[0] && strcmp(o.chip, prog.chip) != 0) {
        isk_error(&diag, NULL, "%s is built for a %s DPU, not %s", o.inputs[0], prog.chip, o.chip);
        goto out;
    }
    if (o.chip && isk_set_param(dpu, "chip", o.chip) != ISK_OK) goto out;
    if (isk_set_param(dpu, "mode", o.cycles ? "cycle" : "functional") != ISK_OK) goto out;
    if (!cli_set_params("isekit run dpu", dpu, &o.run, &rc)) goto out;
    if (dpu_program_load(dpu, &prog, &diag) != 0) goto out;
    if (!host_inputs(&o, dpu, &prog, &diag)) {
        rc = EXIT_USAGE;
        goto out;
    }

    cli_run r;
    cli_run_begin(&r, "isekit run dpu", sys, &o.run, o.run.max_clocks);
    if (o.run.trace) {
        /* the registers and flags change visibly; WRAM, MRAM and IRAM are too large to compare
         * after every instruction (their DMAs are events of their own) */
        for (int i = 0; i < isk_model_storage_count(m); i++)
            if (isk_model_storage(m, i)->count * (uint64_t)((isk_model_storage(m, i)->width + 7) / 8) <= DPU_TRACED_BYTES)
                isk_watch(dpu, i, true);
        if (isk_subscribe(sys, ISK_EV_BIT(ISK_EV_ISSUE) | ISK_EV_BIT(ISK_EV_DMA) | ISK_EV_BIT(ISK_EV_STORE), print_event,
                          NULL) != ISK_OK)
            goto out;
    }
    isk_status st = cli_run_go(&r, 0);

    size_t outlen;
    char *text = dpu_program_stdout(dpu, &prog, &outlen);
    fwrite(text, 1, outlen, stdout);
    fflush(stdout);
    free(text);

    if (st == ISK_FAULT) {
        /* the engine reported "clock N, dpu context T, pc 0x..: what (fault code C)"; add the
         * instruction that faulted */
        for (int t = 0; t < DPU_THREADS; t++) {
            const isk_context *c = isk_context_of(dpu, t);
            if (c->state != ISK_CTX_FAULTED) continue;
            char dis[160];
            uint64_t word;
            disassemble(m, dpu, c->pc, dis, sizeof dis, &word);
            fprintf(stderr, "dpu: tasklet %d faulted at pc 0x%" PRIx64 " (%s) in cycle %" PRIu64 "\n", t, c->pc, dis,
                    isk_clock(sys));
        }
    }
    bool dumped = host_outputs(&o, dpu, &prog, &diag);
    if (!o.quiet && (st == ISK_FAULT || st == ISK_OK || st == ISK_STOPPED)) print_statistics(&o, sys, dpu, &prog);
    bool shown = cli_show_values(dpu, &o.run);
    if (st == ISK_OK) rc = cli_run_unfinished(&r, NULL);
    if (!dumped && rc == EXIT_OK) rc = EXIT_FAILED;
    else if (st == ISK_STOPPED && shown) rc = EXIT_OK;
    cli_run_end(&r);

out:
    free_host_options(&o);
    isk_system_free(sys);
    dpu_program_close(&prog);
    isk_model_release(m);
    return rc;
}

CLI_RUNNER(cmd_run_dpu, "dpu", "DPU executables, or sources built with isekit's DPU runtime");
