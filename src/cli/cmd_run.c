/* isekit run MODEL PROGRAM: simulate, print a trace on request and a summary. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/asm.h"
#include "asm/dwarf_line.h"
#include "asm/syntax.h"
#include "base/str.h"
#include "cli/cli.h"
#include "cli/launchlist.h"
#include "cli/ports.h"
#include "cli/program.h"
#include "cli/runctl.h"
#include "cli/sysfile.h"
#include "cli/toolchain.h"
#include "elf/elf_file.h"
#include "isekit/sim.h"

typedef struct run_options {
    const char *model, *program;
    bool warn_conflicts, port_log;
    const char *stop_ports[CLI_MAX_LIST];
    int nstop_ports;
    cli_run_opts run;
} run_options;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit run MODEL PROGRAM [options]\n"
            "       isekit run SYSTEM.sys [options]\n\n"
            "Simulate MODEL (a built-in name or a model .c file) running PROGRAM. For an accelerator,\n"
            "PROGRAM is a launch list: one command per line in the model's assembly syntax, launched\n"
            "one per clock, with the directives @CLOCK, wait irq|idle|flag NAME == V|N, write, init\n"
            "and expect (see docs/launch-lists.md); or a launch program in assembly (.s, .S) or an\n"
            "ELF file, whose .text commands are launched one per clock. For a processor, PROGRAM is\n"
            "an executable (ELF or Intel-HEX) or an assembly source (.s, .S), assembled and linked by\n"
            "the model's memory map, or, for a model that declares the .psm syntax (its parameter\n"
            "syntax = psm), a .psm source or a .hex/.mem/.dec/.bin image; the run ends when every\n"
            "context has stopped.\n"
            "A SYSTEM.sys file describes instances, their programs, shared storages and port wiring\n"
            "(docs/systems.md).\n\n"
            "options:\n"
            "  --trace             print every clock's events (launches, writes, ends, interrupts;\n"
            "                      for processors, every instruction with its disassembly)\n"
            "  --warn-conflicts    report CREW conflicts and resource clashes as warnings, go on\n"
            "  --port-log          print every port write of a processor: CLOCK INSTANCE out PORT = VALUE\n"
            "  --stop-port PORT    a processor that writes PORT stops (its run then ends: status 0)\n"
            CLI_RUN_OPTIONS_HELP
            "  -h, --help          this text\n\n"
            "A wait of a launch list that can never end (nothing active to raise the interrupt or\n"
            "change the flag) is reported as a deadlock with its line. On a terminal a progress line\n"
            "shows the clock every second.\n\n"
            CLI_EXIT_HELP);
    if (cli_runner_at(0)) fprintf(out, "\nRunners of their own (isekit run NAME --help):\n");
    for (int i = 0; cli_runner_at(i); i++) fprintf(out, "  %-19s %s\n", cli_runner_at(i)->name, cli_runner_at(i)->summary);
}

static bool parse_args(int argc, char **argv, void *opts)
{
    run_options *o = opts;
    memset(o, 0, sizeof *o);
    cli_run_opts_init(&o->run, CLI_DEFAULT_MAX_CLOCKS);
    cli_args a = { "isekit run", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        const char *s = argv[a.i];
        const char *stop;
        if (cli_flag(&a, "--warn-conflicts")) o->warn_conflicts = true;
        else if (cli_flag(&a, "--port-log")) o->port_log = true;
        else if (cli_value(&a, "--stop-port", &stop)) {
            if (stop && o->nstop_ports == CLI_MAX_LIST) cli_usage_error(&a, "at most %d --stop-port", CLI_MAX_LIST);
            else if (stop) o->stop_ports[o->nstop_ports++] = stop;
        } else if (cli_run_option(&a, &o->run, NULL)) continue;
        else if (s[0] == '-' && s[1]) cli_usage_error(&a, "unknown option '%s'", s);
        else if (!o->model) o->model = s;
        else if (!o->program) o->program = s;
        else cli_usage_error(&a, "unexpected argument '%s'", s);
    }
    bool sys = o->model && isk_ends_with(o->model, ".sys");
    if (!a.bad && sys && o->program) cli_usage_error(&a, "a system description brings its own programs");
    else if (!a.bad && !sys && (!o->model || !o->program)) cli_usage_error(&a, "need a MODEL and a PROGRAM");
    for (int i = 0; i < o->nstop_ports && !a.bad; i++) {
        uint64_t port;
        cli_parse_u64(&a, "--stop-port", o->stop_ports[i], 0, UINT64_MAX, ISK_UNIT_NONE, &port);
    }
    return !a.bad;
}

static void print_summary(isk_system *sys, isk_inst *acc)
{
    const isk_model *m = isk_inst_model(acc);
    isk_stats st;
    isk_get_stats(sys, &st);
    printf("summary: %" PRIu64 " clocks, %" PRIu64 " launches, %" PRIu64 " commands completed\n", st.clocks,
           st.launches, st.commands_done);
    double clocks = st.clocks ? (double)st.clocks : 1.0;
    printf("slots: %d, average occupancy %.2f, at most %d busy\n", isk_model_slots(m),
           (double)st.slot_clocks / clocks, st.max_busy_slots);
    for (int i = 0; i < isk_model_resource_count(m); i++) {
        const isk_resource_info *r = isk_model_resource(m, i);
        uint64_t used = st.resource_clocks[__builtin_ctzll(r->mask)];
        printf("resource %-16s used in %" PRIu64 " clocks (%.1f%%)\n", r->name, used, 100.0 * (double)used / clocks);
    }
    printf("conflicts: %" PRIu64 " CREW, %" PRIu64 " resource clashes; interrupts: %" PRIu64 "\n",
           st.crew_conflicts, st.resource_clashes, st.interrupts);
}

static bool is_elf_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char m[4] = { 0 };
    size_t n = f ? fread(m, 1, 4, f) : 0;
    if (f) fclose(f);
    return n == 4 && memcmp(m, "\177ELF", 4) == 0;
}

/* The launch program's lines and labels, for a debugger's break FILE:LINE and break LABEL: each
 * command's source line from the object's .debug_line, each label of .text at its command. */
