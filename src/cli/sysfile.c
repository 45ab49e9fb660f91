/* System descriptions (sysfile.h, docs/systems.md): the parser and the builder. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/file.h"
#include "base/num.h"
#include "base/str.h"
#include "cli/program.h"
#include "cli/sysfile.h"
#include "isekit/desc.h"

/* The keys of each section: whether they take an argument (`param NAME = VALUE`) and whether
 * they may come more than once (with different arguments, or for `ports` never). */
typedef struct key_info { const char *name; bool arg, instance; } key_info;
static const key_info keys[] = {
    { "max_clocks", false, false }, { "port_log", false, false },
    { "model", false, true }, { "program", false, true }, { "accelerator", false, true }, { "ports", false, true },
    { "param", true, true }, { "share", true, true }, { "out", true, true }, { "in", true, true },
    { "interrupt", true, true }, { "map", true, true },
};

static const key_info *find_key(const char *name, bool instance)
{
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (keys[i].instance == instance && strcmp(keys[i].name, name) == 0) return &keys[i];
    return NULL;
}

static const char *key_list(bool instance)
{
    return instance ? "model, program, accelerator, ports, param, share, out, in, interrupt, map" : "max_clocks, port_log";
}

static __attribute__((format(printf, 5, 6))) void err(const sysfile *f, isk_diag *d, int line, int col,
                                                      const char *fmt, ...)
{
    isk_loc loc = { f->path, line, col, line > 0 ? f->lines.data[line - 1] : NULL, -1 };
    va_list ap;
    va_start(ap, fmt);
    isk_diag_vreport(d, ISK_ERROR, &loc, fmt, ap);
    va_end(ap);
}

static bool is_name_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* A name of an instance: letters, digits and '_', not starting with a digit. */
static bool valid_name(const char *s, size_t n)
{
    if (!n || isdigit((unsigned char)s[0])) return false;
    for (size_t i = 0; i < n; i++)
        if (!is_name_char(s[i])) return false;
    return true;
}

static const char *skip_space(const char *s, const char *end)
{
    while (s < end && (*s == ' ' || *s == '\t')) s++;
    return s;
}

static const char *skip_token(const char *s, const char *end)
{
    while (s < end && *s != ' ' && *s != '\t') s++;
    return s;
}

static void free_section(sf_section *s)
{
    for (size_t i = 0; i < s->entries.len; i++) {
        free(s->entries.data[i].key);
        free(s->entries.data[i].arg);
        free(s->entries.data[i].value);
    }
    VEC_FREE(&s->entries);
    free(s->name);
}

void sysfile_free(sysfile *f)
{
    if (!f) return;
    free_section(&f->system);
    for (size_t i = 0; i < f->instances.len; i++) free_section(&f->instances.data[i]);
    VEC_FREE(&f->instances);
    VEC_FREE(&f->lines);
    free(f->path);
    free(f->dir);
    free(f->text);
    free(f);
}

static sf_section *find_instance_section(const sysfile *f, const char *name)
{
    for (size_t i = 0; i < f->instances.len; i++)
        if (strcmp(f->instances.data[i].name, name) == 0) return &f->instances.data[i];
    return NULL;
}

