#include "asm/dwarf_line.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* The line program's fixed parameters (what GNU as uses): special opcodes cover line steps
 * -5..8 with address steps of 0..17 instructions. */
enum { LINE_BASE = -5, LINE_RANGE = 14, OPCODE_BASE = 13 };
enum {
    DW_LNS_copy = 1, DW_LNS_advance_pc, DW_LNS_advance_line, DW_LNS_set_file, DW_LNS_set_column,
    DW_LNS_negate_stmt, DW_LNS_set_basic_block, DW_LNS_const_add_pc, DW_LNS_fixed_advance_pc,
    DW_LNS_set_prologue_end, DW_LNS_set_epilogue_begin, DW_LNS_set_isa,
};
enum { DW_LNE_end_sequence = 1, DW_LNE_set_address, DW_LNE_define_file };
static const uint8_t std_lengths[OPCODE_BASE - 1] = { 0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1 };

/* ---- encoding ---- */

static void put(isk_bytes *o, uint8_t b) { VEC_PUSH(o, b); }

static void put_n(isk_bytes *o, bool be, int n, uint64_t v)
{
    for (int i = 0; i < n; i++) put(o, (uint8_t)(v >> 8 * (be ? n - 1 - i : i)));
}

static void patch_n(isk_bytes *o, size_t at, bool be, int n, uint64_t v)
{
    for (int i = 0; i < n; i++) o->data[at + (size_t)i] = (uint8_t)(v >> 8 * (be ? n - 1 - i : i));
}

static void put_uleb(isk_bytes *o, uint64_t v)
{
    do {
        uint8_t b = v & 0x7f;
        v >>= 7;
        put(o, (uint8_t)(b | (v ? 0x80 : 0)));
    } while (v);
}

static void put_sleb(isk_bytes *o, int64_t v)
{
    for (;;) {
        uint8_t b = v & 0x7f;
        v >>= 7;                         /* arithmetic shift on every compiler we build with */
        bool done = (v == 0 && !(b & 0x40)) || (v == -1 && (b & 0x40));
        put(o, (uint8_t)(b | (done ? 0 : 0x80)));
        if (done) return;
    }
}

static void put_str(isk_bytes *o, const char *s)
{
    do put(o, (uint8_t)*s); while (*s++);
}

void isk_dwarf_line_encode(isk_bytes *out, bool big_endian, int addr_size, int min_insn, const char *const *files,
                           size_t nfiles, const isk_dwarf_seq *seqs, size_t nseqs, uint64_t *addr_at)
{
    bool be = big_endian;
    size_t unit = out->len;
    put_n(out, be, 4, 0);                       /* unit_length, patched below */
    put_n(out, be, 2, 3);                       /* version */
    size_t hlen = out->len;
    put_n(out, be, 4, 0);                       /* header_length, patched below */
    put(out, (uint8_t)min_insn);
    put(out, 1);                                /* default_is_stmt */
    put(out, (uint8_t)(int8_t)LINE_BASE);
    put(out, LINE_RANGE);
    put(out, OPCODE_BASE);
    for (int i = 0; i < OPCODE_BASE - 1; i++) put(out, std_lengths[i]);
    put(out, 0);                                /* no include directories: names are as given */
    for (size_t i = 0; i < nfiles; i++) {
        put_str(out, files[i]);
        put_uleb(out, 0);                       /* directory: the compilation's */
        put_uleb(out, 0);                       /* mtime, length: unknown */
        put_uleb(out, 0);
    }
    put(out, 0);
    patch_n(out, hlen, be, 4, out->len - hlen - 4);
    for (size_t s = 0; s < nseqs; s++) {
        const isk_dwarf_seq *q = &seqs[s];
        put(out, 0);
        put_uleb(out, (uint64_t)addr_size + 1);
        put(out, DW_LNE_set_address);
        if (addr_at) addr_at[s] = out->len - unit;
        put_n(out, be, addr_size, q->start);
        uint64_t at = 0;
        uint32_t file = 0, line = 1, col = 0;   /* DWARF file 1 is files[0] */
        for (size_t r = 0; r < q->nrows; r++) {
            const isk_dwarf_erow *w = &q->rows[r];
            if (w->file != file) {
                put(out, DW_LNS_set_file);
                put_uleb(out, (uint64_t)w->file + 1);
                file = w->file;
            }
            if (w->column != col) {
                put(out, DW_LNS_set_column);
                put_uleb(out, w->column);
                col = w->column;
            }
            int64_t dline = (int64_t)w->line - line;
            uint64_t dpc = (w->offset - at) / (uint64_t)min_insn;
            if (dline < LINE_BASE || dline >= LINE_BASE + LINE_RANGE) {
                put(out, DW_LNS_advance_line);
                put_sleb(out, dline);
                dline = 0;
            }
            uint64_t op = (uint64_t)(dline - LINE_BASE) + LINE_RANGE * dpc + OPCODE_BASE;
            if (dpc > 255 || op > 255) {
                put(out, DW_LNS_advance_pc);
                put_uleb(out, dpc);
                op = (uint64_t)(dline - LINE_BASE) + OPCODE_BASE;
            }
            put(out, (uint8_t)op);
            at = w->offset;
            line = w->line;
        }
        if (q->end > at) {
            put(out, DW_LNS_advance_pc);
            put_uleb(out, (q->end - at) / (uint64_t)min_insn);
        }
        put(out, 0);
        put_uleb(out, 1);
        put(out, DW_LNE_end_sequence);
    }
    patch_n(out, unit, be, 4, out->len - unit - 4);
}

