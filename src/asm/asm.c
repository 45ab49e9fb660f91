/* The assembler's driver: inputs, lines, statements, labels and the public API. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm/asm_int.h"
#include "base/file.h"
#include "base/num.h"
#include "base/str.h"
#include "elf/elf_file.h"

/* The model's address map knows both (the instruction's container, the PC unit). */
int isk_asm_insn_bytes(const isk_model *m) { return m->map.code_bytes; }

int isk_asm_pc_unit_bytes(const isk_model *m) { return m->map.pc_unit; }

/* A "nop" with no operands pads code for .align, as GNU as pads with its target's nop. */
static int find_nop(const isk_model *m)
{
    for (size_t i = 0; i < m->patterns.len; i++) {
        const isk_pattern *p = &m->patterns.data[i];
        if (p->nfields || !p->info.syntax) continue;
        const char *s = asm_skip(p->info.syntax);
        size_t n = strlen(s);
        while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
        if (n == 3 && strncasecmp(s, "nop", 3) == 0) return (int)i;
    }
    return -1;
}

/* The bound on expanded text: an environment variable, like ISEKIT_MAX_INPUT, so that every
 * command that assembles obeys it without an option each. */
static uint64_t max_expansion_env(isk_diag *diag)
{
    const char *env = getenv(ISK_ASM_MAX_EXPANSION_ENV);
    uint64_t v = ISK_ASM_MAX_EXPANDED_BYTES;
    char why[160];
    if (env && *env && !isk_parse_u64(env, 1, UINT64_C(1) << 40, ISK_UNIT_BYTES, &v, why, sizeof why)) {
        isk_warning(diag, NULL, "%s: %s; using %" PRIu64 " bytes", ISK_ASM_MAX_EXPANSION_ENV, why,
                    (uint64_t)ISK_ASM_MAX_EXPANDED_BYTES);
        v = ISK_ASM_MAX_EXPANDED_BYTES;
    }
    return v;
}

isk_asm *isk_asm_new(const isk_model *m, const char *output_name, const isk_asm_options *opt, isk_diag *diag)
{
    isk_asm *a = isk_xcalloc(1, sizeof *a);
    a->m = m;
    a->diag = diag;
    a->errors_at_start = diag->errors;
    if (opt) a->opt = *opt;
    if (!a->opt.max_expanded_bytes) a->opt.max_expanded_bytes = max_expansion_env(diag);
    a->index = a->opt.index ? a->opt.index : (a->own_index = isk_syntax_index_new(m));
    a->insn_bytes = isk_asm_insn_bytes(m);
    a->pc_unit = isk_asm_pc_unit_bytes(m);
    a->big_endian = m->has_elf && m->elf.big_endian;
    a->nop_pattern = find_nop(m);
    int cls = m->has_elf && m->elf.elfclass == 64 ? ELFCLASS64 : ELFCLASS32;
    a->obj = isk_obj_new(output_name ? output_name : "a.o", cls, a->big_endian, m->has_elf ? m->elf.machine : 0,
                         ET_REL);
    a->obj->flags = m->has_elf ? m->elf.flags : 0;
    a->macro_map.fold_case = true;
    VEC_PUSH(&a->syms, (asm_sym){ .name = isk_xstrdup(""), .expr = -1 });
    a->sec = isk_obj_add_section(a->obj, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 1);
    a->prev_sec = a->sec;
    return a;
}

void isk_asm_free(isk_asm *a)
{
    if (!a) return;
    asm_abandon_frames(a, 0);
    VEC_FREE(&a->frames);
    for (size_t i = 0; i < a->keep.len; i++) free(a->keep.data[i]);
    VEC_FREE(&a->keep);
    asm_map_free(&a->interned);
    VEC_FREE(&a->expansions);
    VEC_FREE(&a->sec_stack);
    for (size_t i = 0; i < a->syms.len; i++) free(a->syms.data[i].name);
    VEC_FREE(&a->syms);
    asm_map_free(&a->sym_map);
    asm_map_free(&a->local_counts);
    VEC_FREE(&a->nodes);
    for (size_t i = 0; i < a->fixups.len; i++) free((char *)a->fixups.data[i].pos.text);
    VEC_FREE(&a->fixups);
    asm_line_free(a);
    for (size_t i = 0; i < a->macros.len; i++) asm_macro_free(&a->macros.data[i]);
    VEC_FREE(&a->macros);
    asm_map_free(&a->macro_map);
    asm_macro_free(&a->collect.macro);
    asm_body_free(&a->collect.body);
    free(a->collect.irp_param);
    for (size_t i = 0; i < a->collect.irp_values.len; i++) free(a->collect.irp_values.data[i]);
    VEC_FREE(&a->collect.irp_values);
    VEC_FREE(&a->conds);
    isk_syntax_index_free(a->own_index);
    isk_obj_free(a->obj);
    free(a);
}

bool asm_active(const isk_asm *a)
{
    return !a->conds.len || VEC_LAST(&a->conds).active;
}

