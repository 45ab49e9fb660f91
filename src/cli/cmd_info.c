/* isekit info MODEL: what a model declares, in datasheet order. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/ports.h"
#include "cli/options.h"
#include "isekit/desc.h"

static const char *const kind_names[] = { "memory", "registers", "register", "code memory" };

static void print_type(const isk_storage_info *s)
{
    static const char *const floats[] = { "", "16", "32", "64", "16x2" };
    if (s->display) printf("FLOAT(%s)", floats[s->display]);
    else if (s->frac) printf("%s(%d, %d)", s->sign ? "FIXED" : "UFIXED", s->width - s->frac, s->frac);
    else printf("%s(%d)", s->sign ? "INT" : "UINT", s->width);
}

static void print_storage(const isk_model *m)
{
    printf("\nstorage:\n");
    for (int i = 0; i < isk_model_storage_count(m); i++) {
        const isk_storage_info *s = isk_model_storage(m, i);
        printf("  %-8s \"%s\"  %s%s, ", s->name, s->title, s->shared ? "shared " : "", kind_names[s->kind]);
        if (s->kind != ISK_REGISTER) printf("%llu x ", (unsigned long long)s->count);
        print_type(s);
        printf(", latency %d", s->latency);
        if (s->element_names) {
            printf(":");
            for (uint64_t e = 0; e < s->count; e++)
                if (s->element_names[e]) printf(" %s", s->element_names[e]);
        }
        printf("\n");
    }
}

/* One line per parameter (name, type, default, what it accepts), its help below it. */
static void print_params(const isk_model *m)
{
    int n = isk_model_parameter_count(m), w = 4, dw = 4;
    if (!n) return;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(isk_model_parameter(m, i)->name), dlen = (int)strlen(isk_model_parameter(m, i)->def);
        if (len > w) w = len;
        if (dlen > dw) dw = dlen;
    }
    printf("\nparameters (--param NAME=VALUE):\n");
    for (int i = 0; i < n; i++) {
        const isk_param_info *p = isk_model_parameter(m, i);
        printf("  %-*s  %-11s  default %-*s  %s\n", w, p->name, p->type, dw, p->def, p->accepts);
        if (*p->help) printf("  %-*s  %s\n", w, "", p->help);
    }
}

static void print_kinds(const isk_model *m)
{
    if (!m->kinds.len) return;
    printf("\noperand kinds:\n");
    for (size_t i = 0; i < m->kinds.len; i++) {
        const isk_kind *k = &m->kinds.data[i];
        printf("  %-10s ", k->d.name);
        switch (k->d.type) {
        case ISK_KIND_NAMES: {
            size_t n = k->names.len;
            printf("names:");
            for (size_t j = 0; j < n && j < 12; j++) printf(" %s=%" PRId64, k->names.data[j].name, k->names.data[j].value);
            if (n > 12) printf(" ... (%zu in all)", n);
            break;
        }
        case ISK_KIND_PCREL: printf("PC-relative target"); break;
        case ISK_KIND_ABS: printf("address"); break;
        default: printf("integer"); break;
        }
        if (k->d.min < k->d.max) printf(" in [%" PRId64 ", %" PRId64 "]", k->d.min, k->d.max);
        if (k->d.scale) printf(", multiple of %d", 1 << k->d.scale);
        printf("\n");
    }
}

/* Processors of several instruction sets: how many instructions each has. */
static void print_isets(const isk_model *m)
{
    if (m->isets < 2) return;
    printf("\ninstruction sets (%d):\n", m->isets);
    for (int s = 0; s < m->isets; s++) {
        int n = 0;
        for (int i = 0; i < isk_model_instruction_count(m); i++) n += isk_model_instruction(m, i)->iset == s;
        printf("  set %d: %d instruction%s\n", s, n, n == 1 ? "" : "s");
    }
}

static void print_instructions(const isk_model *m)
{
    int n = isk_model_instruction_count(m);
    int width = 6;
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(isk_model_instruction(m, i)->format);
        if (len > width) width = len;
    }
    printf("\ninstructions (%d):\n  %-*s  %-22s %s\n", n, width, "format", "behaviour", "syntax");
    for (int i = 0; i < n; i++) {
        const isk_instruction_info *p = isk_model_instruction(m, i);
        printf("  %-*s  %-22s %s", width, p->format, p->behaviour, p->syntax ? p->syntax : "-");
        if (p->fields) printf("   [fields %s]", p->fields);
        if (p->priority) printf("   [priority %d]", p->priority);
        if (p->alias) printf("   [alias]");
        if (m->isets > 1) printf("   [set %d]", p->iset);
        if (p->solo) printf("   [solo%s]", p->solo == ISK_SOLO_BIT_SET ? ", group bit 1" : "");
        if (p->flow) printf("   [%s]", p->flow == ISK_FLOW_CALL ? "call" : "return");
        printf("\n");
    }
    print_isets(m);
    isk_coverage c;
    isk_model_coverage(m, &c);
    printf("\ndecoder: %.4g%% of the %d-bit word space is undecodable%s", c.undecodable_fraction * 100,
           isk_model_word_bits(m), m->isets > 1 ? " in instruction set 0" : "");
    if (c.nregions) {
        printf("; largest undecodable regions:\n");
        for (int i = 0; i < c.nregions && i < 4; i++) printf("  %s\n", c.regions[i]);
    } else {
        printf("\n");
    }
}