/* "[system]" or "[instance NAME]": the section lines go to, NULL after an error. */
static sf_section *parse_header(sysfile *f, int line, const char *s, const char *end, bool *have_system,
                                isk_diag *d)
{
    const char *open = s;
    if (end[-1] != ']') {
        err(f, d, line, (int)(end - f->lines.data[line - 1]), "a section header ends with ']'");
        return NULL;
    }
    s = skip_space(s + 1, end - 1);
    const char *word = s, *word_end = skip_token(s, end - 1);
    const char *name = skip_space(word_end, end - 1), *name_end = skip_token(name, end - 1);
    const char *rest = skip_space(name_end, end - 1);
    int col = (int)(word - f->lines.data[line - 1]) + 1;
    size_t wn = (size_t)(word_end - word), nn = (size_t)(name_end - name);
    if (wn == 6 && memcmp(word, "system", 6) == 0 && !nn) {
        if (*have_system) {
            err(f, d, line, col, "a second [system] section (first at line %d)", f->system.line);
            return NULL;
        }
        *have_system = true;
        f->system.line = line;
        f->system.col = (int)(open - f->lines.data[line - 1]) + 1;
        return &f->system;
    }
    if (!(wn == 8 && memcmp(word, "instance", 8) == 0) || !nn || rest != end - 1) {
        err(f, d, line, col, "expected [system] or [instance NAME]");
        return NULL;
    }
    col = (int)(name - f->lines.data[line - 1]) + 1;
    if (!valid_name(name, nn)) {
        err(f, d, line, col, "'%.*s' is not an instance name (letters, digits and '_', not starting with a digit)",
            (int)nn, name);
        return NULL;
    }
    char *n = isk_xstrndup(name, nn);
    const sf_section *first = find_instance_section(f, n);
    if (first) {
        err(f, d, line, col, "a second instance '%s' (first at line %d)", n, first->line);
        free(n);
        return NULL;
    }
    VEC_PUSH(&f->instances, (sf_section){ .name = n, .line = line, .col = col });
    return &VEC_LAST(&f->instances);
}

static const sf_entry *find_entry(const sf_section *s, const char *key, const char *arg)
{
    for (size_t i = 0; i < s->entries.len; i++) {
        const sf_entry *e = &s->entries.data[i];
        if (strcmp(e->key, key) == 0 && (!arg || (e->arg && strcmp(e->arg, arg) == 0))) return e;
    }
    return NULL;
}

/* "key [ARG] = value" into the section; false after an error. */
static bool parse_entry(sysfile *f, sf_section *sec, int line, const char *s, const char *end, isk_diag *d)
{
    const char *base = f->lines.data[line - 1];
    const char *key = s, *key_end = s;
    while (key_end < end && is_name_char(*key_end)) key_end++;
    if (key_end == key) {
        err(f, d, line, (int)(s - base) + 1, "expected KEY = VALUE, or a section header");
        return false;
    }
    const char *arg = skip_space(key_end, end), *arg_end = arg;
    while (arg_end < end && *arg_end != '=' && *arg_end != ' ' && *arg_end != '\t') arg_end++;
    const char *eq = skip_space(arg_end, end);
    char *k = isk_xstrndup(key, (size_t)(key_end - key));
    if (eq >= end || *eq != '=') {
        err(f, d, line, (int)(eq - base) + 1, "expected '=' after '%s'", k);
        free(k);
        return false;
    }
    const char *value = skip_space(eq + 1, end);
    const key_info *ki = sec ? find_key(k, sec->name != NULL) : NULL;
    if (!sec) {
        err(f, d, line, (int)(key - base) + 1, "'%s' outside a section: start with [system] or [instance NAME]", k);
    } else if (!ki) {
        err(f, d, line, (int)(key - base) + 1, "unknown key '%s' in %s (keys: %s)", k,
            sec->name ? "an [instance]" : "[system]", key_list(sec->name != NULL));
    } else if (ki->arg && arg == arg_end) {
        err(f, d, line, (int)(arg - base) + 1, "'%s' needs an argument: %s ARG = VALUE", k, k);
    } else if (!ki->arg && arg != arg_end) {
        err(f, d, line, (int)(arg - base) + 1, "'%s' takes no argument: %s = VALUE", k, k);
    } else if (value >= end) {
        err(f, d, line, (int)(value - base) + 1, "'%s' needs a value", k);
    } else {
        char *a = arg != arg_end ? isk_xstrndup(arg, (size_t)(arg_end - arg)) : NULL;
        const sf_entry *first = find_entry(sec, k, a);
        if (first) {
            err(f, d, line, (int)(key - base) + 1, "a second '%s%s%s' (first at line %d)", k, a ? " " : "",
                a ? a : "", first->line);
            free(a);
        } else {
            VEC_PUSH(&sec->entries, (sf_entry){ .key = k, .arg = a, .value = isk_xstrndup(value, (size_t)(end - value)),
                                                .line = line, .key_col = (int)(key - base) + 1,
                                                .arg_col = (int)(arg - base) + 1, .value_col = (int)(value - base) + 1 });
            return true;
        }
    }
    free(k);
    return false;
}

