/* The .psm assembler: two passes over the lines (INCLUDEs already expanded).
 *
 * Pass 1 places labels and defines CONSTANT, STRING and TABLE (constants are global: a line may
 * use one defined further down). Pass 2 applies NAMEREG in program order and encodes. Every
 * instruction is one word, except OUTPUTK / LOAD&RETURN over a string or table, whose length is
 * known in pass 1 because the string must be defined first. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "psm/psm_int.h"

void psm_options_init(psm_options *o, const isk_model *model)
{
    memset(o, 0, sizeof *o);
    o->model = model;
    o->timestamp = -1;
}

static int64_t assembly_time(const psm_options *o)
{
    if (o->timestamp >= 0) return o->timestamp;
    const char *epoch = getenv("SOURCE_DATE_EPOCH");
    if (epoch && *epoch) return strtoll(epoch, NULL, 10);
    return (int64_t)time(NULL);
}

const psm_symbol *psm_find_symbol(const psm_program *p, const char *name)
{
    for (size_t i = 0; i < p->symbols.len; i++)
        if (strcmp(p->symbols.data[i].name, name) == 0) return &p->symbols.data[i];
    return NULL;
}

void psm_program_free(psm_program *p)
{
    if (!p) return;
    free(p->words);
    free(p->used);
    for (size_t i = 0; i < p->symbols.len; i++) {
        free(p->symbols.data[i].name);
        VEC_FREE(&p->symbols.data[i].bytes);
    }
    VEC_FREE(&p->symbols);
    VEC_FREE(&p->origins);
    for (size_t i = 0; i < p->listing.len; i++) {
        free(p->listing.data[i].label);
        free(p->listing.data[i].statement);
        free(p->listing.data[i].comment);
    }
    VEC_FREE(&p->listing);
    for (size_t i = 0; i < p->files.len; i++) free(p->files.data[i]);
    VEC_FREE(&p->files);
    free(p);
}

/* ---- directives --------------------------------------------------------------------------- */

static bool want_operands(psm_asm *a, const psm_line *l, const psm_parsed *p, int n, const char *shape)
{
    if (p->nops == n) return true;
    int col = p->nops > n ? p->op[n].col : p->word.col;
    psm_error_at(a, l, col, "%.*s takes %s", p->word.len, p->word.s, shape);
    return false;
}

static void directive_constant(psm_asm *a, const psm_line *l, const psm_parsed *p)
{
    if (!want_operands(a, l, p, 2, "a name and a value: CONSTANT name, value")) return;
    int64_t v = 0;
    if (!psm_check_name(a, l, &p->op[0], "constant", 0)) return;
    bool ok = psm_value_span(a, l, &p->op[1], &v);
    psm_symbol *y = psm_symbol_define(a, l, &p->op[0], PSM_CONSTANT);
    if (y) y->value = v, y->invalid = !ok;
}

/* A STRING or TABLE whose text was refused still names something: defined as invalid, its uses
 * stay silent instead of each adding "not defined" to the one real error. */
static void define_invalid(psm_asm *a, const psm_line *l, const psm_span *name, int kind)
{
    psm_symbol *y = psm_symbol_define(a, l, name, kind);
    if (y) y->invalid = true;
}

