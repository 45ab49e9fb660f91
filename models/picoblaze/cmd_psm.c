/* isekit psm: assemble Xilinx PicoBlaze .psm sources; disassemble PicoBlaze images. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "psm/psm.h"
#include "base/file.h"
#include "base/str.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "isekit/desc.h"

#define MAX_OUTPUTS 8
#define MAX_INCLUDES 16

typedef struct psm_cli {
    const char *core, *input, *template_path, *log_path, *fmt_path;
    const char *outputs[MAX_OUTPUTS];
    int noutputs;
    const char *includes[MAX_INCLUDES];
    int nincludes;
    bool disassemble, crlf;
    int scratchpad;
    int max_errors;
} psm_cli;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit psm [options] FILE.psm        assemble\n"
            "       isekit psm -d [options] IMAGE        disassemble a .hex, .mem, .dec or .bin image (or a .psm)\n\n"
            "The Xilinx PicoBlaze dialects of KCPSM3.EXE, the KCPSM6 assembler and opbasm (NAMEREG,\n"
            "CONSTANT, ADDRESS, STRING, TABLE, INCLUDE, INST, DEFAULT_JUMP; hex, 'd, 'b, \"c\", ~ values).\n"
            "INCLUDE \"pbbcelib.psm\" finds the EdkDSP firmware library built into isekit.\n\n"
            "options:\n"
            "  -3, -6, --core NAME  the core: kcpsm3 (default), kcpsm6, or a PicoBlaze model .c file\n"
            "  -o FILE              write FILE; its extension picks the format (repeatable):\n"
            "                       .hex .mem (Xilinx, whole program space), .dec (KCPSM3), .bin (4 bytes\n"
            "                       per word, little-endian), .h (C header with the firmware array)\n"
            "                       .vhd .vhdl .v (the ROM from --template)\n"
            "                       default: FILE.hex next to the source\n"
            "  --template T         a ROM template (Xilinx ROM_form.vhd/.v style): {name}, {timestamp},\n"
            "                       {INIT_xx} and {INITP_xx} filled in after the line {begin template}\n"
            "  --log FILE           the listing as the KCPSM6 assembler's .log: addresses, words, resolved\n"
            "                       operands (sX[name], 12[name]), then files, constants, strings, labels\n"
            "  --fmt FILE           the source formatted as the Xilinx assemblers' .fmt\n"
            "  -I DIR               also look for INCLUDE files in DIR\n"
            "  --scratchpad N       scratchpad size for direct STORE/FETCH checks (64, 128, 256)\n"
            "  --crlf               CR LF line ends in text images (as KCPSM3.EXE writes them)\n"
            "  -d, --disassemble    list an image: address, word, instruction\n"
            "  --max-errors N       at most N errors per file and in all (default 20/50; 0 = no cap)\n"
            "  -h, --help           this text\n\n"
            "Exit status: 0 on success, 1 on errors in the sources or images, 2 on bad usage.\n");
}

static bool parse_args(int argc, char **argv, void *opts)
{
    psm_cli *o = opts;
    memset(o, 0, sizeof *o);
    o->core = "kcpsm3";
    o->max_errors = -1;
    cli_args a = { "isekit psm", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        const char *s = argv[a.i], *v;
        if (cli_flag(&a, "-3")) o->core = "kcpsm3";
        else if (cli_flag(&a, "-6")) o->core = "kcpsm6";
        else if (cli_value(&a, "--core", &v)) o->core = v ? v : o->core;
        else if (cli_value(&a, "--template", &v)) o->template_path = v;
        else if (cli_value(&a, "--log", &v)) o->log_path = v;
        else if (cli_value(&a, "--fmt", &v)) o->fmt_path = v;
        else if (cli_value(&a, "-o", &v)) {
            if (v && o->noutputs == MAX_OUTPUTS) cli_usage_error(&a, "at most %d outputs", MAX_OUTPUTS);
            else if (v) o->outputs[o->noutputs++] = v;
        } else if (cli_value(&a, "-I", &v)) {
            if (v && o->nincludes == MAX_INCLUDES) cli_usage_error(&a, "at most %d -I directories", MAX_INCLUDES);
            else if (v) o->includes[o->nincludes++] = v;
        } else if (cli_int(&a, "--scratchpad", 64, 256, &o->scratchpad)) {
            if (!a.bad && o->scratchpad != 64 && o->scratchpad != 128 && o->scratchpad != 256)
                cli_usage_error(&a, "--scratchpad: %d is not 64, 128 or 256", o->scratchpad);
        } else if (cli_max_errors(&a, &o->max_errors)) continue;
        else if (cli_flag(&a, "--crlf")) o->crlf = true;
        else if (cli_flag(&a, "-d") || cli_flag(&a, "--disassemble")) o->disassemble = true;
        else if (s[0] == '-' && s[1]) cli_usage_error(&a, "unknown option '%s'", s);
        else if (!o->input) o->input = s;
        else cli_usage_error(&a, "unexpected argument '%s'", s);
    }
    if (!a.bad && !o->input) cli_usage_error(&a, "no input file");
    return !a.bad;
}

static psm_program *assemble(const psm_cli *o, const isk_model *m, isk_diag *diag)
{
    psm_options opt;
    psm_options_init(&opt, m);
    opt.include_dirs = o->includes;
    opt.ninclude_dirs = (size_t)o->nincludes;
    opt.scratchpad_size = (unsigned)o->scratchpad;
    opt.listing = o->log_path != NULL;
    /* KCPSM6 code assembled for the KCPSM3 (the default) says which option it needs */
    isk_model *k6 = strcmp(m->name, "kcpsm3") == 0 ? isk_model_load("kcpsm6", diag) : NULL;
    opt.hint_model = k6;
    opt.hint = "it is KCPSM6 code: assemble with -6 (--core kcpsm6)";
    psm_program *p = psm_assemble_file(o->input, &opt, diag);
    if (k6) isk_model_release(k6);
    return p;
}