/* The [system] keys' values. */
static bool read_system_keys(sysfile *f, isk_diag *d)
{
    bool ok = true;
    char why[256];
    for (size_t i = 0; i < f->system.entries.len; i++) {
        const sf_entry *e = &f->system.entries.data[i];
        if (strcmp(e->key, "max_clocks") == 0) {
            if (!isk_parse_u64(e->value, 1, UINT64_MAX, ISK_UNIT_COUNT, &f->max_clocks, why, sizeof why)) {
                err(f, d, e->line, e->value_col, "max_clocks: %s", why);
                ok = false;
            }
        } else if (strcmp(e->value, "yes") == 0 || strcmp(e->value, "no") == 0) {
            f->port_log = strcmp(e->value, "yes") == 0;
        } else {
            err(f, d, e->line, e->value_col, "port_log is yes or no, not '%s'", e->value);
            ok = false;
        }
    }
    return ok;
}

sysfile *sysfile_parse(const char *path, const char *text, isk_diag *d)
{
    sysfile *f = isk_xcalloc(1, sizeof *f);
    f->path = isk_xstrdup(path);
    const char *slash = strrchr(path, '/');
    f->dir = slash ? isk_xstrndup(path, (size_t)(slash - path + 1)) : isk_xstrdup("");
    f->text = isk_xstrdup(text);
    for (const char *s = f->text; *s;) {
        VEC_PUSH(&f->lines, s);
        const char *nl = strchr(s, '\n');
        s = nl ? nl + 1 : s + strlen(s);
    }
    isk_diag_file outer = isk_diag_begin_file(d, f->path);
    int errors = d->errors;
    sf_section *sec = NULL;
    bool have_system = false, header_failed = false;
    for (size_t i = 0; i < f->lines.len && !isk_diag_file_stopped(d); i++) {
        const char *s = f->lines.data[i], *end = s;
        while (*end && *end != '\n' && *end != '#') end++;
        while (end > s && isspace((unsigned char)end[-1])) end--;
        s = skip_space(s, end);
        if (s == end) continue;
        int line = (int)i + 1;
        if (*s == '[') {
            sec = parse_header(f, line, s, end, &have_system, d);
            header_failed = !sec;
        } else if (!header_failed) {
            parse_entry(f, sec, line, s, end, d);   /* lines under a bad header are skipped */
        }
    }
    for (size_t i = 0; i < f->instances.len; i++) {
        const sf_section *s = &f->instances.data[i];
        if (!find_entry(s, "model", NULL))
            err(f, d, s->line, s->col, "instance '%s' has no model (model = NAME, FILE.c or FILE.so)", s->name);
    }
    if (d->errors == errors && !f->instances.len) err(f, d, 0, 0, "no [instance NAME] section: nothing to simulate");
    if (d->errors == errors) read_system_keys(f, d);
    isk_diag_end_file(d, outer);
    if (d->errors != errors) {
        sysfile_free(f);
        return NULL;
    }
    return f;
}

sysfile *sysfile_read(const char *path, isk_diag *d)
{
    char *text;
    size_t size;
    if (isk_file_read_source(path, "a system description", &text, &size, d) != 0) return NULL;
    sysfile *f = sysfile_parse(path, text, d);
    free(text);
    return f;
}

/* ---- building ------------------------------------------------------------------------------- */

typedef struct builder {
    const sysfile *f;
    isk_system *sys;
    port_wiring *wiring;
    const sysfile_build_options *o;
    isk_diag *d;
} builder;

static isk_inst *inst_of(const builder *b, const sf_section *s) { return isk_instance(b->sys, s->name); }

/* A file named in the description, relative to its folder. */
static char *relative(const builder *b, const char *path)
{
    return path[0] == '/' ? isk_xstrdup(path) : isk_xasprintf("%s%s", b->f->dir, path);
}

static bool is_builtin(const char *name)
{
    for (int i = 0; isk_builtin_model_name(i); i++)
        if (strcmp(isk_builtin_model_name(i), name) == 0) return true;
    return false;
}