/* ---- decoding ---- */

typedef struct cursor {
    const uint8_t *d;
    size_t at, end;
    bool be, bad;
} cursor;

static uint64_t get_n(cursor *c, int n)
{
    if (c->bad || c->end - c->at < (size_t)n) {
        c->bad = true;
        return 0;
    }
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)c->d[c->at + (size_t)i] << 8 * (c->be ? n - 1 - i : i);
    c->at += (size_t)n;
    return v;
}

static uint64_t get_uleb(cursor *c)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        uint8_t b = (uint8_t)get_n(c, 1);
        if (c->bad) return 0;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
}

static int64_t get_sleb(cursor *c)
{
    uint64_t v = 0;
    int shift = 0;
    uint8_t b;
    do {
        b = (uint8_t)get_n(c, 1);
        if (c->bad) return 0;
        if (shift < 64) v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
    } while (b & 0x80);
    if (shift < 64 && (b & 0x40)) v |= ~UINT64_C(0) << shift;
    return (int64_t)v;
}

static const char *get_str(cursor *c)
{
    if (c->bad) return "";
    const void *nul = memchr(c->d + c->at, 0, c->end - c->at);
    if (!nul) {
        c->bad = true;
        return "";
    }
    const char *s = (const char *)c->d + c->at;
    c->at = (size_t)((const uint8_t *)nul - c->d) + 1;
    return s;
}

static void skip(cursor *c, uint64_t n)
{
    if (c->bad || n > c->end - c->at) c->bad = true;
    else c->at += (size_t)n;
}

/* A string of .debug_str/.debug_line_str at offset off; NULL if it is outside. */
static const char *str_at(const uint8_t *s, size_t size, uint64_t off)
{
    if (!s || off >= size || !memchr(s + off, 0, size - (size_t)off)) return NULL;
    return (const char *)s + off;
}

typedef struct unit_ctx {
    const uint8_t *str, *line_str;
    size_t str_size, line_str_size;
    int offset_size;
} unit_ctx;

enum {
    DW_FORM_block = 0x09, DW_FORM_block1 = 0x0a, DW_FORM_data1 = 0x0b, DW_FORM_data2 = 0x05, DW_FORM_data4 = 0x06,
    DW_FORM_data8 = 0x07, DW_FORM_string = 0x08, DW_FORM_udata = 0x0f, DW_FORM_strp = 0x0e,
    DW_FORM_line_strp = 0x1f, DW_FORM_data16 = 0x1e, DW_FORM_sdata = 0x0d,
};