/* ---- statements -------------------------------------------------------------------------- */

/* The mnemonic, directive or macro name at s. A directive's name also ends at a comma, as in
 * LLVM's parser (poplibs writes `.ifnc, \ARG, true`). */
static size_t word_length(const char *s)
{
    size_t n = 0;
    while (s[n] && s[n] != ' ' && s[n] != '\t' && !(s[n] == ',' && *s == '.')) n++;
    return n;
}

void asm_statement(isk_asm *a, char *s)
{
    s = (char *)asm_skip(s);
    if (!asm_active(a)) {
        /* Skipped: only the conditionals are looked at, to keep their nesting. */
        if (*s == '.') {
            size_t n = word_length(s);
            if (asm_is_conditional(s, n)) asm_directive(a, s, n, s + n);
        }
        return;
    }
    if (a->bundle.open || *s == '{' || *s == '}') {
        asm_bundle_statement(a, s);
        return;
    }
    /* Labels: "name:" or "1:", several on a line. */
    for (;;) {
        const char *p = s, *name = s;
        size_t n = 0;
        if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)p[n])) n++;
            p += n;
        } else {
            n = asm_parse_name(&p, &name);
        }
        if (!n || *p != ':') break;
        asm_define_label(a, name, n, name);
        s = (char *)asm_skip(p + 1);
    }
    if (!*s) return;
    if (*s == '{') {         /* after labels: "loop: { a ; b }" */
        asm_bundle_statement(a, s);
        return;
    }
    /* name = expression */
    {
        const char *p = s, *name;
        size_t n = asm_parse_name(&p, &name);
        const char *q = asm_skip(p);
        if (n && *q == '=' && q[1] != '=') {
            asm_define_set(a, name, n, q + 1, false);
            return;
        }
    }
    size_t n = word_length(s);
    if (asm_macro_call(a, s, n, s + n)) return;
    if (*s == '.') {
        if (!asm_directive(a, s, n, s + n))
            asm_error(a, s, "unknown directive '%.*s'", (int)(n < 40 ? n : 40), s);
        return;
    }
    asm_emit_instruction(a, s);
}

static void run_statements(isk_asm *a, char *rest)
{
    char *st;
    while ((st = asm_next_statement(&rest))) {
        size_t before = a->frames.len;
        asm_statement(a, st);
        if (a->ended) return;
        if (a->collect.kind) {
            /* The statement opened a .macro or .rept: the rest of the line is its body. */
            if (asm_at_end(rest)) return;
            size_t done = (size_t)(rest - a->work);
            memset(a->work, ' ', done);
            rest = asm_collect_line(a, a->work);
            if (!rest) return;
            continue;
        }
        if (a->frames.len > before) {
            asm_defer_rest(a, before, rest);
            return;
        }
    }
}

static void process_line(isk_asm *a, char *work)
{
    a->work = work;
    char *rest = work;
    if (a->collect.kind && !(rest = asm_collect_line(a, work))) return;
    run_statements(a, rest);
}

/* Assemble lines until the frames above `floor` are done. */
static void run(isk_asm *a, size_t floor)
{
    char *line;
    a->ended = false;
    while ((line = asm_next_line(a, floor))) {
        process_line(a, line);
        free(line);
        a->work = NULL;
        if (isk_diag_file_stopped(a->diag)) {         /* past a cap nothing more is shown from here */
            asm_abandon_frames(a, floor);
            break;
        }
        if (a->ended) {
            while (a->frames.len > floor) asm_pop_frame(a);
            break;
        }
    }
    a->ended = false;
}

bool isk_asm_text(isk_asm *a, const char *name, const char *text, size_t len)
{
    int errors = a->diag->errors;
    char *copy = isk_xstrndup(text, len);
    VEC_PUSH(&a->keep, copy);
    size_t floor = a->frames.len;
    isk_diag_file outer = isk_diag_begin_file(a->diag, asm_intern(a, name));
    asm_push_file(a, name, copy, len, false);
    run(a, floor);
    isk_diag_end_file(a->diag, outer);
    return a->diag->errors == errors;
}

bool isk_asm_file(isk_asm *a, const char *path)
{
    int errors = a->diag->errors;
    char *buf;
    size_t len;
    bool cpp = isk_ends_with(path, ".S") || isk_ends_with(path, ".sx");
    if (a->opt.no_files) {
        isk_error(a->diag, NULL, "%s: reading files is not allowed here", path);
        return false;
    }
    if (cpp) {
        buf = asm_preprocess(path, &a->opt, a->m->name, a->diag, &len);
        if (!buf) return false;
    } else {
        if (isk_file_read_source(path, "assembly", &buf, &len, a->diag) != 0) return false;
    }
    VEC_PUSH(&a->keep, buf);
    size_t floor = a->frames.len;
    isk_diag_file outer = isk_diag_begin_file(a->diag, asm_intern(a, path));
    asm_push_file(a, path, buf, len, cpp);
    run(a, floor);
    isk_diag_end_file(a->diag, outer);
    return a->diag->errors == errors;
}