static bool add_instance(const builder *b, const sf_section *s)
{
    const sf_entry *e = find_entry(s, "model", NULL);
    bool file = isk_ends_with(e->value, ".c") || isk_ends_with(e->value, ".so");
    if (b->o->sandbox && !is_builtin(e->value)) {
        err(b->f, b->d, e->line, e->value_col, "'%s' is not a built-in model (only those here)", e->value);
        return false;
    }
    char *spec = file ? relative(b, e->value) : isk_xstrdup(e->value);
    isk_model *m = isk_model_load(spec, b->d);
    free(spec);
    if (!m) {
        err(b->f, b->d, e->line, e->value_col, "instance '%s': cannot load model '%s'", s->name, e->value);
        return false;
    }
    isk_inst *inst = isk_system_add(b->sys, m, s->name);
    isk_model_release(m);
    return inst != NULL;
}

/* "INSTANCE" of the description, or NULL after an error at that column. */
static isk_inst *named_instance(const builder *b, const char *name, size_t n, int line, int col)
{
    char *s = isk_xstrndup(name, n);
    isk_inst *inst = isk_instance(b->sys, s);
    if (!inst) err(b->f, b->d, line, col, "unknown instance '%s'", s);
    free(s);
    return inst;
}

static bool need_processor(const builder *b, isk_inst *inst, const sf_entry *e, int col)
{
    if (isk_inst_model(inst)->is_processor) return true;
    err(b->f, b->d, e->line, col, "%s: instance '%s' is not a processor (model '%s' declares no PROCESSOR)", e->key,
        isk_inst_name(inst), isk_model_name(isk_inst_model(inst)));
    return false;
}

/* "INSTANCE.STORAGE[INDEX]" as a cell; false after an error. */
static bool cell_of(const builder *b, const sf_entry *e, const char *text, int col, isk_ref *out)
{
    const char *dot = strchr(text, '.');
    if (!dot) {
        err(b->f, b->d, e->line, col, "expected INSTANCE.STORAGE, not '%s'", text);
        return false;
    }
    isk_inst *inst = named_instance(b, text, (size_t)(dot - text), e->line, col);
    char msg[256];
    if (inst && isk_resolve(inst, dot + 1, out, msg, sizeof msg) != ISK_OK) {
        err(b->f, b->d, e->line, col + (int)(dot + 1 - text), "%s", msg);
        return false;
    }
    return inst != NULL;
}

static bool port_number(const builder *b, const sf_entry *e, const char *text, int col, uint64_t *port)
{
    char why[256];
    if (isk_parse_u64(text, 0, UINT64_MAX, ISK_UNIT_NONE, port, why, sizeof why)) return true;
    err(b->f, b->d, e->line, col, "port: %s", why);
    return false;
}

static bool wired_once(const builder *b, proc_ports *p, bool out, uint64_t port, const sf_entry *e)
{
    const port_route *r = port_route_find(p, out, port);
    if (!r) return true;
    err(b->f, b->d, e->line, e->arg_col, "%s port %s of %s is already wired (line %d)", out ? "output" : "input",
        e->arg, isk_inst_name(p->proc), r->line);
    return false;
}

/* What `out PORT` and `in PORT` begin with: a processor, a port number not yet wired that way.
 * Its ports and the route's number and line; NULL after an error. */
static proc_ports *new_route(const builder *b, isk_inst *inst, const sf_entry *e, bool out, port_route *r)
{
    uint64_t port;
    if (!need_processor(b, inst, e, e->key_col) || !port_number(b, e, e->arg, e->arg_col, &port)) return NULL;
    proc_ports *p = port_wiring_of(b->wiring, inst);
    if (!wired_once(b, p, out, port, e)) return NULL;
    *r = (port_route){ .port = port, .line = e->line };
    return p;
}