/* STRING name$, "text" (or a predefined string) */
static void directive_string(psm_asm *a, const psm_line *l, const psm_parsed *p)
{
    if (!want_operands(a, l, p, 2, "a name and a text: STRING name$, \"text\"")) return;
    if (!psm_check_name(a, l, &p->op[0], "string", '$')) return;
    const psm_span *t = &p->op[1];
    char stamp[32];
    const char *text = NULL;
    size_t len = 0;
    if (t->len >= 2 && t->s[0] == '"' && t->s[t->len - 1] == '"') {
        text = t->s + 1;
        len = (size_t)t->len - 2;
    } else if (psm_span_is(t, "timestamp$") || psm_span_is(t, "datestamp$")) {
        static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                              "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
        time_t now = (time_t)a->now;
        struct tm tm;
        gmtime_r(&now, &tm);
        if (t->s[0] == 't' || t->s[0] == 'T')
            snprintf(stamp, sizeof stamp, "%02d:%02d:%02d", tm.tm_hour, tm.tm_min, tm.tm_sec);
        else
            snprintf(stamp, sizeof stamp, "%02d %s %04d", tm.tm_mday, months[tm.tm_mon], tm.tm_year + 1900);
        text = stamp;
        len = strlen(stamp);
    } else {
        psm_error_at(a, l, t->col, "expected the text in quotes");
        define_invalid(a, l, &p->op[0], PSM_STRING);
        return;
    }
    for (size_t i = 0; i < len; i++)
        if (text[i] < 32 || text[i] > 126) {
            psm_error_at(a, l, t->col + 1 + (int)i, "a string holds printable ASCII characters only");
            define_invalid(a, l, &p->op[0], PSM_STRING);
            return;
        }
    psm_symbol *y = psm_symbol_define(a, l, &p->op[0], PSM_STRING);
    if (!y) return;
    for (size_t i = 0; i < len; i++) VEC_PUSH(&y->bytes, (uint8_t)text[i]);
}

/* TABLE name#, [v, v, ...] with an optional 'd or 'b after the bracket for the whole list */
static void directive_table(psm_asm *a, const psm_line *l, const psm_parsed *p)
{
    if (!want_operands(a, l, p, 2, "a name and a list: TABLE name#, [v, v, ...]")) return;
    if (!psm_check_name(a, l, &p->op[0], "table", '#')) return;
    const psm_span *t = &p->op[1];
    const char *close = t->len ? memchr(t->s, ']', (size_t)t->len) : NULL;
    if (t->s[0] != '[' || !close) {
        psm_error_at(a, l, t->col, "expected a list in brackets: [v, v, ...]");
        define_invalid(a, l, &p->op[0], PSM_TABLE);
        return;
    }
    int base = 16;
    const char *suffix = close + 1, *end = t->s + t->len;
    if (end - suffix == 2 && suffix[0] == '\'' && (suffix[1] == 'd' || suffix[1] == 'D')) base = 10;
    else if (end - suffix == 2 && suffix[0] == '\'' && (suffix[1] == 'b' || suffix[1] == 'B')) base = 2;
    else if (suffix != end) {
        psm_error_at(a, l, t->col + (int)(suffix - t->s), "after the list only 'd or 'b may follow");
        define_invalid(a, l, &p->op[0], PSM_TABLE);
        return;
    }
    psm_symbol *y = psm_symbol_define(a, l, &p->op[0], PSM_TABLE);
    if (!y) return;
    const char *s = t->s + 1;
    while (s < close) {
        while (s < close && (*s == ' ' || *s == '\t')) s++;
        const char *e = s;
        while (e < close && *e != ',') e++;
        const char *ve = e;
        while (ve > s && (ve[-1] == ' ' || ve[-1] == '\t')) ve--;
        long v = -1;
        if (ve > s) {
            char digits[40];
            snprintf(digits, sizeof digits, "%.*s", (int)(ve - s), s);
            char *stop;
            v = strtol(digits, &stop, base);
            if (*stop || !isxdigit((unsigned char)digits[0])) v = -1;
        }
        if (v < 0 || v > 0xFF) {
            psm_error_at(a, l, t->col + (int)(s - t->s), "table elements are 8-bit values in base %d", base);
            y->invalid = true;
            return;
        }
        VEC_PUSH(&y->bytes, (uint8_t)v);
        s = e + 1;
    }
}

