#include "cli/options.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *cli_command_name(const char *cmd, bool debugging, char *buf, size_t cap)
{
    static const char run[] = "isekit run";
    if (!debugging || strncmp(cmd, run, sizeof run - 1) != 0 || (cmd[sizeof run - 1] && cmd[sizeof run - 1] != ' '))
        return cmd;
    snprintf(buf, cap, "isekit debug%s", cmd + sizeof run - 1);
    return buf;
}

bool cli_debugging(const cli_args *a)
{
    for (int i = 1; i < a->argc; i++)
        if (strcmp(a->argv[i], "--debug") == 0) return true;
    return false;
}

void cli_usage_error(cli_args *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char name[96];
    fprintf(stderr, "%s: ", cli_command_name(a->cmd, cli_debugging(a), name, sizeof name));
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    a->bad = true;
}

bool cli_flag(cli_args *a, const char *name) { return strcmp(a->argv[a->i], name) == 0; }

bool cli_value(cli_args *a, const char *name, const char **value)
{
    const char *s = a->argv[a->i];
    size_t n = strlen(name);
    if (strncmp(s, name, n) != 0 || (s[n] && s[n] != '=')) return false;
    if (s[n] == '=') {
        *value = s + n + 1;
    } else if (a->i + 1 < a->argc) {
        *value = a->argv[++a->i];
    } else {
        *value = NULL;
        cli_usage_error(a, "option '%s' needs a value", name);
    }
    return true;
}

bool cli_parse_u64(cli_args *a, const char *what, const char *text, uint64_t min, uint64_t max, isk_unit unit,
                   uint64_t *out)
{
    char why[200];
    if (isk_parse_u64(text, min, max, unit, out, why, sizeof why)) return true;
    cli_usage_error(a, "%s: %s", what, why);
    return false;
}

bool cli_u64(cli_args *a, const char *name, uint64_t min, uint64_t max, isk_unit unit, uint64_t *out)
{
    const char *v;
    if (!cli_value(a, name, &v)) return false;
    if (v) cli_parse_u64(a, name, v, min, max, unit, out);
    return true;
}

bool cli_int(cli_args *a, const char *name, int min, int max, int *out)
{
    uint64_t v = 0;
    if (!cli_u64(a, name, (uint64_t)min, (uint64_t)max, ISK_UNIT_NONE, &v)) return false;
    if (!a->bad) *out = (int)v;
    return true;
}

bool cli_max_errors(cli_args *a, int *max_errors)
{
    return cli_int(a, "--max-errors", 0, 1000000, max_errors);
}

void cli_diag_init(isk_diag *diag, int max_errors)
{
    isk_diag_init(diag);
    if (max_errors >= 0) isk_diag_set_max_errors(diag, max_errors);
}