/* out PORT = stop | stdout | INSTANCE.STORAGE[INDEX] | INSTANCE in PORT */
static bool wire_out(const builder *b, isk_inst *inst, const sf_entry *e)
{
    port_route r;
    proc_ports *p = new_route(b, inst, e, true, &r);
    if (!p) return false;
    const char *v = e->value, *end = v + strlen(v);
    const char *t1 = skip_token(v, end), *in = skip_space(t1, end), *t2 = skip_token(in, end);
    const char *q = skip_space(t2, end);
    if (strcmp(v, "stop") == 0) {
        r.kind = ROUTE_STOP;
    } else if (strcmp(v, "stdout") == 0 && !b->o->sandbox) {
        r.kind = ROUTE_STDOUT;
    } else if (t2 - in == 2 && memcmp(in, "in", 2) == 0 && q < end) {
        isk_inst *to = named_instance(b, v, (size_t)(t1 - v), e->line, e->value_col);
        uint64_t to_port;
        if (!to || !need_processor(b, to, e, e->value_col) ||
            !port_number(b, e, q, e->value_col + (int)(q - v), &to_port))
            return false;
        proc_ports *tp = port_wiring_of(b->wiring, to);
        if (port_route_find(tp, false, to_port)) {
            err(b->f, b->d, e->line, e->value_col + (int)(q - v), "input port %s of %s is already wired (line %d)", q,
                isk_inst_name(to), port_route_find(tp, false, to_port)->line);
            return false;
        }
        VEC_PUSH(&tp->ins, (port_route){ .port = to_port, .kind = ROUTE_VALUE, .line = e->line });
        r.kind = ROUTE_INPUT;
        r.to = tp;
        r.to_route = tp->ins.len - 1;
    } else if (strchr(v, '.') && t1 == end) {
        if (!cell_of(b, e, v, e->value_col, &r.cell)) return false;
        r.kind = ROUTE_CELL;
    } else {
        err(b->f, b->d, e->line, e->value_col, "out goes to stop, stdout, INSTANCE.STORAGE[INDEX] or INSTANCE in "
            "PORT, not '%s'", v);
        return false;
    }
    VEC_PUSH(&p->outs, r);
    return true;
}

/* in PORT = stdin | VALUE | INSTANCE.STORAGE[INDEX] */
static bool wire_in(const builder *b, isk_inst *inst, const sf_entry *e)
{
    port_route r;
    proc_ports *p = new_route(b, inst, e, false, &r);
    if (!p) return false;
    char why[256];
    if (strcmp(e->value, "stdin") == 0 && !b->o->sandbox) {
        r.kind = ROUTE_STDIN;
    } else if (strchr(e->value, '.')) {
        if (!cell_of(b, e, e->value, e->value_col, &r.cell)) return false;
        r.kind = ROUTE_CELL;
    } else if (isdigit((unsigned char)e->value[0])) {
        if (!isk_parse_u64(e->value, 0, UINT64_MAX, ISK_UNIT_NONE, &r.value, why, sizeof why)) {
            err(b->f, b->d, e->line, e->value_col, "in: %s", why);
            return false;
        }
        r.kind = ROUTE_VALUE;
    } else {
        err(b->f, b->d, e->line, e->value_col, "in comes from stdin, a number or INSTANCE.STORAGE[INDEX], not '%s'",
            e->value);
        return false;
    }
    VEC_PUSH(&p->ins, r);
    return true;
}

/* share STORAGE = INSTANCE.STORAGE */
static bool share(const builder *b, isk_inst *inst, const sf_entry *e)
{
    const char *dot = strchr(e->value, '.');
    if (!dot) {
        err(b->f, b->d, e->line, e->value_col, "share STORAGE = INSTANCE.STORAGE, not '%s'", e->value);
        return false;
    }
    isk_inst *owner = named_instance(b, e->value, (size_t)(dot - e->value), e->line, e->value_col);
    char msg[512];
    if (owner && isk_share_storage(inst, e->arg, owner, dot + 1, msg, sizeof msg) != ISK_OK) {
        err(b->f, b->d, e->line, e->arg_col, "%s", msg);
        return false;
    }
    return owner != NULL;
}