static void usage(FILE *out)
{
    fprintf(out, "usage: isekit info [MODEL] [--max-errors N]\n\n"
                 "Print a model's storage (with the debugger's display names), resources, operand kinds,\n"
                 "instruction formats with their behaviours and assembly syntax (and instruction set,\n"
                 "with each set's count, for a processor of several), and the decoder's report of the\n"
                 "undecodable code space. MODEL is a built-in name or a model .c file.\n"
                 "Without MODEL: the built-in models, runners, subcommands and port devices this isekit holds.\n\n"
                 "options:\n" CLI_MAX_ERRORS_HELP "  -h, --help          this text\n\n"
                 "Exit status: 0 on success, 1 on errors in the model, 2 on bad usage.\n");
}

/* isekit info alone: what the model folders compiled into this isekit registered. */
static int print_builtins(isk_diag *diag)
{
    printf("built-in models (isekit info MODEL):\n");
    for (int i = 0; isk_builtin_model_name(i); i++) {
        isk_model *m = isk_model_load(isk_builtin_model_name(i), diag);
        printf("  %-12s %s\n", isk_builtin_model_name(i), m ? isk_model_title(m) : "(does not load)");
        isk_model_release(m);
    }
    if (cli_runner_at(0)) printf("runners (isekit run NAME --help):\n");
    for (int i = 0; cli_runner_at(i); i++) printf("  %-12s %s\n", cli_runner_at(i)->name, cli_runner_at(i)->summary);
    if (cli_command_at(0)) printf("subcommands (isekit NAME --help):\n");
    for (int i = 0; cli_command_at(i); i++) printf("  %-12s %s\n", cli_command_at(i)->name, cli_command_at(i)->summary);
    if (sys_port_device_at(0)) printf("port devices (ports = NAME ARGS in a system description, docs/systems.md):\n");
    for (int i = 0; sys_port_device_at(i); i++) {
        const sys_port_device *d = sys_port_device_at(i);
        printf("  %-12s %s (ports = %s %s)\n", d->name, d->summary, d->name, d->args);
    }
    return diag->errors ? EXIT_FAILED : EXIT_OK;
}

int cmd_info(int argc, char **argv)
{
    if (wants_help(argc, argv)) {
        usage(stdout);
        return EXIT_OK;
    }
    const char *model = NULL;
    int max_errors = -1;
    cli_args a = { "isekit info", argc, argv, 1, false };
    for (; a.i < argc && !a.bad; a.i++) {
        const char *s = argv[a.i];
        if (cli_max_errors(&a, &max_errors)) continue;
        if (s[0] == '-' && s[1]) cli_usage_error(&a, "unknown option '%s'", s);
        else if (!model) model = s;
        else cli_usage_error(&a, "unexpected argument '%s'", s);
    }
    if (a.bad) {
        usage(stderr);
        return EXIT_USAGE;
    }
    isk_diag diag;
    cli_diag_init(&diag, max_errors);
    if (!model) return print_builtins(&diag);
    isk_model *m = isk_model_load(model, &diag);
    if (!m) return EXIT_FAILED;
    printf("model %s: %s\n", isk_model_name(m), isk_model_title(m));
    printf("source: %s\n", m->source);
    if (isk_model_word_bits(m)) printf("instruction word: %d bits\n", isk_model_word_bits(m));
    if (isk_model_slots(m)) printf("accelerator: %d slots\n", isk_model_slots(m));
    if (m->is_processor)
        printf("processor: %d context(s), code in %s\n", m->proc.contexts, m->proc.code);
    if (m->proc.group_bit > 0) {
        printf("issue groups: a word with bit %d set opens a group of %d words", m->proc.group_bit,
               m->proc.group_words);
        if (m->proc.group_align == 1)
            printf(", at any word");
        else if (m->proc.group_align != m->proc.group_words)
            printf(", at a multiple of %d words", m->proc.group_align);
        printf("\n");
    }
    print_params(m);
    print_storage(m);
    if (isk_model_resource_count(m)) {
        printf("\nresources:\n");
        for (int i = 0; i < isk_model_resource_count(m); i++)
            printf("  0x%llx %s\n", (unsigned long long)isk_model_resource(m, i)->mask, isk_model_resource(m, i)->name);
    }
    print_kinds(m);
    print_instructions(m);
    isk_model_release(m);
    return EXIT_OK;
}
