#include "cli/toolchain.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm/link_model.h"
#include "base/file.h"
#include "base/str.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "elf/elf_file.h"
#include "elf/image.h"

bool tc_is_source(const char *path)
{
    return isk_ends_with(path, ".s") || isk_ends_with(path, ".S") || isk_ends_with(path, ".sx") || isk_ends_with(path, ".asm");
}

/* "-Ivalue" or "-I value". */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
    size_t n = strlen(opt);
    if (strncmp(argv[*i], opt, n) != 0) return NULL;
    if (argv[*i][n]) return argv[*i] + n;
    if (*i + 1 < argc) return argv[++*i];
    return NULL;
}

/* NAME=NUMBER; the number through the strict parser. */
static bool parse_defsym(const char *s, char **name, int64_t *value, char *why, size_t cap)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s) {
        snprintf(why, cap, "'%s' is not NAME=NUMBER", s);
        return false;
    }
    if (!isk_parse_i64(eq + 1, INT64_MIN, INT64_MAX, ISK_UNIT_NONE, value, why, cap)) return false;
    if (name) *name = isk_xstrndup(s, (size_t)(eq - s));
    return true;
}

/* The group of a common option (TC_OUTPUT ...), 0 for -m and anything else. */
static unsigned tc_option_group(const char *s)
{
    static const struct { const char *name; unsigned group; bool attached; } options[] = {
        { "-o", TC_OUTPUT, false },    { "-O", TC_LINK, false }, { "--format", TC_LINK, false },
        { "--region", TC_LINK, false }, { "--defsym", TC_LINK, false }, { "--region-start", TC_LINK, false },
        { "-L", TC_LINK, true },       { "-l", TC_LINK, true },  { "-I", TC_CPP, true }, { "-D", TC_CPP, true },
        { "-g", TC_CPP, false },
    };
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        size_t n = strlen(options[i].name);
        if (options[i].attached ? strncmp(s, options[i].name, n) == 0 : strcmp(s, options[i].name) == 0)
            return options[i].group;   /* "attached": the value may follow at once, -Ldir */
    }
    return 0;
}

bool tc_parse(int argc, char **argv, tc_args *a, int (*extra)(void *user, int argc, char **argv, int i), void *user)
{
    char cmd[40];
    snprintf(cmd, sizeof cmd, "isekit %s", a->tool);
    cli_args ca = { cmd, argc, argv, 1, false };
    a->max_errors = -1;
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i], *v;
        int used = extra ? extra(user, argc, argv, i) : 0;
        if (used < 0) return false;
        if (used > 0) {
            i += used - 1;
            continue;
        }
        ca.i = i;
        if (cli_max_errors(&ca, &a->max_errors)) {
            if (ca.bad) return false;
            i = ca.i;
            continue;
        }
        unsigned group = tc_option_group(s);
        if (group && !(a->takes & group)) {
            fprintf(stderr, "isekit %s: option '%s' does not apply to isekit %s (see isekit %s --help)\n", a->tool,
                    s, a->tool, a->tool);
            return false;
        }
        if (strcmp(s, "-m") == 0 || strcmp(s, "--model") == 0) {
            if (i + 1 >= argc) goto incomplete;
            a->model = argv[++i];
        } else if (strcmp(s, "-o") == 0) {
            if (i + 1 >= argc) goto incomplete;
            a->output = argv[++i];
        } else if (strcmp(s, "-O") == 0 || strcmp(s, "--format") == 0) {
            if (i + 1 >= argc) goto incomplete;
            a->format = argv[++i];
        } else if (strcmp(s, "--region") == 0) {
            if (i + 1 >= argc) goto incomplete;
            a->region = argv[++i];
        } else if (strcmp(s, "--defsym") == 0 || strcmp(s, "--region-start") == 0) {
            if (i + 1 >= argc) goto incomplete;
            char why[200];
            int64_t value;
            if (!parse_defsym(argv[++i], NULL, &value, why, sizeof why)) {      /* NAME=NUMBER, both */
                fprintf(stderr, "isekit %s: %s: %s\n", a->tool, s, why);
                return false;
            }
            VEC_PUSH(s[2] == 'd' ? &a->defsyms : &a->region_starts, argv[i]);
        } else if (strcmp(s, "-g") == 0) {
            a->lines = true;
        } else if ((v = option_value(argc, argv, &i, "-I"))) {
            VEC_PUSH(&a->include_dirs, v);
        } else if ((v = option_value(argc, argv, &i, "-D"))) {
            VEC_PUSH(&a->defines, v);
        } else if ((v = option_value(argc, argv, &i, "-L"))) {
            VEC_PUSH(&a->lib_dirs, v);
        } else if ((v = option_value(argc, argv, &i, "-l"))) {
            VEC_PUSH(&a->libs, v);
        } else if (s[0] == '-' && s[1]) {
            fprintf(stderr, "isekit %s: unknown option '%s' (see isekit %s --help)\n", a->tool, s, a->tool);
            return false;
        } else {
            VEC_PUSH(&a->inputs, s);
        }
        continue;
    incomplete:
        fprintf(stderr, "isekit %s: option '%s' needs a value\n", a->tool, s);
        return false;
    }
    return true;
}