static void keep_program_source(launch_list *l, const isk_obj *obj, uint32_t text, int bytes)
{
    const isk_section *sec = &obj->secs.data[text];
    for (size_t i = 1; i < obj->syms.len; i++) {
        const isk_symbol *s = &obj->syms.data[i];
        if (s->shndx == text && *s->name && s->type != STT_SECTION && s->value < sec->size)
            launch_list_add_label(l, s->name, (size_t)(s->value / (uint64_t)bytes));
    }
    isk_dwarf_lines d = { 0 };
    char err[200];
    if (isk_obj_lines(obj, &d, err, sizeof err)) {
        for (size_t r = 0; r < d.rows.len; r++) {
            const isk_dwarf_row *w = &d.rows.data[r];
            uint64_t off = obj->type == ET_EXEC ? w->addr - sec->addr : w->addr;
            if (w->end || (w->sec && w->sec != text) || w->file >= d.files.len || off >= sec->size) continue;
            /* a row covers the commands up to the next row: the assembler writes one per command */
            launch_list_set_source(l, (size_t)(off / (uint64_t)bytes), d.files.data[w->file], (int)w->line);
        }
    }
    isk_dwarf_lines_free(&d);
}

/* A launch program: an assembly source (assembled here) or an ELF file; its .text holds the
 * commands, launched one per clock. */
static launch_list *load_launch_program(const char *path, isk_system *sys, isk_inst *acc, isk_diag *diag)
{
    const isk_model *m = isk_inst_model(acc);
    isk_obj *obj = is_elf_file(path) ? isk_elf_read_file(path, diag) : isk_assemble_files(m, &path, 1, path, NULL, diag);
    if (!obj) return NULL;
    launch_list *l = NULL;
    uint32_t text = isk_obj_find_section(obj, ".text");
    const isk_section *sec = text ? &obj->secs.data[text] : NULL;
    int bytes = isk_asm_insn_bytes(m);
    if (!sec || !sec->size || !sec->data) {
        isk_error(diag, NULL, "%s: no commands in .text to launch (model '%s' is an accelerator: it runs a launch "
                  "list, see docs/launch-lists.md, or a launch program's .text)", path, isk_model_name(m));
    } else if (sec->relocs.len) {
        isk_error(diag, NULL, "%s: .text has %zu unresolved relocation(s): link it first (isekit ld -m %s)", path,
                  sec->relocs.len, isk_model_name(m));
    } else if (sec->size % (uint64_t)bytes) {
        isk_error(diag, NULL, "%s: .text holds %" PRIu64 " bytes, not a whole number of %d-byte commands", path,
                  sec->size, bytes);
    } else {
        bool big = m->has_elf && m->elf.big_endian;
        size_t n = (size_t)(sec->size / (uint64_t)bytes);
        uint64_t *words = isk_xcalloc(n ? n : 1, sizeof *words);
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < bytes; k++) {
                int shift = 8 * (big ? bytes - 1 - k : k);
                words[i] |= (uint64_t)sec->data[i * (size_t)bytes + (size_t)k] << shift;
            }
        l = launch_list_from_words(path, sys, acc, words, n, diag);
        free(words);
        keep_program_source(l, obj, text, bytes);
    }
    isk_obj_free(obj);
    return l;
}