static void directive_namereg(psm_asm *a, const psm_line *l, const psm_parsed *p)
{
    if (!want_operands(a, l, p, 2, "a register and a new name: NAMEREG sX, name")) return;
    const psm_span *old = &p->op[0], *new = &p->op[1];
    int reg = -1;
    for (int r = 0; r < 16 && reg < 0; r++)
        if (a->reg_alias[r] && strlen(a->reg_alias[r]) == (size_t)old->len &&
            strncmp(a->reg_alias[r], old->s, (size_t)old->len) == 0)
            reg = r;
    if (reg < 0) {
        reg = psm_register_number(old->s, old->len);
        if (reg >= 0 && a->reg_alias[reg]) {
            psm_error_at(a, l, old->col, "register s%X is already named '%s'", reg, a->reg_alias[reg]);
            return;
        }
    }
    if (reg < 0) {
        psm_error_at(a, l, old->col, "'%.*s' names no register", old->len, old->s);
        return;
    }
    free(a->reg_alias[reg]);
    a->reg_alias[reg] = NULL;
    if (psm_register_number(new->s, new->len) == reg) return;     /* back to the default name */
    if (!psm_check_name(a, l, new, "register", 0)) return;
    for (int r = 0; r < 16; r++)
        if (a->reg_alias[r] && strlen(a->reg_alias[r]) == (size_t)new->len &&
            strncmp(a->reg_alias[r], new->s, (size_t)new->len) == 0) {
            psm_error_at(a, l, new->col, "'%.*s' already names register s%X", new->len, new->s, r);
            return;
        }
    if (psm_symbol_lookup(a, new->s, new->len)) {
        psm_error_at(a, l, new->col, "'%.*s' is already a label or constant", new->len, new->s);
        return;
    }
    a->reg_alias[reg] = isk_xstrndup(new->s, (size_t)new->len);
}

/* ---- the passes --------------------------------------------------------------------------- */

/* Each line's split, and what pass 1 made of it: a line whose statement failed there is not
 * encoded again in pass 2 (its error is reported once), and pass 2 takes its address from pass 1. */
typedef struct line_state {
    psm_parsed p;
    bool ok;                     /* split */
    bool failed;                 /* its statement reported an error in pass 1 */
    uint64_t address_after;      /* the address after the line in pass 1 */
} line_state;

static void place(psm_asm *a, const psm_line *l, int col, uint64_t address, uint32_t word)
{
    psm_program *prog = a->prog;
    if (address >= prog->size) {
        psm_error_at(a, l, col, "the program exceeds the %zu-word program space", prog->size);
        return;
    }
    if (prog->used[address]) {
        for (size_t i = 0; i < prog->origins.len; i++)
            if (prog->origins.data[i].address == address) {
                psm_error_at(a, l, col, "address %03llX is already used by %s:%d", (unsigned long long)address,
                             prog->origins.data[i].file, prog->origins.data[i].line);
                return;
            }
    }
    prog->words[address] = word;
    prog->used[address] = 1;
    prog->count++;
    if (address + 1 > prog->end) prog->end = (size_t)address + 1;
    VEC_PUSH(&prog->origins, ((psm_origin){ (uint32_t)address, l->file, l->line }));
}

static void statement(psm_asm *a, const psm_line *l, const psm_parsed *p, uint64_t *at, bool second);