/* map ADDR = INSTANCE.STORAGE: that storage in this processor's address space from ADDR on */
static bool map_storage(const builder *b, isk_inst *inst, const sf_entry *e)
{
    uint64_t base;
    char why[512];
    if (!need_processor(b, inst, e, e->key_col)) return false;
    if (!isk_parse_u64(e->arg, 0, UINT64_MAX, ISK_UNIT_NONE, &base, why, sizeof why)) {
        err(b->f, b->d, e->line, e->arg_col, "map address: %s", why);
        return false;
    }
    const char *dot = strchr(e->value, '.');
    if (!dot) {
        err(b->f, b->d, e->line, e->value_col, "map ADDR = INSTANCE.STORAGE, not '%s'", e->value);
        return false;
    }
    isk_inst *target = named_instance(b, e->value, (size_t)(dot - e->value), e->line, e->value_col);
    if (target && isk_map_storage(inst, base, target, dot + 1, why, sizeof why) != ISK_OK) {
        err(b->f, b->d, e->line, e->value_col, "%s", why);
        return false;
    }
    return target != NULL;
}

/* ports = DEVICE INSTANCE... */
static bool open_device(const builder *b, isk_inst *inst, const sf_entry *e)
{
    if (!need_processor(b, inst, e, e->key_col)) return false;
    const char *v = e->value, *end = v + strlen(v), *t = skip_token(v, end);
    char *name = isk_xstrndup(v, (size_t)(t - v));
    const sys_port_device *dev = sys_port_device_find(name);
    free(name);
    if (!dev) {
        char list[256] = "";
        for (int i = 0; sys_port_device_at(i); i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", sys_port_device_at(i)->name);
        err(b->f, b->d, e->line, e->value_col, "unknown port device '%.*s' (devices: %s)", (int)(t - v), v,
            *list ? list : "none");
        return false;
    }
    isk_inst *args[8];
    int n = 0;
    for (const char *a = skip_space(t, end); a < end; a = skip_space(t, end)) {
        t = skip_token(a, end);
        if (n == 8) {
            err(b->f, b->d, e->line, e->value_col + (int)(a - v), "at most 8 instances follow a device");
            return false;
        }
        if (!(args[n++] = named_instance(b, a, (size_t)(t - a), e->line, e->value_col + (int)(a - v)))) return false;
    }
    char why[512] = "";
    void *user = dev->open(b->sys, inst, args, n, why, sizeof why);
    if (!user) {
        err(b->f, b->d, e->line, e->value_col, "%s %s: %s", dev->name, dev->args, why);
        return false;
    }
    proc_ports *p = port_wiring_of(b->wiring, inst);
    p->device = dev;
    p->device_user = user;
    return true;
}

/* interrupt LINE = PROCESSOR [INPUT]: the line this instance raises goes to that processor's
 * input (the same number unless given). */
static bool route_line(const builder *b, isk_inst *inst, const sf_entry *e)
{
    uint64_t line, to_line;
    char why[256];
    if (!isk_parse_u64(e->arg, 0, 31, ISK_UNIT_NONE, &line, why, sizeof why)) {
        err(b->f, b->d, e->line, e->arg_col, "interrupt line: %s", why);
        return false;
    }
    const char *v = e->value, *end = v + strlen(v), *t = skip_token(v, end), *n = skip_space(t, end);
    isk_inst *to = named_instance(b, v, (size_t)(t - v), e->line, e->value_col);
    if (!to || !need_processor(b, to, e, e->value_col)) return false;
    to_line = line;
    if (n < end && !isk_parse_u64(n, 0, 31, ISK_UNIT_NONE, &to_line, why, sizeof why)) {
        err(b->f, b->d, e->line, e->value_col + (int)(n - v), "interrupt input: %s", why);
        return false;
    }
    if (isk_route_interrupt(inst, (int)line, to, (int)to_line) != ISK_OK) {
        err(b->f, b->d, e->line, e->key_col, "cannot route line %s of %s", e->arg, isk_inst_name(inst));
        return false;
    }
    return true;
}

static bool attach(const builder *b, isk_inst *inst, const sf_entry *e)
{
    uint64_t number;
    char why[256];
    if (!isk_parse_u64(e->value, 0, 4095, ISK_UNIT_NONE, &number, why, sizeof why)) {
        err(b->f, b->d, e->line, e->value_col, "accelerator: %s", why);
        return false;
    }
    if (!isk_model_slots(isk_inst_model(inst))) {
        err(b->f, b->d, e->line, e->key_col, "accelerator: instance '%s' is not an accelerator (model '%s' declares "
            "no SLOTS)", isk_inst_name(inst), isk_model_name(isk_inst_model(inst)));
        return false;
    }
    for (size_t i = 0; i < b->f->instances.len; i++) {
        const sf_section *s = &b->f->instances.data[i];
        const sf_entry *other = find_entry(s, "accelerator", NULL);
        if (other && other->line < e->line && strcmp(s->name, isk_inst_name(inst)) != 0) {
            uint64_t k;
            if (isk_parse_u64(other->value, 0, 4095, ISK_UNIT_NONE, &k, why, sizeof why) && k == number) {
                err(b->f, b->d, e->line, e->value_col, "accelerator %s is already '%s' (line %d)", e->value, s->name,
                    other->line);
                return false;
            }
        }
    }
    return isk_attach(b->sys, inst, (int)number) == ISK_OK;
}

static bool set_param(const builder *b, isk_inst *inst, const sf_entry *e)
{
    char why[512];
    if (!isk_model_check_param(isk_inst_model(inst), e->arg, e->value, why, sizeof why)) {
        bool unknown = isk_model_find_param(isk_inst_model(inst), e->arg) < 0;
        err(b->f, b->d, e->line, unknown ? e->arg_col : e->value_col, "%s", why);
        return false;
    }
    return isk_set_param(inst, e->arg, e->value) == ISK_OK;
}

static bool load(const builder *b, isk_inst *inst, const sf_entry *e)
{
    if (!need_processor(b, inst, e, e->key_col)) return false;
    if (b->o->sandbox) {
        err(b->f, b->d, e->line, e->value_col, "programs are not loaded here");
        return false;
    }
    char *path = relative(b, e->value);
    bool ok = cli_load_program(inst, path, b->d);
    free(path);
    if (!ok) err(b->f, b->d, e->line, e->value_col, "instance '%s': cannot load program '%s'", isk_inst_name(inst),
                 e->value);
    return ok;
}

/* The steps, each over every instance: parameters (which reset an instance) before sharing,
 * sharing before wiring reads cells or maps storages, programs last. */
static const struct {
    const char *key;
    bool (*fn)(const builder *b, isk_inst *inst, const sf_entry *e);
} steps[] = {
    { "param", set_param }, { "share", share }, { "accelerator", attach }, { "ports", open_device },
    { "out", wire_out }, { "in", wire_in }, { "interrupt", route_line }, { "map", map_storage },
    { "program", load },
};

bool sysfile_build(const sysfile *f, isk_system *sys, port_wiring *wiring, const sysfile_build_options *o,
                   isk_diag *d)
{
    static const sysfile_build_options defaults = { 0 };
    builder b = { f, sys, wiring, o ? o : &defaults, d };
    isk_diag_file outer = isk_diag_begin_file(d, f->path);
    bool ok = true;
    for (size_t i = 0; i < f->instances.len; i++) ok &= add_instance(&b, &f->instances.data[i]);
    for (size_t k = 0; k < sizeof steps / sizeof *steps && ok; k++)
        for (size_t i = 0; i < f->instances.len; i++) {
            const sf_section *s = &f->instances.data[i];
            for (size_t j = 0; j < s->entries.len; j++)
                if (strcmp(s->entries.data[j].key, steps[k].key) == 0)
                    ok &= steps[k].fn(&b, inst_of(&b, s), &s->entries.data[j]);
        }
    /* every processor's ports are the description's: unwired ones read 0, writes are logged */
    for (size_t i = 0; i < f->instances.len && ok; i++)
        if (isk_inst_model(inst_of(&b, &f->instances.data[i]))->is_processor)
            port_wiring_of(wiring, inst_of(&b, &f->instances.data[i]));
    isk_diag_end_file(d, outer);
    return ok;
}