static int run_launch_list(const run_options *o, isk_model *m, isk_diag *diag)
{
    isk_system_options so = { .conflicts_are_warnings = o->warn_conflicts, .diag = diag };
    cli_run_system_options(&o->run, &so);
    isk_system *sys = isk_system_new(&so);
    isk_inst *acc = isk_system_add(sys, m, isk_model_name(m));
    int rc = EXIT_FAILED;
    if (!acc || isk_attach(sys, acc, 0) != ISK_OK) goto out;
    if (o->run.trace && cli_trace(sys) != ISK_OK) goto out;
    if (!cli_set_params("isekit run", acc, &o->run, &rc)) goto out;
    bool program = tc_is_source(o->program) || is_elf_file(o->program);
    launch_list *l = program ? load_launch_program(o->program, sys, acc, diag)
                             : launch_list_load(o->program, sys, acc, diag);
    if (!l) goto out;
    cli_run r;
    cli_run_begin(&r, "isekit run", sys, &o->run, o->run.max_clocks);
    r.launch_list = l;     /* the debugger's break FILE:LINE, SYMBOL and stepi in the list */
    if (launch_list_start(l, r.limit) == ISK_OK) {
        isk_status st = cli_run_go(&r, 0);
        print_summary(sys, acc);
        bool shown = cli_show_values(acc, &o->run);
        char where[512];
        if (launch_list_failures(l)) rc = EXIT_FAILED;
        else if (launch_list_beyond_limit(l) || st == ISK_OK)
            rc = cli_run_unfinished(&r, launch_list_where(l, where, sizeof where) ? where : NULL);
        else if (st == ISK_STOPPED && shown) rc = EXIT_OK;
        else if (st == ISK_FAULT) cli_run_fault_hint(&r);
    }
    cli_run_end(&r);
    launch_list_free(l);
out:
    isk_system_free(sys);
    return rc;
}

/* ---- processors ----------------------------------------------------------------------------- */

static const char *const context_states[] = { "stopped", "running", "blocked", "sleeping", "faulted", "exited" };

/* Each processor's contexts that ran or did not stop, after a run. */
static void print_contexts(isk_inst *proc, bool named)
{
    for (int id = 0; isk_context_of(proc, id); id++) {
        const isk_context *c = isk_context_of(proc, id);
        if (c->insns || c->state != ISK_CTX_STOPPED)
            printf("%s%scontext %d: %" PRIu64 " instructions, %s at pc 0x%" PRIx64 "\n", named ? isk_inst_name(proc) : "",
                   named ? " " : "", id, c->insns, context_states[c->state], c->pc);
    }
}

static void print_instructions(isk_system *sys)
{
    isk_stats stats;
    isk_get_stats(sys, &stats);
    printf("summary: %" PRIu64 " clocks, %" PRIu64 " instructions (%.3f per clock)\n", stats.clocks,
           stats.instructions, stats.clocks ? (double)stats.instructions / (double)stats.clocks : 0.0);
}

static int run_processor(const run_options *o, isk_model *m, isk_diag *diag)
{
    isk_system_options so = { .diag = diag };
    cli_run_system_options(&o->run, &so);
    isk_system *sys = isk_system_new(&so);
    isk_inst *proc = isk_system_add(sys, m, isk_model_name(m));
    port_wiring *w = port_wiring_new(sys, o->port_log ? stdout : NULL);
    int rc = EXIT_FAILED;
    if (!proc || !cli_set_params("isekit run", proc, &o->run, &rc) || !cli_load_program(proc, o->program, diag)) goto out;
    if (o->run.trace && cli_trace(sys) != ISK_OK) goto out;
    if (o->nstop_ports) {
        proc_ports *p = port_wiring_of(w, proc);
        for (int i = 0; i < o->nstop_ports; i++) {
            uint64_t port = 0;
            isk_parse_u64(o->stop_ports[i], 0, UINT64_MAX, ISK_UNIT_NONE, &port, NULL, 0);   /* checked */
            VEC_PUSH(&p->outs, (port_route){ .port = port, .kind = ROUTE_STOP });
        }
    }
    cli_run r;
    cli_run_begin(&r, "isekit run", sys, &o->run, o->run.max_clocks);
    r.between = port_wiring_apply_stops;
    r.between_user = w;
    isk_status st = cli_run_go(&r, 0);
    print_instructions(sys);
    print_contexts(proc, false);
    bool shown = cli_show_values(proc, &o->run);
    if (st == ISK_OK) rc = cli_run_unfinished(&r, NULL);
    else if (st == ISK_STOPPED && shown) rc = EXIT_OK;
    cli_run_end(&r);
out:
    port_wiring_free(w);
    isk_system_free(sys);
    return rc;
}

