/* isekit cc: compile a C firmware source for the PicoBlaze (docs/cc.md). The system's cpp
 * preprocesses; cc/ compiles to .psm; isekit's .psm assembler (src/psm) makes the images and the
 * C header with the firmware array, as `pbcc pbbcelib.psmo fw.c -o fw.h` does for EdkDSP hosts. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cc.h"
#include "psm/psm.h"
#include "base/str.h"
#include "cli/cli.h"
#include "cli/options.h"

#define MAX_ARGS 32

typedef struct cc_cli {
    int core;
    const char *input;
    const char *outputs[8];
    int noutputs;
    const char *includes[MAX_ARGS], *defines[MAX_ARGS], *libs[MAX_ARGS];
    int nincludes, ndefines, nlibs, scratchpad;
} cc_cli;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit cc [options] FILE.c [LIB.psm...]\n\n"
            "Compile C (a subset of C17, docs/cc.md) for the PicoBlaze. The system's cpp preprocesses;\n"
            "LIB.psm files (e.g. pbbcelib.psm) are INCLUDEd after the compiled code, as the EdkDSP\n"
            "SDK's `pbcc pbbcelib.psmo fw.c -o fw.h` links them; `#pragma isekit library \"x.psm\"` in a\n"
            "header does the same (pbbcelib.h has it).\n\n"
            "options:\n"
            "  -m kcpsm3|kcpsm6     the core (also -3, -6; default kcpsm3)\n"
            "  -o FILE              write FILE; its extension picks the format (repeatable): .psm (the\n"
            "                       assembly, with the C lines as comments), .hex, .mem, .dec, .bin, .h\n"
            "                       (C header with the firmware array); default FILE.hex\n"
            "  -I DIR               search DIR for #include and INCLUDE files\n"
            "  -D NAME[=VALUE]      define a macro\n"
            "  --scratchpad N       scratchpad bytes (64, 128, 256; default 64)\n"
            "  -h, --help           this text\n\n"
            "Exit status: 0 on success, 1 on errors in the source, 2 on bad usage.\n");
}

static bool parse_args(int argc, char **argv, void *opts)
{
    cc_cli *o = opts;
    memset(o, 0, sizeof *o);
    o->core = 3;
    o->scratchpad = 64;
    cli_args a = { "isekit cc", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        const char *s = argv[a.i], *v;
        if (cli_flag(&a, "-3")) o->core = 3;
        else if (cli_flag(&a, "-6")) o->core = 6;
        else if (cli_value(&a, "-m", &v)) {
            if (v && !strcmp(v, "kcpsm3")) o->core = 3;
            else if (v && !strcmp(v, "kcpsm6")) o->core = 6;
            else if (v) cli_usage_error(&a, "-m: '%s' is not kcpsm3 or kcpsm6", v);
        } else if (cli_value(&a, "-o", &v)) {
            if (v && o->noutputs == 8) cli_usage_error(&a, "at most 8 outputs");
            else if (v) o->outputs[o->noutputs++] = v;
        } else if (cli_value(&a, "-I", &v)) {
            if (v && o->nincludes == MAX_ARGS) cli_usage_error(&a, "too many -I");
            else if (v) o->includes[o->nincludes++] = v;
        } else if (cli_value(&a, "-D", &v)) {
            if (v && o->ndefines == MAX_ARGS) cli_usage_error(&a, "too many -D");
            else if (v) o->defines[o->ndefines++] = v;
        } else if (cli_int(&a, "--scratchpad", 64, 256, &o->scratchpad)) {
            if (!a.bad && o->scratchpad != 64 && o->scratchpad != 128 && o->scratchpad != 256)
                cli_usage_error(&a, "--scratchpad: %d is not 64, 128 or 256", o->scratchpad);
        } else if (s[0] == '-' && s[1]) cli_usage_error(&a, "unknown option '%s'", s);
        else if (isk_ends_with(s, ".psm") || isk_ends_with(s, ".psmo")) {
            if (o->nlibs == MAX_ARGS) cli_usage_error(&a, "too many libraries");
            else o->libs[o->nlibs++] = s;
        } else if (!o->input) o->input = s;
        else cli_usage_error(&a, "unexpected argument '%s' (one C file at a time)", s);
    }
    if (!a.bad && !o->input) cli_usage_error(&a, "no input file");
    if (!a.bad && o->core == 3 && o->scratchpad != 64) cli_usage_error(&a, "--scratchpad: KCPSM3 has 64 bytes");
    return !a.bad;
}

static void quote(cc_buf *b, const char *s)
{
    cc_buf_add(b, " '");
    for (; *s; s++) {
        if (*s == '\'') cc_buf_add(b, "'\\''");
        else cc_buf_add(b, "%c", *s);
    }
    cc_buf_add(b, "'");
}

/* The preprocessed text, or NULL after cpp reported its errors. */
static char *preprocess(const cc_cli *o)
{
    cc_buf cmd = { 0 };
    cc_buf_add(&cmd, "cpp -xc -std=c17 -nostdinc -undef -D__ISEKIT_CC__=1 -D__PICOBLAZE__=%d", o->core);
    for (int i = 0; i < o->nincludes; i++) {
        cc_buf_add(&cmd, " -I");
        quote(&cmd, o->includes[i]);
    }
    for (int i = 0; i < o->ndefines; i++) {
        cc_buf_add(&cmd, " -D");
        quote(&cmd, o->defines[i]);
    }
    quote(&cmd, o->input);
    FILE *p = popen(cmd.s, "r");
    cc_buf_free(&cmd);
    if (!p) return NULL;
    cc_buf text = { 0 };
    char chunk[4096];
    size_t n;
    cc_buf_add(&text, "%s", "");
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) cc_buf_add(&text, "%.*s", (int)n, chunk);
    int st = pclose(p);
    if (st != 0) {
        cc_buf_free(&text);
        if (!(WIFEXITED(st) && WEXITSTATUS(st) == 1)) fprintf(stderr, "isekit cc: cpp failed (is cpp installed?)\n");
        return NULL;
    }
    return text.s;
}

