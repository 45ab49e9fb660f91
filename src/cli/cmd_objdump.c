/* isekit objdump / isekit dis: list the code of ELF files, binaries, HEX images and word lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/disasm.h"
#include "base/file.h"
#include "elf/archive.h"
#include "cli/cli.h"
#include "cli/options.h"
#include "cli/toolchain.h"

typedef struct dump_opts {
    isk_disasm_options d;
    bool disassemble, symbols, headers;
    const char *input_format;
    uint64_t base;
} dump_opts;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: isekit objdump [-m MODEL] [options] FILE...\n"
            "       isekit dis ...                    (the same)\n\n"
            "List the instructions of FILE in the model's syntax: address, instruction word, text, with\n"
            "symbols as labels and code targets named. FILE is an ELF object or executable, a .a archive\n"
            "(each member in turn, after \"In archive FILE:\"),\n"
            "an Intel-HEX image, a word list (one hex word per line, @address lines as in .mem and\n"
            ".hex files) or a raw binary; the kind is recognised from the contents. For ELF files the\n"
            "model may be left out when a built-in model has the file's e_machine.\n\n"
            "options:\n"
            "  -m MODEL         a built-in model or the path of a model's .c file\n"
            "  -d               disassemble code sections (the default)\n"
            "  -D               disassemble every allocated section\n"
            "  -r               show relocations under the instructions they patch\n"
            "  -l, --line-numbers  show FILE:LINE where the source line changes (from .debug_line:\n"
            "                   isekit as -g, build -g)\n"
            "  -t               print the symbol table\n"
            "  -h, --headers    print the section headers (-h alone is --help)\n"
            "  --plain          only the instruction texts, one per line (assembles back)\n"
            "  --no-raw         leave out the instruction words\n"
            "  -b FORMAT        read FILE as elf, ihex, words or binary\n"
            "  --base ADDR      the address of a binary's first byte (default 0)\n"
            "  --max-errors N   at most N errors per file and in all (default 20/50; 0 = no cap)\n"
            "  --help           this text\n\n"
            "Exit status: 0 on success, 1 on unreadable or malformed inputs, 2 on bad usage.\n");
}

static int extra(void *user, int argc, char **argv, int i)
{
    dump_opts *o = user;
    const char *s = argv[i];
    if (strcmp(s, "-d") == 0) return o->disassemble = true, 1;
    if (strcmp(s, "-D") == 0) return o->disassemble = o->d.all_sections = true, 1;
    if (strcmp(s, "-r") == 0) return o->d.relocs = o->disassemble = true, 1;
    if (strcmp(s, "-t") == 0) return o->symbols = true, 1;
    if (strcmp(s, "-l") == 0 || strcmp(s, "--line-numbers") == 0) return o->d.lines = true, 1;
    if (strcmp(s, "--headers") == 0 || strcmp(s, "-h") == 0) return o->headers = true, 1;
    if (strcmp(s, "--plain") == 0) return o->d.plain = true, 1;
    if (strcmp(s, "--no-raw") == 0) return o->d.no_raw = true, 1;
    if (strcmp(s, "-dr") == 0 || strcmp(s, "-rd") == 0) return o->disassemble = o->d.relocs = true, 1;
    if ((strcmp(s, "-b") == 0 || strcmp(s, "--base") == 0) && i + 1 >= argc) {
        fprintf(stderr, "isekit objdump: option '%s' needs a value\n", s);
        return -1;
    }
    if (strcmp(s, "-b") == 0) return o->input_format = argv[i + 1], 2;
    if (strcmp(s, "--base") == 0) {
        char why[200];
        if (isk_parse_u64(argv[i + 1], 0, UINT64_MAX, ISK_UNIT_NONE, &o->base, why, sizeof why)) return 2;
        fprintf(stderr, "isekit objdump: --base: %s\n", why);
        return -1;
    }
    return 0;
}

/* A built-in model whose ELF_FORMAT has this e_machine. */
static isk_model *model_for_machine(uint16_t machine, isk_diag *diag)
{
    for (int i = 0; isk_builtin_model_name(i); i++) {
        isk_model *m = isk_model_load(isk_builtin_model_name(i), diag);
        if (m && m->has_elf && m->elf.machine == machine && machine) return m;
        isk_model_release(m);
    }
    return NULL;
}