static void run_pass(psm_asm *a, line_state *ls, bool second)
{
    uint64_t address = 0;
    a->pass2 = second;
    a->context[0] = 0;
    for (int r = 0; r < 16; r++) {
        free(a->reg_alias[r]);
        a->reg_alias[r] = NULL;
    }
    for (size_t i = 0; i < a->lines.len && !isk_diag_file_stopped(a->diag); i++) {
        const psm_line *l = &a->lines.data[i];
        const psm_parsed *p = &ls[i].p;
        a->cur = l;
        if (p->label.len && p->label.s[0] != '.' && p->label.s[0] != '&')     /* a new scope for .local */
            snprintf(a->context, sizeof a->context, "%.*s", p->label.len, p->label.s);
        /* a line that did not split still defines its label, so that its uses do not fail too */
        if (p->label.len && !second && psm_check_name(a, l, &p->label, "label", 0)) {
            psm_symbol *y = psm_symbol_define(a, l, &p->label, PSM_LABEL);
            if (y) y->value = (int64_t)address;
        }
        bool list = second && a->opt->listing;
        if (!ls[i].ok || !p->word.len) {
            if (list) psm_list_line(a, l, p, address, address, NULL);
            continue;
        }
        if (second && ls[i].failed) {
            address = ls[i].address_after;
            continue;
        }
        int errors = a->diag->errors;
        uint64_t before = address;
        char *resolved = list ? psm_resolve_statement(a, p) : NULL;
        statement(a, l, p, &address, second);
        if (list) psm_list_line(a, l, p, before, address, resolved);
        if (!second) ls[i].failed = a->diag->errors != errors, ls[i].address_after = address;
    }
}

/* One directive or instruction at *address (advanced past what it places). */
static void statement(psm_asm *a, const psm_line *l, const psm_parsed *p, uint64_t *at, bool second)
{
    uint64_t address = *at;
    const psm_span *w = &p->word;
    if (psm_span_is(w, "CONSTANT")) {
        if (!second) directive_constant(a, l, p);
    } else if (psm_span_is(w, "STRING")) {
        if (!second) directive_string(a, l, p);
    } else if (psm_span_is(w, "TABLE")) {
        if (!second) directive_table(a, l, p);
    } else if (psm_span_is(w, "NAMEREG")) {
        if (second) directive_namereg(a, l, p);
    } else if (psm_span_is(w, "ADDRESS")) {
        int64_t v;
        if (want_operands(a, l, p, 1, "one address") && psm_value_span(a, l, &p->op[0], &v)) {
            if (v < 0 || (uint64_t)v >= a->prog->size) {
                if (!second)
                    psm_error_at(a, l, p->op[0].col, "address %llX is outside the %zu-word program space",
                                 (long long)v, a->prog->size);
            } else {
                address = (uint64_t)v;
            }
        }
    } else if (psm_span_is(w, "INST")) {
        int64_t v;
        if (second && want_operands(a, l, p, 1, "one 18-bit word") && psm_value_span(a, l, &p->op[0], &v)) {
            if (v < 0 || v >= 0x40000) psm_error_at(a, l, p->op[0].col, "INST takes an 18-bit word (below 40000)");
            else place(a, l, p->word.col, address, (uint32_t)v);
        }
        address++;
    } else if (psm_span_is(w, "DEFAULT_JUMP")) {
        if (!second && want_operands(a, l, p, 1, "one target")) {
            if (a->default_jump_src) {
                psm_error_at(a, l, w->col, "a second DEFAULT_JUMP (the first is at %s:%d)",
                             a->default_jump_src->file, a->default_jump_src->line);
            } else {
                a->default_jump_src = l;
                a->default_jump = p->op[0];
            }
        }
    } else if (psm_span_is(w, "INCLUDE")) {
        if (!second) psm_error_at(a, l, w->col, "INCLUDE must stand on a line of its own, without a label");
    } else {
        uint32_t words[256];
        int room = address < a->prog->size ? (int)(a->prog->size - address) : 1;
        if (room > 256) room = 256;
        int n = psm_instruction(a, l, p, second ? words : NULL, room);
        if (n < 0) {
            *at = address + 1;
            return;
        }
        for (int k = 0; k < n; k++) {
            if (second) place(a, l, w->col, address, words[k]);
            else if (address >= a->prog->size && k == 0)
                psm_error_at(a, l, w->col, "the program exceeds the %zu-word program space", a->prog->size);
            address++;
        }
    }
    *at = address;
}

