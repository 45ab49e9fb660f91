/* Output: sections, data, instructions, alignment; operands and data that are not known yet
 * become fixups, resolved when their symbols are (asm_finish.c). */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "asm/asm_int.h"

void asm_put_word(const isk_asm *a, uint8_t *p, int bytes, uint64_t word)
{
    for (int i = 0; i < bytes; i++) p[a->big_endian ? bytes - 1 - i : i] = (uint8_t)(word >> (8 * i));
}

uint64_t asm_get_word(const isk_asm *a, const uint8_t *p, int bytes)
{
    uint64_t w = 0;
    for (int i = 0; i < bytes; i++) w |= (uint64_t)p[a->big_endian ? bytes - 1 - i : i] << (8 * i);
    return w;
}

uint64_t asm_offset(const isk_asm *a)
{
    return a->obj->secs.data[a->sec].size;
}

bool asm_section_is_nobits(const isk_asm *a)
{
    return a->obj->secs.data[a->sec].type == SHT_NOBITS;
}

/* ---- sections ---------------------------------------------------------------------------- */

static bool has_prefix(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(name, prefix, n) == 0 && (name[n] == 0 || name[n] == '.');
}

/* GNU's defaults for well-known names; otherwise a region of the model that claims the name
 * makes it allocated (code regions executable), else it is a plain non-allocated section. */
static void default_attributes(const isk_asm *a, const char *name, uint32_t *type, uint64_t *flags)
{
    *type = SHT_PROGBITS;
    *flags = 0;
    if (has_prefix(name, ".text")) *flags = SHF_ALLOC | SHF_EXECINSTR;
    else if (has_prefix(name, ".data") || has_prefix(name, ".sdata")) *flags = SHF_ALLOC | SHF_WRITE;
    else if (has_prefix(name, ".rodata") || has_prefix(name, ".srodata")) *flags = SHF_ALLOC;
    else if (has_prefix(name, ".bss") || has_prefix(name, ".sbss") || has_prefix(name, ".tbss")) {
        *flags = SHF_ALLOC | SHF_WRITE;
        *type = SHT_NOBITS;
    } else {
        for (size_t i = 0; i < a->m->regions.len; i++) {
            const isk_region_decl *r = &a->m->regions.data[i];
            if (!r->sections) continue;
            const char *s = r->sections;
            while (*s) {
                while (*s == ' ') s++;
                size_t n = strcspn(s, " ");
                if (!n) break;
                char pat[256];
                if (n < sizeof pat) {
                    memcpy(pat, s, n);
                    pat[n] = 0;
                    if (fnmatch(pat, name, 0) == 0) {
                        *flags = SHF_ALLOC | (r->code ? SHF_EXECINSTR : SHF_WRITE);
                        if (has_prefix(name, ".noinit") || strstr(name, ".noinit")) *type = SHT_NOBITS;
                        return;
                    }
                }
                s += n;
            }
        }
    }
}

static bool parse_flags(isk_asm *a, const char *flags, uint64_t *out)
{
    uint64_t f = 0;
    for (const char *c = flags; *c; c++) {
        switch (*c) {
        case 'a': f |= SHF_ALLOC; break;
        case 'w': f |= SHF_WRITE; break;
        case 'x': f |= SHF_EXECINSTR; break;
        case 'M': f |= SHF_MERGE; break;
        case 'S': f |= SHF_STRINGS; break;
        case 'T': f |= SHF_TLS; break;
        case 'o': f |= SHF_LINK_ORDER; break;
        case 'R': f |= SHF_GNU_RETAIN; break;
        case 'G':
            asm_error(a, NULL, "section groups (flag 'G') are not supported");
            return false;
        default:
            asm_error(a, NULL, "unknown section flag '%c' (use a, w, x, M, S, T, o, R)", *c);
            return false;
        }
    }
    *out = f;
    return true;
}

static bool parse_type(isk_asm *a, const char *type, uint32_t *out)
{
    static const struct { const char *name; uint32_t type; } types[] = {
        { "progbits", SHT_PROGBITS }, { "nobits", SHT_NOBITS }, { "note", SHT_NOTE },
        { "init_array", SHT_INIT_ARRAY }, { "fini_array", SHT_FINI_ARRAY }, { "preinit_array", SHT_PREINIT_ARRAY },
    };
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (strcmp(types[i].name, type) == 0) {
            *out = types[i].type;
            return true;
        }
    asm_error(a, NULL, "unknown section type '%s' (use @progbits or @nobits)", type);
    return false;
}