/* List one object (freed here) under the heading "path:  file format"; without -m the model
 * is the built-in one with the object's e_machine. */
static int dump_one(const char *tool, const dump_opts *o, isk_model *given, isk_obj *obj, const char *path)
{
    isk_diag quiet;
    isk_diag_init(&quiet);
    isk_model *m = given ? given : model_for_machine(obj->machine, &quiet);
    if (!m) {
        fprintf(stderr, "isekit %s: %s: no built-in model has e_machine %u; give -m MODEL\n", tool, path, obj->machine);
        isk_obj_free(obj);
        return EXIT_FAILED;
    }
    if (!o->d.plain)
        printf("\n%s:     file format elf%d-%s\n", path, obj->elfclass == ELFCLASS64 ? 64 : 32, isk_model_name(m));
    if (o->headers) {
        printf("\n");
        isk_disasm_sections(obj, stdout);
    }
    if (o->symbols) {
        printf("\n");
        isk_disasm_symbols(obj, stdout);
    }
    if (o->disassemble) isk_disasm_obj(m, obj, stdout, &o->d);
    isk_obj_free(obj);
    if (m != given) isk_model_release(m);
    return EXIT_OK;
}

static bool wants_plain_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0) return true;
    return argc == 2 && strcmp(argv[1], "-h") == 0;
}

int cmd_objdump(int argc, char **argv)
{
    if (wants_plain_help(argc, argv)) {
        usage(stdout);
        return EXIT_OK;
    }
    dump_opts o = { 0 };
    tc_args a = { .tool = argv[0] };
    if (!tc_parse(argc, argv, &a, extra, &o)) {
        tc_free(&a);
        return EXIT_USAGE;
    }
    if (!a.inputs.len) {
        fprintf(stderr, "isekit %s: no input files\n\n", argv[0]);
        usage(stderr);
        tc_free(&a);
        return EXIT_USAGE;
    }
    if (!o.symbols && !o.headers) o.disassemble = true;
    isk_diag diag;
    cli_diag_init(&diag, a.max_errors);
    isk_model *given = a.model ? isk_model_load(a.model, &diag) : NULL;
    int rc = EXIT_OK;
    if (a.model && !given) rc = EXIT_FAILED;
    for (size_t i = 0; i < a.inputs.len && rc == EXIT_OK; i++) {
        const char *path = a.inputs.data[i];
        uint8_t *data = NULL;
        size_t size = 0;
        isk_archive *ar = NULL;
        /* An archive is every member in turn, as binutils lists it; anything else is one file. */
        if (isk_file_read_all(path, &data, &size, &diag) != 0) {
            rc = EXIT_FAILED;
            break;
        }
        if ((!o.input_format || strcmp(o.input_format, "elf") == 0) && isk_is_archive(data, size)) {
            if (!(ar = isk_archive_read_mem(data, size, path, &diag))) rc = EXIT_FAILED;
            else if (!o.d.plain) printf("In archive %s:\n", path);
            for (size_t k = 0; ar && k < ar->members.len; k++) {
                isk_obj *obj = isk_archive_member_obj(ar, k, &diag);
                if (!obj || dump_one(argv[0], &o, given, obj, ar->members.data[k].name) != EXIT_OK) rc = EXIT_FAILED;
            }
            isk_archive_free(ar);
            free(data);
            continue;
        }
        free(data);
        isk_obj *obj = given ? isk_disasm_read_file(given, path, o.input_format, o.base, &diag)
                     /* without -m only ELF files can say which model they are for */
                     : o.input_format && strcmp(o.input_format, "elf") != 0 ? NULL
                     : isk_disasm_read_file(NULL, path, "elf", 0, &diag);
        if (!obj && !given && !diag.errors)
            fprintf(stderr, "isekit %s: %s: give -m MODEL for inputs that are not ELF files\n", argv[0], path);
        if (!obj || dump_one(argv[0], &o, given, obj, path) != EXIT_OK) rc = EXIT_FAILED;
    }
    isk_model_release(given);
    tc_free(&a);
    return rc;
}