isk_obj *isk_asm_finish(isk_asm *a)
{
    isk_obj *o = asm_finish(a);
    if (a->diag->errors != a->errors_at_start) {
        isk_obj_free(o);
        return NULL;
    }
    return o;
}

isk_obj *isk_assemble_files(const isk_model *m, const char *const *paths, size_t n, const char *output_name,
                            const isk_asm_options *opt, isk_diag *diag)
{
    int errors = diag->errors;
    isk_asm *a = isk_asm_new(m, output_name, opt, diag);
    for (size_t i = 0; i < n && !isk_diag_stopped(diag); i++) isk_asm_file(a, paths[i]);
    isk_obj *o = asm_finish(a);
    isk_asm_free(a);
    if (diag->errors != errors) {
        isk_obj_free(o);
        return NULL;
    }
    return o;
}

/* ---- the core API for other front ends --------------------------------------------------- */

/* Make `text` the current statement, at `loc`; returns the work copy to process. */
static char *enter(isk_asm *a, const char *text, const isk_loc *loc, char **stmt)
{
    const char *shown = loc && loc->text ? loc->text : text;
    size_t len = loc && loc->text ? (loc->text_len >= 0 ? (size_t)loc->text_len : strcspn(loc->text, "\n"))
                                  : strlen(text);
    char *work;
    if (text >= shown && text <= shown + len) {
        work = isk_xstrndup(shown, len);
        *stmt = work + (text - shown);
        /* Only the statement is processed: blank what precedes it. */
        memset(work, ' ', (size_t)(text - shown));
    } else {
        shown = text;
        len = strlen(text);
        work = isk_xstrndup(text, len);
        *stmt = work;
    }
    a->pos = (asm_pos){ loc && loc->file ? asm_intern(a, loc->file) : NULL, loc ? loc->line : 0, shown, (int)len, -1 };
    a->work = work;
    return work;
}

static void leave(isk_asm *a, char *work)
{
    free(work);
    a->work = NULL;
}

void isk_asm_line(isk_asm *a, const char *text, const isk_loc *loc)
{
    char *stmt, *work = enter(a, text, loc, &stmt);
    bool in_comment = false;
    asm_strip_comments(stmt, &in_comment);
    size_t floor = a->frames.len;
    process_line(a, work);
    leave(a, work);
    run(a, floor);
}

bool isk_asm_set_symbol(isk_asm *a, const char *name, int64_t value, const isk_loc *loc)
{
    char *stmt, *work = enter(a, name, loc, &stmt);
    uint32_t i = asm_sym_ref(a, name, strlen(name));
    asm_sym *s = &a->syms.data[i];
    bool ok = !(s->defined && !s->is_set) && !s->common;
    if (!ok) {
        asm_error(a, NULL, "symbol '%s' is already defined", name);
    } else {
        s->defined = s->is_set = true;
        s->expr = -1;
        s->sec = ISK_SHN_ABS;
        s->value = value;
        s->pos = (asm_pos){ a->pos.file, a->pos.line, NULL, 0, -1 };
    }
    leave(a, work);
    return ok;
}

bool isk_asm_instruction(isk_asm *a, const char *text, const isk_loc *loc)
{
    int errors = a->diag->errors;
    char *stmt, *work = enter(a, text, loc, &stmt);
    asm_emit_instruction(a, stmt);
    leave(a, work);
    return a->diag->errors == errors;
}

void isk_asm_word(isk_asm *a, uint64_t word)
{
    asm_emit_word(a, word);
}

uint64_t isk_asm_offset(const isk_asm *a)
{
    return asm_offset(a);
}

uint64_t isk_asm_pc(const isk_asm *a)
{
    return asm_offset(a) / (uint64_t)a->pc_unit;
}

bool isk_asm_set_offset(isk_asm *a, uint64_t offset, const isk_loc *loc)
{
    uint64_t cur = asm_offset(a);
    if (offset < cur) {
        if (loc) {
            asm_pos saved = a->pos;
            a->pos = (asm_pos){ loc->file, loc->line, loc->text, loc->text_len, -1 };
            asm_error_pos(a, &a->pos, loc->col, "cannot move the location back from 0x%llx to 0x%llx",
                          (unsigned long long)cur, (unsigned long long)offset);
            a->pos = saved;
        } else {
            asm_error(a, NULL, "cannot move the location back from 0x%llx to 0x%llx", (unsigned long long)cur,
                      (unsigned long long)offset);
        }
        return false;
    }
    if (offset - cur > (UINT64_C(1) << 32)) {
        asm_error(a, NULL, "cannot move the location forward by more than 4 GiB");
        return false;
    }
    if (offset > cur && asm_room(a, offset - cur, NULL)) isk_obj_append(a->obj, a->sec, NULL, (size_t)(offset - cur));
    return true;
}