static int compile(cc_ctx *c, const cc_cli *o, const char *text)
{
    if (setjmp(c->fail)) return -1;
    for (int i = 0; i < o->nlibs; i++) {
        /* INCLUDE looks next to the including file: give it the library's full path */
        char *full = realpath(o->libs[i], NULL);
        if (!full) cc_error(c, (cc_pos){ 0 }, "cannot open the library %s", o->libs[i]);
        const char *lib = cc_strdup(c, full, strlen(full));
        free(full);
        CC_PUSH(c, c->libs, c->nlibs, c->caplibs, lib);
    }
    cc_lex(c, text);
    cc_parse(c);
    for (int i = 0; i < c->nfuncs; i++) {
        c->funcs[i]->index = i;
        if (c->funcs[i]->body) cc_gen_func(c, c->funcs[i]);
    }
    cc_frames(c);
    cc_emit_program(c);
    return 0;
}

static int write_outputs(const cc_cli *o, const char *psm)
{
    isk_diag diag;
    cli_diag_init(&diag, -1);
    isk_model *m = isk_model_load(o->core == 6 ? "kcpsm6" : "kcpsm3", &diag);
    if (!m) return EXIT_FAILED;
    psm_options opt;
    psm_options_init(&opt, m);
    opt.include_dirs = o->includes;
    opt.ninclude_dirs = (size_t)o->nincludes;
    opt.scratchpad_size = (unsigned)o->scratchpad;
    /* named after the C file, in its directory (INCLUDEs resolve from there) */
    size_t len = strlen(o->input);
    char *name = isk_ends_with(o->input, ".c") ? isk_xasprintf("%.*s.psm", (int)(len - 2), o->input)
                                               : isk_xasprintf("%s.psm", o->input);
    psm_program *p = psm_assemble_text(name, psm, &opt, &diag);
    free(name);
    int rc = p ? EXIT_OK : EXIT_FAILED;
    char *fallback = NULL;
    const char *outs[9];
    int nouts = o->noutputs;
    memcpy(outs, o->outputs, sizeof o->outputs);
    if (!nouts) {
        size_t n = strlen(o->input);
        outs[nouts++] = fallback = isk_ends_with(o->input, ".c") ? isk_xasprintf("%.*s.hex", (int)(n - 2), o->input)
                                                              : isk_xasprintf("%s.hex", o->input);
    }
    for (int i = 0; p && i < nouts && rc == EXIT_OK; i++) {
        bool as_psm = isk_ends_with(outs[i], ".psm");
        int format = as_psm ? 0 : psm_image_format_of(outs[i]);
        if (format < 0) {
            fprintf(stderr, "isekit cc: %s: unknown output format (use .psm, .hex, .mem, .dec, .bin or .h)\n", outs[i]);
            rc = EXIT_USAGE;
            break;
        }
        FILE *f = fopen(outs[i], format == PSM_BIN ? "wb" : "w");
        if (!f) {
            perror(outs[i]);
            rc = EXIT_FAILED;
            break;
        }
        int wrc = as_psm ? (fputs(psm, f) < 0 ? -1 : 0) : psm_write_image(f, format, p->words, p->size, p->end, outs[i], o->input, false);
        if (fclose(f) != 0 || wrc != 0) {
            fprintf(stderr, "isekit cc: cannot write %s\n", outs[i]);
            rc = EXIT_FAILED;
        }
    }
    if (p && rc == EXIT_OK)
        fprintf(stderr, "%s: %zu instructions, last address %03zX, %s\n", o->input, p->count, p->end ? p->end - 1 : 0,
                isk_model_name(m));
    free(fallback);
    psm_program_free(p);
    isk_model_release(m);
    return rc;
}

static int cmd_cc(int argc, char **argv)
{
    cc_cli o;
    int start = cli_start(argc, argv, usage, parse_args, &o);
    if (start >= 0) return start;
    char *text = preprocess(&o);
    if (!text) return EXIT_FAILED;
    cc_ctx *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->core = o.core;
    c->scratchpad = (unsigned)o.scratchpad;
    c->stack_depth = o.core == 6 ? 30 : 31;
    int rc = compile(c, &o, text) == 0 ? write_outputs(&o, c->out.s) : EXIT_FAILED;
    free(text);
    for (int i = 0; i < c->nfuncs; i++) cc_buf_free(&c->funcs[i]->code);
    cc_buf_free(&c->out);
    cc_buf_free(&c->body);
    while (c->arena) {
        cc_arena_blk *b = c->arena;
        c->arena = b->next;
        free(b);
    }
    free(c);
    return rc;
}

CLI_COMMAND(cmd_cc, "cc", "compile C firmware for the PicoBlaze (KCPSM3, KCPSM6) to .psm, images or a C header");