/* One DWARF 5 attribute value: *s for strings, *v for numbers; false for a form we do not know. */
static bool get_form(cursor *c, const unit_ctx *u, uint64_t form, const char **s, uint64_t *v)
{
    *s = NULL;
    *v = 0;
    switch (form) {
    case DW_FORM_string: *s = get_str(c); return true;
    case DW_FORM_strp: *s = str_at(u->str, u->str_size, get_n(c, u->offset_size)); return true;
    case DW_FORM_line_strp: *s = str_at(u->line_str, u->line_str_size, get_n(c, u->offset_size)); return true;
    case DW_FORM_udata: *v = get_uleb(c); return true;
    case DW_FORM_sdata: *v = (uint64_t)get_sleb(c); return true;
    case DW_FORM_data1: *v = get_n(c, 1); return true;
    case DW_FORM_data2: *v = get_n(c, 2); return true;
    case DW_FORM_data4: *v = get_n(c, 4); return true;
    case DW_FORM_data8: *v = get_n(c, 8); return true;
    case DW_FORM_data16: skip(c, 16); return true;
    case DW_FORM_block: skip(c, get_uleb(c)); return true;
    case DW_FORM_block1: skip(c, get_n(c, 1)); return true;
    default: return false;
    }
}

static char *join(const char *dir, const char *name)
{
    if (!dir || !*dir || name[0] == '/') return isk_xstrdup(name);
    return isk_xasprintf("%s/%s", dir, name);
}

typedef VEC(const char *) str_list;
typedef VEC(uint64_t) u64_list;

/* DWARF 5 directory or file entries: their paths (and directory indices) into names/dirs. */
static bool v5_entries(cursor *c, const unit_ctx *u, str_list *paths, u64_list *dirs, char *err,
                       size_t errlen)
{
    uint8_t nformats = (uint8_t)get_n(c, 1);
    uint64_t fmt[2 * 255];
    for (int i = 0; i < nformats; i++) {
        fmt[2 * i] = get_uleb(c);
        fmt[2 * i + 1] = get_uleb(c);
    }
    uint64_t count = get_uleb(c);
    if (count > c->end - c->at) c->bad = true;     /* every entry takes a byte at least */
    for (uint64_t k = 0; k < count && !c->bad; k++) {
        const char *path = "";
        uint64_t dir = 0;
        for (int i = 0; i < nformats; i++) {
            const char *s;
            uint64_t v;
            if (!get_form(c, u, fmt[2 * i + 1], &s, &v)) {
                snprintf(err, errlen, "offset 0x%zx: unknown DWARF 5 form 0x%" PRIx64, c->at, fmt[2 * i + 1]);
                return false;
            }
            if (fmt[2 * i] == 1) path = s ? s : "?";          /* DW_LNCT_path */
            if (fmt[2 * i] == 2) dir = v;                     /* DW_LNCT_directory_index */
        }
        VEC_PUSH(paths, path);
        if (dirs) VEC_PUSH(dirs, dir);
    }
    return true;
}