void asm_switch_section(isk_asm *a, const char *name, const char *flags, const char *type, bool have_flags)
{
    uint32_t t;
    uint64_t f;
    default_attributes(a, name, &t, &f);
    if (have_flags && !parse_flags(a, flags, &f)) return;
    if (type && !parse_type(a, type, &t)) return;
    uint32_t idx = isk_obj_find_section(a->obj, name);
    if (idx) {
        const isk_section *s = &a->obj->secs.data[idx];
        if ((have_flags && s->flags != f) || (type && s->type != t))
            asm_warning(a, NULL, "section %s was first declared with other attributes; keeping those", name);
    } else {
        idx = isk_obj_add_section(a->obj, name, t, f, 1);
    }
    a->prev_sec = a->sec;
    a->sec = idx;
}

/* ---- bytes and data ---------------------------------------------------------------------- */

bool asm_room(isk_asm *a, uint64_t n, const char *at)
{
    const isk_section *s = &a->obj->secs.data[a->sec];
    uint64_t limit = s->type == SHT_NOBITS ? UINT64_C(1) << 32
                   : a->opt.max_section_bytes ? a->opt.max_section_bytes : UINT64_C(1) << 30;
    if (n <= limit && s->size <= limit - n) return true;
    asm_error(a, at, "section %s would grow beyond %" PRIu64 " bytes", s->name, limit);
    return false;
}

void asm_emit_bytes(isk_asm *a, const void *bytes, size_t n)
{
    if (!n || !asm_room(a, n, NULL)) return;
    if (asm_section_is_nobits(a)) {
        const uint8_t *b = bytes;
        for (size_t i = 0; b && i < n; i++)
            if (b[i]) {
                asm_error(a, NULL, "section %s holds no data (it is NOBITS): only zeros may be put there",
                          a->obj->secs.data[a->sec].name);
                return;
            }
        bytes = NULL;
    }
    isk_obj_append(a->obj, a->sec, bytes, n);
}

static asm_fixup new_fixup(isk_asm *a, int kind, int32_t e, int col)
{
    asm_fixup f = { .kind = (uint8_t)kind, .sec = a->sec, .offset = asm_offset(a), .expr = e, .pos = a->pos,
                    .col = col, .pattern = -1, .field = -1 };
    f.pos.text = a->pos.text ? isk_xstrndup(a->pos.text, (size_t)a->pos.text_len) : NULL;
    return f;
}

void asm_emit_data(isk_asm *a, int bytes, int32_t expr, const char *at)
{
    uint8_t zero[8] = { 0 };
    asm_fixup f = new_fixup(a, FX_DATA, expr, asm_col(a, at));
    f.bytes = (uint8_t)bytes;
    if (asm_section_is_nobits(a)) {
        /* Only zeros fit a NOBITS section. */
        asm_value v;
        char err[200];
        int st = asm_expr_eval(a, expr, false, &v, err, sizeof err);
        if (st != EV_OK || v.kind != VAL_ABS || v.k != 0)
            asm_error(a, at, "section %s holds no data (it is NOBITS): only zeros may be put there",
                      a->obj->secs.data[a->sec].name);
        else if (asm_room(a, (uint64_t)bytes, at))
            isk_obj_append(a->obj, a->sec, NULL, (size_t)bytes);
        free((char *)f.pos.text);
        return;
    }
    asm_emit_bytes(a, zero, (size_t)bytes);
    if (asm_fixup_resolve(a, &f, false)) free((char *)f.pos.text);
    else VEC_PUSH(&a->fixups, f);
}

void asm_emit_word(isk_asm *a, uint64_t word)
{
    uint8_t buf[8];
    isk_section *s = &a->obj->secs.data[a->sec];
    if (s->type == SHT_NOBITS) {
        asm_error(a, NULL, "instructions cannot go into %s (a NOBITS section)", s->name);
        return;
    }
    if (!asm_room(a, (uint64_t)a->insn_bytes, NULL)) return;
    if (s->size % (uint64_t)a->insn_bytes)
        asm_warning(a, NULL, "instruction at offset 0x%" PRIx64 " of %s is not aligned to its %d bytes", s->size,
                    s->name, a->insn_bytes);
    if (s->align < (uint64_t)a->insn_bytes) s->align = (uint64_t)a->insn_bytes;
    asm_put_word(a, buf, a->insn_bytes, word);
    asm_line_note(a, isk_obj_append(a->obj, a->sec, buf, (size_t)a->insn_bytes));
}

/* ---- instructions ------------------------------------------------------------------------ */

typedef struct operand_start { int32_t expr; const char *at; } operand_start;