void tc_free(tc_args *a)
{
    VEC_FREE(&a->inputs);
    VEC_FREE(&a->include_dirs);
    VEC_FREE(&a->defines);
    VEC_FREE(&a->defsyms);
    VEC_FREE(&a->region_starts);
    VEC_FREE(&a->lib_dirs);
    VEC_FREE(&a->libs);
}

isk_model *tc_model(const tc_args *a, isk_diag *diag)
{
    if (!a->model) {
        fprintf(stderr, "isekit %s: which model? give -m MODEL (a built-in name such as", a->tool);
        for (int i = 0; isk_builtin_model_name(i); i++) fprintf(stderr, "%s %s", i ? "," : "", isk_builtin_model_name(i));
        fprintf(stderr, ", or a model .c file)\n");
        return NULL;
    }
    return isk_model_load(a->model, diag);
}

isk_model *tc_start(int argc, char **argv, tc_args *a, void (*usage)(FILE *out, const char *tool), isk_diag *diag,
                    int *rc)
{
    *rc = EXIT_USAGE;
    if (wants_help(argc, argv)) {
        usage(stdout, a->tool);
        *rc = EXIT_OK;
        return NULL;
    }
    if (!tc_parse(argc, argv, a, NULL, NULL)) return NULL;
    cli_diag_init(diag, a->max_errors);      /* nothing was reported to it yet */
    if (!a->inputs.len) {
        fprintf(stderr, "isekit %s: no input files\n\n", a->tool);
        usage(stderr, a->tool);
        return NULL;
    }
    isk_model *m = tc_model(a, diag);
    if (!m && a->model) *rc = EXIT_FAILED;
    return m;
}

/* ---- output ---------------------------------------------------------------------------- */

static const isk_region_decl *pick_region(const isk_model *m, const char *name, isk_diag *diag)
{
    for (size_t i = 0; i < m->regions.len; i++) {
        const isk_region_decl *r = &m->regions.data[i];
        if (name ? strcmp(r->name, name) == 0 : r->code) return r;
    }
    if (name) isk_error(diag, NULL, "model '%s' has no region named '%s'", m->name, name);
    else if (m->regions.len) return &m->regions.data[0];
    else isk_error(diag, NULL, "model '%s' declares no memory regions", m->name);
    return NULL;
}

int tc_write_executable(const isk_model *m, const isk_obj *exe, const char *path, const char *format,
                        const char *region, isk_diag *diag)
{
    if (!format || strcmp(format, "elf") == 0) return isk_elf_write_file(exe, path, diag);
    if (strcmp(format, "ihex") == 0) {
        char *text;
        size_t len;
        if (isk_ihex_format_obj(exe, &text, &len, diag) != 0) return -1;
        int rc = isk_file_write_all(path, text, len, diag);
        free(text);
        return rc;
    }
    bool mem = strcmp(format, "mem") == 0;
    if (!mem && strcmp(format, "binary") != 0) {
        isk_error(diag, NULL, "unknown output format '%s' (elf, binary, ihex or mem)", format);
        return -1;
    }
    const isk_region_decl *r = pick_region(m, region, diag);
    if (!r) return -1;
    /* The image runs from the region's base to the end of the last contents inside it. */
    uint64_t end = r->base;
    for (size_t i = 1; i < exe->secs.len; i++) {
        const isk_section *s = &exe->secs.data[i];
        if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS || !s->size) continue;
        if (s->addr >= r->base && s->addr - r->base < r->size && s->addr + s->size > end) end = s->addr + s->size;
    }
    uint8_t *bytes = NULL;
    size_t len = 0;
    if (end > r->base && isk_image_extract(exe, r->base, end - r->base, 0, &bytes, &len, diag) != 0) return -1;
    int rc;
    if (mem) {
        int unit = r->code ? isk_asm_insn_bytes(m) : 1;
        isk_mem_opts o = { .word_bytes = (unsigned)unit, .word_bits = r->code ? (unsigned)m->word_bits : 8,
                           .big_endian = m->has_elf && m->elf.big_endian, .address_line = 1 };
        char *text;
        size_t tlen;
        rc = isk_mem_format(bytes, len, &o, &text, &tlen, diag);
        if (rc == 0) {
            rc = isk_file_write_all(path, text, tlen, diag);
            free(text);
        }
    } else {
        rc = isk_file_write_all(path, bytes, len, diag);
    }
    free(bytes);
    return rc;
}