static bool unit(cursor *all, const unit_ctx *base, isk_dwarf_reloc_fn reloc, void *user, isk_dwarf_lines *out,
                 char *err, size_t errlen)
{
    size_t start = all->at;
    unit_ctx u = *base;
    u.offset_size = 4;
    uint64_t len = get_n(all, 4);
    if (len == 0xffffffffu) {
        u.offset_size = 8;
        len = get_n(all, 8);
    }
    if (all->bad || len > all->end - all->at) {
        snprintf(err, errlen, "offset 0x%zx: unit length 0x%" PRIx64 " goes past the section's end", start, len);
        return false;
    }
    cursor c = { all->d, all->at, all->at + (size_t)len, all->be, false };
    all->at = c.end;
    unsigned version = (unsigned)get_n(&c, 2);
    if (version < 2 || version > 5) {
        snprintf(err, errlen, "offset 0x%zx: DWARF line table version %u (2 to 5 are known)", start, version);
        return false;
    }
    if (version >= 5) get_n(&c, 2);               /* address_size, segment_selector_size */
    uint64_t hlen = get_n(&c, u.offset_size);
    if (c.bad || hlen > c.end - c.at) {
        snprintf(err, errlen, "offset 0x%zx: header length 0x%" PRIx64 " goes past the unit's end", start, hlen);
        return false;
    }
    size_t program = c.at + (size_t)hlen;
    unsigned min_insn = (unsigned)get_n(&c, 1);
    if (version >= 4) get_n(&c, 1);               /* maximum_operations_per_instruction: VLIW only */
    bool default_stmt = get_n(&c, 1) != 0;
    int line_base = (int8_t)get_n(&c, 1);
    unsigned line_range = (unsigned)get_n(&c, 1), opcode_base = (unsigned)get_n(&c, 1);
    if (!c.bad && (line_range == 0 || opcode_base == 0)) {
        snprintf(err, errlen, "offset 0x%zx: line_range %u, opcode_base %u (both must be nonzero)", start, line_range,
                 opcode_base);
        return false;
    }
    uint8_t lengths[256] = { 0 };
    for (unsigned i = 1; i < opcode_base; i++) lengths[i] = (uint8_t)get_n(&c, 1);
    size_t file_base = out->files.len;
    str_list dirs = { 0 }, names = { 0 };
    u64_list name_dirs = { 0 };
    bool ok = true;
    if (version >= 5) {
        ok = v5_entries(&c, &u, &dirs, NULL, err, errlen) && v5_entries(&c, &u, &names, &name_dirs, err, errlen);
    } else {
        VEC_PUSH(&dirs, "");                      /* directory 0: the compilation's */
        for (const char *s = get_str(&c); *s && !c.bad; s = get_str(&c)) VEC_PUSH(&dirs, s);
        for (const char *s = get_str(&c); *s && !c.bad; s = get_str(&c)) {
            VEC_PUSH(&names, s);
            VEC_PUSH(&name_dirs, get_uleb(&c));
            get_uleb(&c);
            get_uleb(&c);
        }
    }
    if (ok && c.bad) {
        snprintf(err, errlen, "offset 0x%zx: the unit's header is cut short", start);
        ok = false;
    }
    for (size_t i = 0; ok && i < names.len; i++) {
        uint64_t d = name_dirs.data[i];
        VEC_PUSH(&out->files, join(d < dirs.len ? dirs.data[d] : NULL, names.data[i]));
    }
    VEC_FREE(&dirs);
    VEC_FREE(&names);
    VEC_FREE(&name_dirs);
    if (!ok) return false;
    c.at = program;
    /* The state machine (DWARF 5 section 6.2.2). */
    uint32_t first = version >= 5 ? 0 : 1;
    isk_dwarf_row st;
    uint32_t sec = 0;
#define RESET() (st = (isk_dwarf_row){ .file = 1, .line = 1, .stmt = default_stmt }, sec = 0)
#define EMIT() do { \
        isk_dwarf_row r_ = st; \
        r_.sec = sec; \
        r_.file = st.file >= first && st.file - first < out->files.len - file_base \
                  ? (uint32_t)(file_base + st.file - first) : UINT32_MAX; \
        VEC_PUSH(&out->rows, r_); \
    } while (0)
    RESET();
    while (c.at < c.end && !c.bad) {
        size_t op_at = c.at;
        unsigned op = (unsigned)get_n(&c, 1);
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            st.addr += (uint64_t)(adj / line_range) * min_insn;
            st.line += (uint32_t)(line_base + (int)(adj % line_range));
            EMIT();
            continue;
        }
        switch (op) {
        case 0: {
            uint64_t n = get_uleb(&c);
            if (c.bad || n == 0 || n > c.end - c.at) {
                snprintf(err, errlen, "offset 0x%zx: extended opcode of length %" PRIu64 " past the unit's end", op_at, n);
                return false;
            }
            size_t next = c.at + (size_t)n;
            unsigned sub = (unsigned)get_n(&c, 1);
            if (sub == DW_LNE_end_sequence) {
                st.end = true;
                EMIT();
                RESET();
            } else if (sub == DW_LNE_set_address) {
                if (n - 1 > 8) {
                    snprintf(err, errlen, "offset 0x%zx: a %" PRIu64 "-byte address", op_at, n - 1);
                    return false;
                }
                uint64_t at = c.at;
                st.addr = get_n(&c, (int)(n - 1));
                if (reloc) st.addr = reloc(user, at, st.addr, &sec);
            } else if (sub == DW_LNE_define_file && version < 5) {
                const char *s = get_str(&c);      /* its directory index: not kept (obsolete opcode) */
                get_uleb(&c);
                if (!c.bad) VEC_PUSH(&out->files, isk_xstrdup(s));
            }
            c.at = next;                          /* discriminators and vendor opcodes: skipped */
            break;
        }
        case DW_LNS_copy: EMIT(); break;
        case DW_LNS_advance_pc: st.addr += get_uleb(&c) * min_insn; break;
        case DW_LNS_advance_line: st.line += (uint32_t)get_sleb(&c); break;
        case DW_LNS_set_file: st.file = (uint32_t)get_uleb(&c); break;
        case DW_LNS_set_column: st.column = (uint32_t)get_uleb(&c); break;
        case DW_LNS_negate_stmt: st.stmt = !st.stmt; break;
        case DW_LNS_const_add_pc: st.addr += (uint64_t)((255 - opcode_base) / line_range) * min_insn; break;
        case DW_LNS_fixed_advance_pc: st.addr += get_n(&c, 2); break;
        default:                                  /* basic_block, prologue_end, isa, unknown: operands skipped */
            for (unsigned i = 0; i < lengths[op]; i++) get_uleb(&c);
            break;
        }
    }