typedef struct operand_parse_state {
    isk_asm *a;
    VEC(operand_start) starts;
} operand_parse_state;

/* The syntax matcher's hook for numeric operands: a full expression. A value that is not
 * known yet (or is an address, or even an error) is handed back as deferred, with the
 * expression as its handle, so that the template still matches; errors are reported when the
 * operand is resolved. */
static bool parse_operand(void *user, const char **p, int64_t *value, bool *deferred)
{
    operand_parse_state *ps = user;
    isk_asm *a = ps->a;
    const char *start = *p;
    a->operand_mode = true;
    int32_t e = asm_expr_parse(a, p, true);
    a->operand_mode = false;
    if (e < 0) return false;
    asm_value v;
    char err[200];
    if (asm_expr_eval(a, e, false, &v, err, sizeof err) == EV_OK && v.kind == VAL_ABS) {
        *value = v.k;
        *deferred = false;
        return true;
    }
    *value = e;
    *deferred = true;
    VEC_PUSH(&ps->starts, ((operand_start){ e, start }));
    return true;
}

int asm_emit_instruction(isk_asm *a, const char *text)
{
    if (asm_section_is_nobits(a)) {
        asm_error(a, text, "instructions cannot go into %s (a NOBITS section)", a->obj->secs.data[a->sec].name);
        return -1;
    }
    operand_parse_state ps = { a, { 0 } };
    uint64_t offset = asm_offset(a);
    size_t mark = a->nodes.len, fixups = a->fixups.len;
    isk_syntax_env env = { parse_operand, &ps, offset / (uint64_t)a->pc_unit, a->index };
    isk_encoded enc;
    char err[256];
    int at = 0;
    if (!isk_syntax_encode(a->m, text, &env, &enc, err, sizeof err, &at)) {
        asm_error(a, text + at, "%s", err);
        VEC_FREE(&ps.starts);
        a->nodes.len = mark;
        return -1;
    }
    asm_emit_word(a, enc.word);
    const isk_pattern *p = &a->m->patterns.data[enc.pattern];
    for (int i = 0; i < p->nfields; i++) {
        if (!enc.deferred[i]) continue;
        const char *start = text;
        for (size_t k = 0; k < ps.starts.len; k++)
            if (ps.starts.data[k].expr == (int32_t)enc.ops[i]) start = ps.starts.data[k].at;
        asm_fixup f = new_fixup(a, FX_INSN, (int32_t)enc.ops[i], asm_col(a, start));
        f.offset = offset;
        f.pc = env.pc;
        f.pattern = (int16_t)enc.pattern;
        f.field = (int16_t)i;
        if (asm_fixup_resolve(a, &f, false)) free((char *)f.pos.text);
        else VEC_PUSH(&a->fixups, f);
    }
    VEC_FREE(&ps.starts);
    if (a->fixups.len == fixups) a->nodes.len = mark;      /* no operand waits: reuse the nodes */
    return enc.pattern;
}

/* ---- alignment --------------------------------------------------------------------------- */

void asm_align(isk_asm *a, uint64_t align, bool have_fill, int64_t fill, uint64_t max_skip)
{
    isk_section *s = &a->obj->secs.data[a->sec];
    if (align < 2) return;
    uint64_t pad = (align - s->size % align) % align;
    if (max_skip && pad > max_skip) return;
    if (!asm_room(a, pad, NULL)) return;
    if (align > s->align) s->align = align;
    if (!pad) return;
    if (s->type == SHT_NOBITS) {
        isk_obj_append(a->obj, a->sec, NULL, (size_t)pad);
        return;
    }
    /* Code is padded with the model's nop where whole instructions fit, as GNU as does. */
    bool code = (s->flags & SHF_EXECINSTR) && !have_fill && a->nop_pattern >= 0;
    uint64_t head = code ? (a->insn_bytes - s->size % (uint64_t)a->insn_bytes) % (uint64_t)a->insn_bytes : pad;
    if (head > pad) head = pad;
    uint8_t b = (uint8_t)fill;
    for (uint64_t i = 0; i < head; i++) isk_obj_append(a->obj, a->sec, &b, 1);
    if (!code) return;
    uint8_t word[8];
    asm_put_word(a, word, a->insn_bytes, a->m->patterns.data[a->nop_pattern].match);
    uint64_t left = pad - head;
    for (; left >= (uint64_t)a->insn_bytes; left -= (uint64_t)a->insn_bytes)
        isk_obj_append(a->obj, a->sec, word, (size_t)a->insn_bytes);
    if (left) isk_obj_append(a->obj, a->sec, NULL, (size_t)left);
}
