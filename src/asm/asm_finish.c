/* The end of assembly: fixups resolved or turned into relocations, symbols into the object. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "asm/asm_int.h"

/* Words for messages: what a value refers to. */
static const char *describe(isk_asm *a, const asm_value *v, char *buf, size_t cap)
{
    char name[160];
    if (v->kind == VAL_SYM || v->sym) {
        const asm_sym *s = &a->syms.data[v->sym];
        snprintf(buf, cap, "symbol '%s'", asm_sym_display(s, name, sizeof name));
    } else {
        snprintf(buf, cap, "an address in section %s", a->obj->secs.data[v->sec].name);
    }
    return buf;
}

/* The object symbol and addend a relocation for value v uses. False after an error. */
static bool reloc_target(isk_asm *a, const asm_fixup *f, const asm_value *v, uint32_t *sym, int64_t *addend)
{
    *addend = v->k;
    if (v->kind == VAL_SYM) {
        const asm_sym *s = &a->syms.data[v->sym];
        char name[160];
        if (s->temp) {
            asm_error_pos(a, &f->pos, f->col, "local label %s is not defined", asm_sym_display(s, name, sizeof name));
            return false;
        }
        if (!s->out) {
            asm_error_pos(a, &f->pos, f->col, "symbol '%s' cannot be used in a relocation",
                          asm_sym_display(s, name, sizeof name));
            return false;
        }
        *sym = s->out;
        return true;
    }
    if (v->sym && a->syms.data[v->sym].out) {
        const asm_sym *s = &a->syms.data[v->sym];
        *sym = s->out;
        *addend = (int64_t)((uint64_t)v->k - (uint64_t)s->value);
        return true;
    }
    /* The object's lookup scans every symbol: remember each section's. */
    *sym = isk_obj_section_symbol(a->obj, v->sec);
    return true;
}

static void patch(isk_asm *a, uint32_t sec, uint64_t offset, int bytes, uint64_t value)
{
    uint8_t buf[8];
    asm_put_word(a, buf, bytes, value);
    isk_obj_patch(a->obj, sec, offset, buf, (size_t)bytes);
}

static bool resolve_data(isk_asm *a, asm_fixup *f, const asm_value *v, bool final)
{
    int n = f->bytes;
    if (v->kind == VAL_ABS) {
        int64_t x = v->k;
        if (n < 8) {
            int64_t lo = -(INT64_C(1) << (8 * n - 1)), hi = (INT64_C(1) << (8 * n)) - 1;
            if (x < lo || x > hi)
                asm_warning_pos(a, &f->pos, f->col, "value %" PRId64 " (0x%" PRIx64 ") truncated to %d byte%s", x,
                                (uint64_t)x, n, n == 1 ? "" : "s");
        }
        patch(a, f->sec, f->offset, n, (uint64_t)x);
        return true;
    }
    if (!final) return false;
    const isk_model *m = a->m;
    int r = asm_data_reloc(m, n);
    char what[200];
    if (r < 0) {
        asm_error_pos(a, &f->pos, f->col, "%s is not known until link time, and model '%s' declares no %d-byte data "
                      "relocation for it", describe(a, v, what, sizeof what), m->name, n);
        return true;
    }
    uint32_t sym;
    int64_t addend;
    if (reloc_target(a, f, v, &sym, &addend)) isk_obj_add_reloc(a->obj, f->sec, f->offset, m->relocs.data[r].d.type,
                                                                sym, addend);
    return true;
}

int asm_data_reloc(const isk_model *m, int n)
{
    for (size_t i = 0; i < m->relocs.len; i++) {
        const isk_reloc_decl *d = &m->relocs.data[i].d;
        if (d->bytes == n && !d->fields && !d->pcrel && !d->shift) return (int)i;
    }
    return -1;
}

static bool resolve_insn(isk_asm *a, asm_fixup *f, const asm_value *v, bool final)
{
    const isk_model *m = a->m;
    const isk_pattern *p = &m->patterns.data[f->pattern];
    const isk_field *fld = &p->field[f->field];
    const isk_kind *k = fld->kind >= 0 ? &m->kinds.data[fld->kind] : NULL;
    bool pcrel = k && k->d.type == ISK_KIND_PCREL;
    int64_t value;
    char err[256], what[200];
    if (v->kind == VAL_ABS) {
        value = v->k;
    } else if (pcrel && v->kind == VAL_SEC && v->sec == f->sec &&
               !(v->sym && (!final || a->syms.data[v->sym].bind == STB_WEAK))) {
        if (v->k % a->pc_unit) {
            asm_error_pos(a, &f->pos, f->col, "operand %s: target offset 0x%" PRIx64 " is not a multiple of %d bytes",
                          fld->name, (uint64_t)v->k, a->pc_unit);
            return true;
        }
        value = v->k / a->pc_unit;
    } else if (k && k->d.type == ISK_KIND_ABS && v->kind == VAL_SEC && !m->relocs.len) {
        /* A model without relocations links nothing: its sections start at address 0, so a
         * code address is the offset in PC units. */
        if (v->k % a->pc_unit) {
            asm_error_pos(a, &f->pos, f->col, "operand %s: address 0x%" PRIx64 " is not a multiple of %d bytes",
                          fld->name, (uint64_t)v->k, a->pc_unit);
            return true;
        }
        value = v->k / a->pc_unit;
    } else if (!final) {
        return false;
    } else {
        int r = p->reloc[f->field];
        if (r < 0) {
            const char *mn;
            size_t mlen = isk_syntax_mnemonic(p->info.syntax, &mn);
            asm_error_pos(a, &f->pos, f->col, "operand %s of '%.*s' refers to %s, which needs a relocation, and "
                          "model '%s' has none for it%s", fld->name, (int)mlen, mn, describe(a, v, what, sizeof what),
                          m->name, pcrel ? " (a branch to another section or file)" : "");
            return true;
        }
        uint32_t sym;
        int64_t addend;
        if (!reloc_target(a, f, v, &sym, &addend)) return true;
        if (pcrel) addend -= k->d.pc_bias * a->pc_unit;
        isk_obj_add_reloc(a->obj, f->sec, f->offset, m->relocs.data[r].d.type, sym, addend);
        return true;
    }
    const isk_section *s = &a->obj->secs.data[f->sec];
    if (f->offset + (uint64_t)a->insn_bytes > s->size || !s->data) return true;
    uint64_t word = asm_get_word(a, s->data + f->offset, a->insn_bytes);
    if (!isk_syntax_insert(m, fld, value, f->pc, &word, err, sizeof err)) {
        asm_error_pos(a, &f->pos, f->col, "%s", err);
        return true;
    }
    patch(a, f->sec, f->offset, a->insn_bytes, word);
    return true;
}