/* ---- systems described in a file -------------------------------------------------------------- */

/* --show INSTANCE.NAME after a system's run. */
static bool show_system_values(isk_system *sys, const cli_run_opts *o)
{
    bool ok = true;
    for (int i = 0; i < o->nshows; i++) {
        const char *dot = strchr(o->shows[i], '.');
        char *name = dot ? isk_xstrndup(o->shows[i], (size_t)(dot - o->shows[i])) : NULL;
        isk_inst *inst = name ? isk_instance(sys, name) : NULL;
        free(name);
        if (!inst) {
            char cmd[96];
            fprintf(stderr, "%s: --show %s: name INSTANCE.STORAGE of the system\n",
                    cli_command_name("isekit run", o->debug.on, cmd, sizeof cmd), o->shows[i]);
            ok = false;
            continue;
        }
        ok &= cli_show_value(inst, dot + 1, o->shows[i]);
    }
    return ok;
}

static int run_system_file(const run_options *o, isk_diag *diag)
{
    sysfile *f = sysfile_read(o->model, diag);
    if (!f) return EXIT_FAILED;
    isk_system_options so = { .conflicts_are_warnings = o->warn_conflicts, .diag = diag, .explicit_sharing = 1 };
    cli_run_system_options(&o->run, &so);
    isk_system *sys = isk_system_new(&so);
    port_wiring *w = port_wiring_new(sys, o->port_log || f->port_log ? stdout : NULL);
    int rc = EXIT_FAILED;
    if (o->nstop_ports || o->run.nparams) {
        char cmd[96];
        fprintf(stderr, "%s: --stop-port and --param do not apply to a system description (it says them)\n",
                cli_command_name("isekit run", o->run.debug.on, cmd, sizeof cmd));
        rc = EXIT_USAGE;
    } else if (sysfile_build(f, sys, w, NULL, diag) && (!o->run.trace || cli_trace(sys) == ISK_OK)) {
        cli_run r;
        /* the file's clock limit unless the command line gives one */
        uint64_t limit = o->run.max_clocks != CLI_DEFAULT_MAX_CLOCKS || !f->max_clocks ? o->run.max_clocks : f->max_clocks;
        cli_run_begin(&r, "isekit run", sys, &o->run, limit);
        r.between = port_wiring_apply_stops;
        r.between_user = w;
        isk_status st = cli_run_go(&r, 0);
        fflush(stdout);
        print_instructions(sys);
        for (size_t i = 0; i < f->instances.len; i++) {
            isk_inst *inst = isk_instance(sys, f->instances.data[i].name);
            if (isk_inst_model(inst)->is_processor) print_contexts(inst, true);
        }
        bool shown = show_system_values(sys, &o->run);
        if (st == ISK_OK) rc = cli_run_unfinished(&r, NULL);
        else if (st == ISK_STOPPED && shown) rc = EXIT_OK;
        else if (st == ISK_FAULT) cli_run_fault_hint(&r);
        cli_run_end(&r);
    }
    port_wiring_free(w);
    isk_system_free(sys);
    sysfile_free(f);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    /* Models and systems whose programs are not launch lists bring their own runner (cli.h). */
    const isk_command *runner = argc > 1 ? cli_runner_find(argv[1]) : NULL;
    if (runner) return runner->run(argc - 1, argv + 1);
    run_options o;
    int start = cli_start(argc, argv, usage, parse_args, &o);
    if (start >= 0) return start;
    isk_diag diag;
    cli_diag_init(&diag, o.run.max_errors);
    if (isk_ends_with(o.model, ".sys")) return run_system_file(&o, &diag);
    isk_model *m = isk_model_load(o.model, &diag);
    if (!m) return EXIT_FAILED;
    int rc;
    if (isk_model_slots(m)) {
        rc = run_launch_list(&o, m, &diag);
    } else if (m->is_processor) {
        rc = run_processor(&o, m, &diag);
    } else {
        char cmd[96];
        fprintf(stderr, "%s: model '%s' is neither an accelerator (SLOTS) nor a processor (PROCESSOR)\n",
                cli_command_name("isekit run", o.run.debug.on, cmd, sizeof cmd), isk_model_name(m));
        rc = EXIT_FAILED;
    }
    isk_model_release(m);
    return rc;
}