static void fill_default_jump(psm_asm *a)
{
    const psm_line *l = a->default_jump_src;
    if (!l) return;
    char text[160];
    int cols[160];
    int n = snprintf(text, sizeof text, "JUMP %.*s", a->default_jump.len, a->default_jump.s);
    if (n >= (int)sizeof text) {
        psm_error_at(a, l, a->default_jump.col, "the DEFAULT_JUMP target is too long");
        return;
    }
    for (int i = 0; i <= n; i++) cols[i] = i < 5 ? a->default_jump.col : a->default_jump.col + i - 5;
    uint32_t word;
    if (!psm_encode_text(a, l, text, cols, &word, a->default_jump.col)) return;
    for (size_t i = 0; i < a->prog->size; i++)
        if (!a->prog->used[i]) a->prog->words[i] = word;
    a->prog->has_default_jump = true;
}

/* A model takes .psm when it says so (PARAM_ENUM "syntax" with "psm" as its value), not when its
 * words happen to be 18 bits wide; the rest of the front end relies on a processor with
 * 18-bit words, so that is checked too. */
bool psm_model_ok(const isk_model *m, const char *name, isk_diag *diag)
{
    int p = m ? isk_model_find_param(m, "syntax") : -1;
    if (p < 0 || strcmp(m->params.data[p].info.def, "psm") != 0) {
        isk_error(diag, NULL, "%s: model '%s' does not declare the .psm syntax (its parameter 'syntax' is not 'psm')",
                  name, m ? m->name : "(none)");
        return false;
    }
    if (!m->is_processor || m->word_bits != 18) {
        isk_error(diag, NULL, "%s: model '%s' declares the .psm syntax but is not a processor with 18-bit words",
                  name, m->name);
        return false;
    }
    return true;
}

static psm_program *assemble(const char *name, const char *text, const psm_options *o, isk_diag *diag)
{
    const isk_model *m = o->model;
    if (!psm_model_ok(m, name, diag)) return NULL;
    psm_asm a = { .opt = o, .diag = diag, .now = assembly_time(o), .index = isk_syntax_index_new(m) };
    a.prog = isk_xcalloc(1, sizeof *a.prog);
    a.prog->size = (size_t)m->storages.data[m->code_storage].info.count;
    a.prog->words = isk_xcalloc(a.prog->size, sizeof *a.prog->words);
    a.prog->used = isk_xcalloc(a.prog->size, 1);
    a.prog->timestamp = a.now;
    int errors = diag->errors;
    isk_diag_file outer = isk_diag_begin_file(diag, name);   /* its INCLUDEs count with it */
    psm_read_source(&a, name, text, NULL, NULL);
    line_state *ls = isk_xcalloc(a.lines.len + 1, sizeof *ls);
    for (size_t i = 0; i < a.lines.len && !isk_diag_file_stopped(diag); i++)
        ls[i].ok = psm_split_line(&a, &a.lines.data[i], &ls[i].p);
    /* pass 2 runs after errors too, so that a file's errors of every stage are reported */
    run_pass(&a, ls, false);
    run_pass(&a, ls, true);
    if (diag->errors == errors) fill_default_jump(&a);
    isk_diag_end_file(diag, outer);
    free(ls);
    for (size_t i = 0; i < a.lines.len; i++) free(a.lines.data[i].text);
    VEC_FREE(&a.lines);
    for (int r = 0; r < 16; r++) free(a.reg_alias[r]);
    isk_syntax_index_free(a.index);
    if (a.hint_index) isk_syntax_index_free(a.hint_index);
    asm_map_free(&a.symbol_map);
    if (diag->errors != errors) {
        psm_program_free(a.prog);
        return NULL;
    }
    return a.prog;
}

psm_program *psm_assemble_file(const char *path, const psm_options *o, isk_diag *diag)
{
    return assemble(path, NULL, o, diag);
}

psm_program *psm_assemble_text(const char *name, const char *text, const psm_options *o, isk_diag *diag)
{
    return assemble(name, text, o, diag);
}