static bool is_hdl(const char *path)
{
    return isk_ends_with(path, ".vhd") || isk_ends_with(path, ".vhdl") || isk_ends_with(path, ".v");
}

/* The ROM as VHDL or Verilog: the user's template filled in; the entity is the file's base name. */
static int write_hdl(const char *path, const psm_program *p, const char *template_path, isk_diag *diag)
{
    if (!template_path) {
        fprintf(stderr, "isekit psm: %s: a VHDL or Verilog ROM needs --template (e.g. ROM_form.vhd)\n", path);
        return EXIT_USAGE;
    }
    char *text = NULL;
    size_t size;
    if (isk_file_read_text(template_path, &text, &size, diag) != 0) return EXIT_FAILED;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char *name = isk_xstrndup(base, (size_t)(strrchr(base, '.') - base));
    char stamp[32];
    time_t now = time(NULL);
    struct tm tm;
    strftime(stamp, sizeof stamp, "%d %b %Y %H:%M:%S", gmtime_r(&now, &tm));
    FILE *f = fopen(path, "w");
    int rc = f && psm_write_template(f, text, p->words, p->size, name, stamp) == 0 ? EXIT_OK : EXIT_FAILED;
    if (f && fclose(f) != 0) rc = EXIT_FAILED;
    if (rc != EXIT_OK) fprintf(stderr, "isekit psm: cannot write %s\n", path);
    free(name);
    free(text);
    return rc;
}

/* The .log and .fmt listings (the .fmt formats the top-level source). */
static int write_listings(const psm_cli *o, const psm_program *p, const isk_model *m, isk_diag *diag)
{
    const char *paths[2] = { o->log_path, o->fmt_path };
    for (int k = 0; k < 2; k++) {
        if (!paths[k]) continue;
        char *text = NULL, title[16];
        size_t size;
        if (k == 1 && isk_file_read_text(o->input, &text, &size, diag) != 0) return EXIT_FAILED;
        FILE *f = fopen(paths[k], "w");
        int rc = -1;
        if (f && k == 0) {
            size_t i = 0;
            for (const char *s = m->name; *s && i + 1 < sizeof title; s++) title[i++] = (char)toupper((unsigned char)*s);
            title[i] = 0;
            rc = psm_write_log(f, p, o->input, title, o->crlf);
        } else if (f) {
            rc = psm_write_fmt(f, o->input, text, p, o->crlf);
        }
        if (f && fclose(f) != 0) rc = -1;
        free(text);
        if (rc != 0) {
            fprintf(stderr, "isekit psm: cannot write %s\n", paths[k]);
            return EXIT_FAILED;
        }
    }
    return EXIT_OK;
}