bool asm_fixup_resolve(isk_asm *a, asm_fixup *f, bool final)
{
    asm_value v;
    char err[200];
    const asm_sym *sized = &a->syms.data[f->sym];
    if (f->kind == FX_SIZE && final && !sized->defined && !sized->common) {
        /* Nothing to give the size to (LLVM's assembler drops it too; poplibs relies on that). */
        asm_warning_pos(a, &f->pos, f->col, ".size of '%s', which this file never defines: ignored", sized->name);
        return true;
    }
    int st = asm_expr_eval(a, f->expr, final, &v, err, sizeof err);
    if (st == EV_PENDING) return false;
    if (st == EV_ERROR) {
        asm_error_pos(a, &f->pos, f->col, "%s", err);
        return true;
    }
    switch (f->kind) {
    case FX_DATA: return resolve_data(a, f, &v, final);
    case FX_INSN: return resolve_insn(a, f, &v, final);
    default:
        if (v.kind != VAL_ABS) {
            asm_error_pos(a, &f->pos, f->col, ".size needs an absolute value (e.g. .-f)");
        } else {
            a->syms.data[f->sym].size = (uint64_t)v.k;
            a->syms.data[f->sym].has_size = true;
        }
        return true;
    }
}

/* Symbols defined by expressions with forward references get their final values. */
static void settle_set_symbols(isk_asm *a)
{
    for (size_t i = 1; i < a->syms.len; i++) {
        asm_sym *s = &a->syms.data[i];
        if (s->expr < 0) continue;
        asm_value v;
        char err[200], name[160];
        int st = asm_expr_eval(a, s->expr, true, &v, err, sizeof err);
        s = &a->syms.data[i];
        if (st != EV_OK) {
            asm_error_pos(a, &s->pos, 0, "symbol '%s': %s", asm_sym_display(s, name, sizeof name), err);
            s->expr = -1;
            s->defined = false;
            continue;
        }
        if (v.kind == VAL_SYM) continue;           /* an alias of an undefined symbol: resolved through uses */
        s->expr = -1;
        s->sec = v.kind == VAL_ABS ? ISK_SHN_ABS : v.sec;
        s->value = v.k;
    }
}

static void emit_symbols(isk_asm *a)
{
    for (size_t i = 1; i < a->syms.len; i++) {
        asm_sym *s = &a->syms.data[i];
        if (s->expr >= 0) {
            if (s->bind != STB_LOCAL)
                asm_error_pos(a, &s->pos, 0, "global symbol '%s' is set to an undefined symbol; define it instead",
                              s->name);
            continue;
        }
        if (s->temp) continue;           /* undefined ones are reported where they are used */
        isk_symbol o = { .name = s->name, .bind = s->bind, .type = s->type, .vis = s->vis,
                         .size = s->has_size || s->common ? s->size : 0 };
        if (s->common) {
            o.shndx = ISK_SHN_COMMON;
            o.value = s->common_align;
        } else if (s->defined) {
            o.shndx = s->sec;
            o.value = (uint64_t)s->value;
        } else if (s->used || s->bind != STB_LOCAL) {
            o.shndx = ISK_SHN_UNDEF;
            if (o.bind == STB_LOCAL) o.bind = STB_GLOBAL;
        } else {
            continue;
        }
        s->out = isk_obj_add_symbol(a->obj, &o);
    }
}

isk_obj *asm_finish(isk_asm *a)
{
    asm_bundle_finish(a);
    if (a->collect.kind) {
        const char *what = a->collect.kind == COLLECT_MACRO ? ".macro without .endm"
                         : a->collect.kind == COLLECT_REPT ? ".rept without .endr" : ".irp without .endr";
        asm_error_pos(a, &a->collect.pos, a->collect.col, "%s", what);
        a->collect.kind = COLLECT_NONE;
    }
    if (a->conds.len) {
        asm_error_pos(a, &a->conds.data[0].pos, 0, ".if without .endif");
        a->conds.len = 0;
    }
    settle_set_symbols(a);
    for (size_t i = 0; i < a->fixups.len; i++)
        if (a->fixups.data[i].kind == FX_SIZE) asm_fixup_resolve(a, &a->fixups.data[i], true);
    emit_symbols(a);
    for (size_t i = 0; i < a->fixups.len; i++)
        if (a->fixups.data[i].kind != FX_SIZE) asm_fixup_resolve(a, &a->fixups.data[i], true);
    asm_line_finish(a);
    isk_obj *o = a->obj;
    a->obj = NULL;
    return o;
}