#undef EMIT
#undef RESET
    if (c.bad) {
        snprintf(err, errlen, "offset 0x%zx: the line program is cut short", c.at);
        return false;
    }
    return true;
}

bool isk_dwarf_line_decode(const uint8_t *data, size_t size, bool big_endian, const uint8_t *str, size_t str_size,
                           const uint8_t *line_str, size_t line_str_size, isk_dwarf_reloc_fn reloc, void *user,
                           isk_dwarf_lines *out, char *err, size_t errlen)
{
    cursor c = { data, 0, size, big_endian, false };
    unit_ctx u = { str, line_str, str_size, line_str_size, 4 };
    while (c.at < c.end)
        if (!unit(&c, &u, reloc, user, out, err, errlen)) return false;
    return true;
}

void isk_dwarf_lines_free(isk_dwarf_lines *l)
{
    for (size_t i = 0; i < l->files.len; i++) free(l->files.data[i]);
    VEC_FREE(&l->files);
    VEC_FREE(&l->rows);
}

/* ---- an object's table ---- */

static const isk_section *section_named(const isk_obj *o, const char *name)
{
    uint32_t i = isk_obj_find_section(o, name);
    return i && o->secs.data[i].type != SHT_NOBITS && o->secs.data[i].data ? &o->secs.data[i] : NULL;
}

typedef struct reloc_user { const isk_obj *o; const isk_section *dl; } reloc_user;

/* In an object, a sequence's address is its relocation's: the section symbol plus the addend. */
static uint64_t object_address(void *user, uint64_t at, uint64_t raw, uint32_t *sec)
{
    const reloc_user *u = user;
    for (size_t i = 0; i < u->dl->relocs.len; i++) {
        const isk_obj_reloc *r = &u->dl->relocs.data[i];
        if (r->offset != at || r->sym >= u->o->syms.len) continue;
        const isk_symbol *s = &u->o->syms.data[r->sym];
        if (s->shndx < u->o->secs.len) *sec = s->shndx;
        return s->value + (uint64_t)r->addend;
    }
    return raw;
}

bool isk_obj_lines(const isk_obj *o, isk_dwarf_lines *out, char *err, size_t errlen)
{
    const isk_section *dl = section_named(o, ".debug_line");
    if (!dl || !dl->size) return true;
    const isk_section *str = section_named(o, ".debug_str"), *lstr = section_named(o, ".debug_line_str");
    reloc_user u = { o, dl };
    return isk_dwarf_line_decode(dl->data, dl->size, o->big_endian, str ? str->data : NULL, str ? str->size : 0,
                                 lstr ? lstr->data : NULL, lstr ? lstr->size : 0,
                                 o->type == ET_EXEC ? NULL : object_address, &u, out, err, errlen);
}