static int write_output(const char *path, const psm_program *p, const char *source, bool crlf)
{
    int format = psm_image_format_of(path);
    if (format < 0) {
        fprintf(stderr, "isekit psm: %s: unknown output format (use .hex, .mem, .dec, .bin or .h)\n", path);
        return EXIT_USAGE;
    }
    FILE *f = fopen(path, format == PSM_BIN ? "wb" : "w");
    if (!f) {
        perror(path);
        return EXIT_FAILED;
    }
    int rc = psm_write_image(f, format, p->words, p->size, p->end, path, source, crlf);
    if (fclose(f) != 0) rc = -1;
    if (rc != 0) {
        fprintf(stderr, "isekit psm: cannot write %s\n", path);
        return EXIT_FAILED;
    }
    return EXIT_OK;
}

static int list(const isk_model *m, const uint32_t *words, size_t n)
{
    for (size_t a = 0; a < n; a++) {
        char text[160];
        psm_disassemble(m, words[a], text, sizeof text);
        printf("%03zX  %05X  %s\n", a, words[a], text);
    }
    return EXIT_OK;
}

static int disassemble(const psm_cli *o, const isk_model *m, isk_diag *diag)
{
    if (isk_ends_with(o->input, ".psm")) {
        psm_program *p = assemble(o, m, diag);
        if (!p) return EXIT_FAILED;
        int rc = list(m, p->words, p->end);
        psm_program_free(p);
        return rc;
    }
    size_t capacity = (size_t)m->storages.data[m->code_storage].info.count, n = 0;
    uint32_t *words = calloc(capacity, sizeof *words);
    if (!words) return EXIT_FAILED;
    int rc = psm_read_image(o->input, words, capacity, &n, diag) == 0 ? list(m, words, n) : EXIT_FAILED;
    free(words);
    return rc;
}

static int cmd_psm(int argc, char **argv)
{
    psm_cli o;
    int start = cli_start(argc, argv, usage, parse_args, &o);
    if (start >= 0) return start;
    isk_diag diag;
    cli_diag_init(&diag, o.max_errors);
    isk_model *m = isk_model_load(o.core, &diag);
    if (!m) return EXIT_FAILED;
    if (!psm_model_ok(m, o.core, &diag)) {
        isk_model_release(m);
        return EXIT_FAILED;
    }
    int rc;
    if (o.disassemble) {
        rc = disassemble(&o, m, &diag);
    } else {
        psm_program *p = assemble(&o, m, &diag);
        rc = p ? EXIT_OK : EXIT_FAILED;
        char *fallback = NULL;
        if (p && !o.noutputs) {
            size_t n = strlen(o.input);
            fallback = isk_ends_with(o.input, ".psm") ? isk_xasprintf("%.*s.hex", (int)(n - 4), o.input)
                                                  : isk_xasprintf("%s.hex", o.input);
            o.outputs[o.noutputs++] = fallback;
        }
        for (int i = 0; p && i < o.noutputs && rc == EXIT_OK; i++)
            rc = is_hdl(o.outputs[i]) ? write_hdl(o.outputs[i], p, o.template_path, &diag)
                                      : write_output(o.outputs[i], p, o.input, o.crlf);
        if (p && rc == EXIT_OK) rc = write_listings(&o, p, m, &diag);
        if (p && rc == EXIT_OK)
            fprintf(stderr, "%s: %zu instructions, last address %03zX, %s\n", o.input, p->count,
                    p->end ? p->end - 1 : 0, isk_model_name(m));
        free(fallback);
        psm_program_free(p);
    }
    isk_model_release(m);
    return rc;
}

CLI_COMMAND(cmd_psm, "psm", "assemble or disassemble PicoBlaze .psm programs (KCPSM3, KCPSM6)");