/* ---- build ------------------------------------------------------------------------------ */

static char *find_library(const tc_args *a, const char *name)
{
    for (size_t i = 0; i < a->lib_dirs.len; i++) {
        char *p = isk_xasprintf("%s/lib%s.a", a->lib_dirs.data[i], name);
        if (access(p, R_OK) == 0) return p;
        free(p);
    }
    char *p = isk_xasprintf("lib%s.a", name);
    if (access(p, R_OK) == 0) return p;
    free(p);
    return NULL;
}

int tc_build(const tc_args *a, isk_model *m, isk_diag *diag)
{
    isk_model_link *ml = isk_model_link_new(m, diag);
    if (!ml) return EXIT_FAILED;
    VEC(isk_obj *) objs = { 0 };
    VEC(isk_archive *) ars = { 0 };
    isk_asm_options opt = { .include_dirs = a->include_dirs.data, .ninclude_dirs = a->include_dirs.len,
                            .defines = a->defines.data, .ndefines = a->defines.len, .no_lines = !a->lines };
    int rc = EXIT_FAILED;
    /* --defsym and --region-start, NAME=NUMBER both (tc_parse has checked their form) */
    for (size_t i = 0; i < a->defsyms.len + a->region_starts.len; i++) {
        const bool defsym = i < a->defsyms.len;
        char *name = NULL, why[200];
        int64_t v = 0;
        parse_defsym(defsym ? a->defsyms.data[i] : a->region_starts.data[i - a->defsyms.len], &name, &v, why, sizeof why);
        bool ok = name != NULL;
        if (ok && defsym) isk_model_link_defsym(ml, name, v);
        else if (ok) ok = isk_model_link_region_start(ml, name, (uint64_t)v, diag);
        free(name);
        if (!ok) goto out;
    }
    for (size_t i = 0; i < a->inputs.len; i++) {
        const char *in = a->inputs.data[i];
        if (tc_is_source(in)) {
            char *name = isk_xasprintf("%s.o", in);
            isk_obj *o = isk_assemble_files(m, &in, 1, name, &opt, diag);
            free(name);
            if (o) {
                isk_obj_set_filename(o, in);
                VEC_PUSH(&objs, o);
            }
            continue;
        }
        uint8_t *data;
        size_t size;
        if (isk_file_read_all(in, &data, &size, diag) != 0) continue;
        if (isk_is_archive(data, size)) {
            isk_archive *ar = isk_archive_read_mem(data, size, in, diag);
            if (ar) VEC_PUSH(&ars, ar);
        } else {
            isk_obj *o = isk_elf_read_mem(data, size, in, diag);
            if (o) VEC_PUSH(&objs, o);
        }
        free(data);
    }
    for (size_t i = 0; i < a->libs.len; i++) {
        char *path = find_library(a, a->libs.data[i]);
        if (!path) {
            isk_error(diag, NULL, "cannot find -l%s (lib%s.a in the -L directories)", a->libs.data[i], a->libs.data[i]);
            continue;
        }
        isk_archive *ar = isk_archive_read_file(path, diag);
        if (ar) VEC_PUSH(&ars, ar);
        free(path);
    }
    if (diag->errors) goto out;
    if (!objs.len) {
        isk_error(diag, NULL, "no input objects to link");
        goto out;
    }
    const char *output = a->output ? a->output : "a.out";
    isk_obj *exe = a->link ? a->link(a->link_user, ml, objs.data, objs.len, ars.data, ars.len, output, diag)
                           : isk_model_link_objects(ml, objs.data, objs.len, ars.data, ars.len, output, diag);
    if (exe) {
        if (tc_write_executable(m, exe, output, a->format, a->region, diag) == 0) rc = EXIT_OK;
        isk_obj_free(exe);
    }
out:
    for (size_t i = 0; i < objs.len; i++) isk_obj_free(objs.data[i]);
    for (size_t i = 0; i < ars.len; i++) isk_archive_free(ars.data[i]);
    VEC_FREE(&objs);
    VEC_FREE(&ars);
    isk_model_link_free(ml);
    return rc;
}
