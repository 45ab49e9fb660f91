/* Loading a model: run its description through the builder, check it, index it.
 * Also the read-only introspection API of isekit/sim.h. */
#include <ctype.h>
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/num.h"
#include "base/str.h"
#include "engine/model_desc.h"
#include "engine/system.h"

/* The built-in models: each registers a pointer to its entry in this section (model.h,
 * ISK_REGISTER_BUILTIN), so the engine names none of them and a program holds those it links.
 * The linker defines the bounds; weak, as a program may link no model at all. */
extern const struct isk_model_entry *const __start_isk_builtin_models[] __attribute__((weak));
extern const struct isk_model_entry *const __stop_isk_builtin_models[] __attribute__((weak));

int isk_builtin_model_count(void)
{
    return __start_isk_builtin_models ? (int)(__stop_isk_builtin_models - __start_isk_builtin_models) : 0;
}

const char *isk_builtin_model_name(int i)
{
    return i >= 0 && i < isk_builtin_model_count() ? __start_isk_builtin_models[i]->name : NULL;
}

typedef struct model_builder {
    isk_builder pub;
    isk_model *m;
    isk_diag *diag;
    int group;               /* the register file REGISTER() names elements of, or -1 */
    int line;                /* of the declaration being described, 0 = unknown */
    int processor_line;      /* of PROCESSOR */
    int exception_line;      /* of ON_EXCEPTION */
    size_t state_size;
    uint64_t max_bytes;      /* ISEKIT_MAX_STORAGE */
    uint64_t bytes;          /* what one instance's storage takes so far */
    VEC(isk_storage) named;  /* every storage the description named, accepted or not (seq, lines, name) */
} model_builder;

static model_builder *mb(isk_builder *b) { return b->engine; }

/* The n characters at src (none of them NUL) as a string in dst, cut to fit as
 * snprintf("%.*s") would: loading a model copies every syntax operand's kind name and every
 * relocation's name so, and snprintf cost ~600 host instructions a copy. */
static void copy_cut(char *dst, size_t cap, const char *src, size_t n)
{
    if (n > cap - 1) n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static void vline_error(const isk_model *m, isk_diag *diag, int line, const char *fmt, va_list ap)
{
    isk_loc at = { .file = m->file, .line = line, .text_len = -1 };
    isk_diag_vreport(diag, ISK_ERROR, m->file ? &at : NULL, fmt, ap);
}

/* An error about the declaration being described, at its line of the description. */
__attribute__((format(printf, 2, 3))) static void desc_error(model_builder *B, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline_error(B->m, B->diag, B->line, fmt, ap);
    va_end(ap);
}

/* The same about a declaration checked once the whole description is known, at its line. */
__attribute__((format(printf, 4, 5))) static void line_error(const isk_model *m, isk_diag *diag, int line,
                                                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vline_error(m, diag, line, fmt, ap);
    va_end(ap);
}

static void b_line(isk_builder *b, int line) { mb(b)->line = line; }

/* "1 GiB", "1.5 MiB", "640 bytes": sizes in messages, next to the exact byte count. */
static void human_bytes(uint64_t n, char *out, size_t cap)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    int u = 0;
    double v = (double)n;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0) snprintf(out, cap, "%llu bytes", (unsigned long long)n);
    else snprintf(out, cap, v == (double)(uint64_t)v ? "%.0f %s" : "%.1f %s", v, units[u]);
}

/* The bound on one instance's storage: ISEKIT_MAX_STORAGE or 1 GiB (16 times the DPU's MRAM),
 * so that a huge declaration fails at load, naming it, rather than at allocation. */
#define ISK_DEFAULT_MAX_STORAGE (UINT64_C(1) << 30)
static bool storage_bound(uint64_t *out, isk_diag *diag)
{
    const char *env = getenv("ISEKIT_MAX_STORAGE");
    char why[160];
    *out = ISK_DEFAULT_MAX_STORAGE;
    if (!env || !*env) return true;
    if (isk_parse_u64(env, 1, UINT64_MAX, ISK_UNIT_BYTES, out, why, sizeof why)) return true;
    isk_error(diag, NULL, "ISEKIT_MAX_STORAGE=%s: %s (write bytes, e.g. 4G or 4096MiB)", env, why);
    return false;
}

/* Bytes one instance allocates for a storage: its cells, and for code memory the decoded-
 * instruction cache beside them. false if that overflows 64 bits. */
static bool storage_bytes(const isk_storage_decl *d, uint64_t *out)
{
    uint64_t per_cell = (uint64_t)d->cell_bytes + (d->kind == ISK_CODE_MEMORY ? sizeof(isk_decoded) : 0);
    return !__builtin_mul_overflow(d->count, per_cell, out);
}

/* A declaration built by hand (not by the macros of model.h) may hold anything: check what
 * the macros guarantee at compile time, since the engine relies on it. */
static bool storage_shape_ok(model_builder *B, const isk_storage_decl *d)
{
    static const int class_bytes[] = { 1, 2, 4, 8 };
    const char *why = NULL;
    if (!d->name || !*d->name) why = "has no name";
    else if (d->kind < ISK_MEMORY || d->kind > ISK_CODE_MEMORY) why = "has an unknown kind";
    else if (d->width < 1 || d->width > 64) why = "must be 1..64 bits wide";
    else if (d->latency < 0 || d->latency > ISK_MAX_LATENCY) why = "must have a latency of 0..63 clocks";
    else if (d->frac < 0 || d->frac > d->width) why = "has more fraction bits than its width";
    else if (d->sign != 0 && d->sign != 1) why = "has a bad signedness";
    else if (d->display < ISK_DISPLAY_INT || d->display > ISK_DISPLAY_F16X2) why = "has an unknown display format";
    else if (d->display != ISK_DISPLAY_INT &&
             (d->sign || d->frac || d->width != (d->display == ISK_DISPLAY_F16 ? 16 : d->display == ISK_DISPLAY_F64 ? 64 : 32)))
        why = "has a float display format that does not fit its width (FLOAT(16) is UINT(16), FLOAT(16x2) UINT(32))";
    else if (d->count < 1) why = "needs at least one cell";
    else if (d->cell_bytes != class_bytes[d->width <= 8 ? 0 : d->width <= 16 ? 1 : d->width <= 32 ? 2 : 3])
        why = "has cells of the wrong size for its width";
    else if (d->offset < sizeof(isk_hdr) || d->offset % sizeof(void *) ||
             d->offset > B->state_size || B->state_size - d->offset < sizeof(void *) + sizeof(uint64_t))
        why = "lies outside the model's state";
    if (why) desc_error(B, "model '%s': storage '%s' %s", B->m->name, d->name ? d->name : "", why);
    return !why;
}

/* Refuse a storage that would take more than the bound, alone or with those before it. */
static bool storage_size_ok(model_builder *B, const isk_storage_decl *d)
{
    uint64_t bytes;
    char size[32], bound[32];
    human_bytes(B->max_bytes, bound, sizeof bound);
    if (!storage_bytes(d, &bytes)) {
        desc_error(B, "model '%s': storage '%s' declares %llu cells of %d bytes: more than 2^64 bytes", B->m->name,
                   d->name, (unsigned long long)d->count, d->cell_bytes);
        return false;
    }
    human_bytes(bytes, size, sizeof size);
    if (bytes > B->max_bytes) {
        desc_error(B,
                   "model '%s': storage '%s' declares %llu cells of %d bytes = %llu bytes (%s), more than "
                   "the %s an instance may hold (raise it with ISEKIT_MAX_STORAGE, e.g. ISEKIT_MAX_STORAGE=%lluG)",
                   B->m->name, d->name, (unsigned long long)d->count, d->cell_bytes, (unsigned long long)bytes,
                   size, bound, (unsigned long long)(bytes >> 30) + 1);
        return false;
    }
    if (bytes > B->max_bytes - B->bytes) {
        char total[32];
        human_bytes(B->bytes + bytes, total, sizeof total);
        desc_error(B,
                   "model '%s': storage '%s' (%s) brings an instance's storage to %llu bytes (%s), more than "
                   "the %s it may hold (raise it with ISEKIT_MAX_STORAGE, e.g. ISEKIT_MAX_STORAGE=%lluG)",
                   B->m->name, d->name, size, (unsigned long long)(B->bytes + bytes), total, bound,
                   (unsigned long long)((B->bytes + bytes) >> 30) + 1);
        return false;
    }
    B->bytes += bytes;
    return true;
}

static void b_model(isk_builder *b, const char *name, const char *title)
{
    isk_model *m = mb(b)->m;
    free(m->name);
    free(m->title);
    m->name = isk_xstrdup(name);
    m->title = isk_xstrdup(title ? title : name);
}

static void b_word_bits(isk_builder *b, int bits)
{
    isk_model *m = mb(b)->m;
    if (bits < 8 || bits > 64) {
        desc_error(mb(b), "model '%s': WORD_BITS(%d): the word must be 8..64 bits", m->name, bits);
        return;
    }
    m->word_bits = bits;
    m->word_mask = bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

static void b_slots(isk_builder *b, int n)
{
    if (n < 1 || n > 4096) {
        desc_error(mb(b), "model '%s': SLOTS(%d): an accelerator needs 1..4096 slots", mb(b)->m->name, n);
        return;
    }
    mb(b)->m->slots = n;
}

static void b_storage(isk_builder *b, const isk_storage_decl *d)
{
    model_builder *B = mb(b);
    isk_model *m = B->m;
    B->group = -1;
    VEC_PUSH(&B->named, ((isk_storage){ .info.name = isk_xstrdup(d->name ? d->name : ""), .seq = d->seq,
                                        .state_line = d->line, .line = B->line }));
    if (!storage_shape_ok(B, d)) return;
    int twice = isk_model_find_storage(m, d->name);
    if (twice >= 0) {
        desc_error(B, "model '%s': storage '%s' is named twice (first at line %d)", m->name, d->name,
                   m->storages.data[twice].line);
        return;
    }
    if (!storage_size_ok(B, d)) return;
    isk_storage s = { .offset = d->offset, .cell_bytes = d->cell_bytes, .seq = d->seq, .state_line = d->line,
                      .line = B->line, .private_storage = d->private_storage };
    s.info = (isk_storage_info){
        .name = isk_xstrdup(d->name), .title = isk_xstrdup(d->title ? d->title : d->name),
        .kind = d->kind, .width = d->width, .sign = d->sign, .latency = d->latency, .frac = d->frac,
        .shared = d->shared, .count = d->count, .display = d->display,
    };
    VEC_PUSH(&m->storages, s);
    if (d->kind == ISK_REGFILE) B->group = (int)m->storages.len - 1;
}

/* Names are stored per register and checked for duplicates: a bound keeps a REGISTERS("r%u")
 * on a file of millions of cells from taking seconds and gigabytes at load. */
#define ISK_MAX_NAMED_REGISTERS 65536

static void b_element(isk_builder *b, uint64_t index, const char *name)
{
    model_builder *B = mb(b);
    if (B->group < 0) {
        desc_error(B, "model '%s': REGISTER(%llu, \"%s\") outside REGFILE_BEGIN/REGFILE_END",
                  B->m->name, (unsigned long long)index, name);
        return;
    }
    isk_storage *s = &B->m->storages.data[B->group];
    if (s->info.count > ISK_MAX_NAMED_REGISTERS) {
        desc_error(B, "model '%s': REGISTER(%llu, \"%s\"): '%s' has %llu registers; only files of at most %d "
                   "registers may name them", B->m->name, (unsigned long long)index, name, s->info.name,
                   (unsigned long long)s->info.count, ISK_MAX_NAMED_REGISTERS);
        B->group = -1;     /* one message for the whole file */
        return;
    }
    if (index >= s->info.count) {
        desc_error(B, "model '%s': REGISTER(%llu, \"%s\"): '%s' has only %llu registers", B->m->name,
                  (unsigned long long)index, name, s->info.name, (unsigned long long)s->info.count);
        return;
    }
    if (!s->elements) s->elements = isk_xcalloc(s->info.count, sizeof *s->elements);
    free(s->elements[index]);
    s->elements[index] = isk_xstrdup(name);
    s->info.element_names = (const char *const *)s->elements;
}

static void b_end_group(isk_builder *b) { mb(b)->group = -1; }

/* A pattern with exactly one integer conversion: %d %u %x %X, optionally with a width. */
static bool one_integer_conversion(const char *p)
{
    int conversions = 0;
    for (; *p; p++) {
        if (*p != '%') continue;
        if (p[1] == '%') {
            p++;
            continue;
        }
        p++;
        while (*p >= '0' && *p <= '9') p++;
        if (*p != 'd' && *p != 'u' && *p != 'x' && *p != 'X') return false;
        conversions++;
    }
    return conversions == 1;
}

static void b_elements(isk_builder *b, const char *pattern)
{
    model_builder *B = mb(b);
    if (!one_integer_conversion(pattern)) {
        desc_error(B, "model '%s': REGISTERS(\"%s\") needs exactly one %%d, %%u, %%x or %%X", B->m->name,
                  pattern);
        return;
    }
    if (B->group < 0) {
        desc_error(B, "model '%s': REGISTERS(\"%s\") outside REGFILE_BEGIN/REGFILE_END", B->m->name, pattern);
        return;
    }
    uint64_t n = B->m->storages.data[B->group].info.count;
    for (uint64_t i = 0; i < n && B->group >= 0; i++) {
        char name[64];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(name, sizeof name, pattern, (unsigned)i);
#pragma GCC diagnostic pop
        b_element(b, i, name);
    }
}

static void b_resource(isk_builder *b, uint64_t mask, const char *name)
{
    if (!mask || (mask & (mask - 1))) {
        desc_error(mb(b), "model '%s': RESOURCE(0x%llx, \"%s\"): a resource is one bit", mb(b)->m->name,
                  (unsigned long long)mask, name);
        return;
    }
    VEC_PUSH(&mb(b)->m->resources, ((isk_resource_info){ mask, isk_xstrdup(name ? name : "") }));
    VEC_PUSH(&mb(b)->m->resource_lines, mb(b)->line);
}

static void b_kind(isk_builder *b, const isk_kind_decl *d)
{
    isk_kind_add(mb(b)->m, d, mb(b)->diag);
}

static char *dup_or_null(const char *s) { return s ? isk_xstrdup(s) : NULL; }

static void b_instruction(isk_builder *b, const isk_insn_decl *d)
{
    model_builder *B = mb(b);
    isk_model *m = B->m;
    if (!m->word_bits) {
        desc_error(B, "model '%s': WORD_BITS must come before the first INSTRUCTION", m->name);
        return;
    }
    isk_pattern p = { .beh = d->behaviour, .priority = d->priority, .alias = d->alias, .base = -1,
                      .line = B->line, .inert = d->inert || d->interrupts_at_end,
                      .interrupts_at_end = d->interrupts_at_end };
    if (!isk_parse_format(m, &p, d, B->diag)) return;
    if (d->flow < ISK_FLOW_NONE || d->flow > ISK_FLOW_RETURN) {
        desc_error(B, "model '%s': INSTRUCTION \"%s\" .flow = %d: a flow is ISK_FLOW_CALL, ISK_FLOW_RETURN or 0",
                   m->name, d->format, d->flow);
        return;
    }
    p.info = (isk_instruction_info){
        .format = isk_xstrdup(d->format), .behaviour = d->behaviour->name, .syntax = dup_or_null(d->syntax),
        .fields = dup_or_null(d->fields), .relocs = dup_or_null(d->relocs), .priority = d->priority,
        .alias = d->alias, .iset = d->iset,
        .mask = p.mask, .match = p.match, .solo = d->solo, .group_slot = d->group_slot,
        .flow = d->flow,
    };
    VEC_PUSH(&m->patterns, p);
}

static void b_processor(isk_builder *b, const isk_processor_decl *d)
{
    model_builder *B = mb(b);
    isk_model *m = B->m;
    m->is_processor = true;
    m->proc = *d;
    B->processor_line = B->line;
    if (m->proc.contexts < 1 || m->proc.contexts > ISK_MAX_CONTEXTS) {
        desc_error(B, "model '%s': PROCESSOR(.contexts = %d): a processor has 1..%d contexts", m->name,
                   m->proc.contexts, ISK_MAX_CONTEXTS);
        m->proc.contexts = 1;
    }
    if (d->isets < 0 || d->isets > ISK_MAX_ISETS)
        desc_error(B, "model '%s': PROCESSOR(.isets = %d): a processor has 1..%d instruction sets (0 means 1)",
                   m->name, d->isets, ISK_MAX_ISETS);
    else
        m->isets = d->isets > 1 ? d->isets : 1;
    if (m->proc.issue < ISK_ISSUE_CPI || m->proc.issue > ISK_ISSUE_MODEL) {
        desc_error(B, "model '%s': PROCESSOR .issue must be one of ISK_ISSUE_CPI, _REVOLVER, _BARREL, _MODEL",
                   m->name);
        m->proc.issue = ISK_ISSUE_CPI;
    }
    if (m->proc.issue == ISK_ISSUE_MODEL &&
        (!d->scheduler || !d->scheduler->pick || !d->scheduler->issued || !d->scheduler->next)) {
        desc_error(B, "model '%s': PROCESSOR .issue = ISK_ISSUE_MODEL needs .scheduler with pick, issued and next",
                   m->name);
        m->proc.issue = ISK_ISSUE_CPI;
    }
    if (m->proc.issue == ISK_ISSUE_CPI && m->proc.cpi < 1) m->proc.cpi = 1;
    if (m->proc.issue == ISK_ISSUE_REVOLVER && m->proc.distance < 1) m->proc.distance = 1;
    if (m->proc.group_align == 0) m->proc.group_align = m->proc.group_words;   /* checked in check_groups */
    m->proc.code = dup_or_null(d->code);
}

static void b_param(isk_builder *b, const isk_param_decl *d)
{
    char why[512];
    if (!isk_param_add(mb(b)->m, d, why, sizeof why)) desc_error(mb(b), "model '%s': %s", mb(b)->m->name, why);
}

static void b_init(isk_builder *b, void (*fn)(isk_hdr *h)) { mb(b)->m->reset = fn; }

static void b_exception_handler(isk_builder *b, void (*fn)(isk_hdr *h, int cause, const char *message))
{
    mb(b)->m->on_exception = fn;
    mb(b)->exception_line = mb(b)->line;
}

static void b_elf(isk_builder *b, const isk_elf_decl *d)
{
    isk_model *m = mb(b)->m;
    if (d->elfclass != 32 && d->elfclass != 64)
        desc_error(mb(b), "model '%s': ELF_FORMAT(.elfclass = %d): 32 or 64", m->name, d->elfclass);
    m->has_elf = true;
    m->elf = *d;
}

static void b_gdb(isk_builder *b, const isk_gdb_decl *d)
{
    isk_model *m = mb(b)->m;
    if (!d->registers || !*d->registers) {
        desc_error(mb(b), "model '%s': GDB_TARGET needs .registers (gdb's register order)", m->name);
        return;
    }
    m->has_gdb = true;
    m->gdb = (isk_gdb_decl){ dup_or_null(d->arch), isk_xstrdup(d->registers), dup_or_null(d->feature), d->context_stride };
}

static void b_region(isk_builder *b, const isk_region_decl *d)
{
    isk_region_decl r = *d;
    r.name = isk_xstrdup(d->name ? d->name : "?");
    r.sections = dup_or_null(d->sections);
    r.storage = dup_or_null(d->storage);
    VEC_PUSH(&mb(b)->m->regions, r);
}

static void b_reloc(isk_builder *b, const isk_reloc_decl *d)
{
    model_builder *B = mb(b);
    isk_reloc r = { .d = *d };
    if (d->bytes < 1 || d->bytes > 8) {
        desc_error(B, "model '%s': relocation %s: .bytes must be 1..8", B->m->name, d->name);
        return;
    }
    if (d->fields && !isk_parse_field_map(d->fields, d->bytes * 8, &r.field, B->diag)) return;
    if (!d->fields) {
        r.field.nseg = 1;
        r.field.seg[0] = (isk_segment){ 0, 0, (uint8_t)(d->bytes * 8) };
        r.field.value_bits = d->bytes * 8;
        r.field.word_bits = d->bytes == 8 ? ~UINT64_C(0) : (UINT64_C(1) << (d->bytes * 8)) - 1;
    }
    r.d.name = isk_xstrdup(d->name);
    r.d.fields = dup_or_null(d->fields);
    VEC_PUSH(&B->m->relocs, r);
}

static const struct isk_builder_ops builder_ops = {
    b_model, b_word_bits, b_slots, b_storage, b_element, b_end_group, b_resource,
    b_kind, b_instruction, b_processor, b_param, b_init, b_elf, b_region, b_reloc, b_elements, b_line,
    b_exception_handler, b_gdb,
};

/* Link each operand to the kind its syntax template names: "{GREG:gr}". */
static void bind_kinds(isk_model *m, isk_pattern *p, isk_diag *diag)
{
    const char *s = p->info.syntax;
    if (!s) return;
    while ((s = strchr(s, '{'))) {
        const char *close = strchr(s, '}');
        if (!close) {
            line_error(m, diag, p->line, "model '%s': syntax '%s' has an unclosed '{'", m->name, p->info.syntax);
            return;
        }
        const char *colon = memchr(s, ':', (size_t)(close - s));
        const char *name_end = colon ? colon : close;
        isk_field *f = NULL;
        for (int i = 0; i < p->nfields; i++)
            if (strlen(p->field[i].name) == (size_t)(name_end - s - 1) &&
                strncmp(p->field[i].name, s + 1, (size_t)(name_end - s - 1)) == 0)
                f = &p->field[i];
        if (!f) {
            line_error(m, diag, p->line, "model '%s': syntax '%s' names '%.*s', which is no operand of '%s'", m->name,
                       p->info.syntax, (int)(name_end - s - 1), s + 1, p->info.format);
        } else if (colon) {
            char kind[64];
            copy_cut(kind, sizeof kind, colon + 1, (size_t)(close - colon - 1));
            f->kind = isk_kind_find(m, kind);
            if (f->kind < 0)
                line_error(m, diag, p->line, "model '%s': syntax '%s' uses the undeclared operand kind '%s'", m->name,
                           p->info.syntax, kind);
        }
        s = close + 1;
    }
}

/* Behaviour parameters bind to fields by position; a parameter named like a field (ignoring
 * case) must sit at that field's position. */
static void check_parameters(isk_model *m, const isk_pattern *p, isk_diag *diag)
{
    const isk_behaviour_info *beh = p->beh;
    if (beh->nparams != p->nfields) {
        line_error(m, diag, p->line, "model '%s': behaviour %s takes %d operand(s) but format '%s' has %d", m->name,
                   beh->name, beh->nparams, p->info.format, p->nfields);
        return;
    }
    const char *s = beh->params;
    for (int i = 0; i < beh->nparams; i++) {
        while (*s == ' ' || *s == ',') s++;
        const char *start = s;
        while (*s && *s != ',' && *s != ' ') s++;
        size_t len = (size_t)(s - start);
        for (int j = 0; j < p->nfields; j++)
            if (j != i && strlen(p->field[j].name) == len && strncasecmp(p->field[j].name, start, len) == 0)
                line_error(m, diag, p->line,
                           "model '%s': behaviour %s parameter %d is '%.*s' but operand '%s' of '%s' is "
                           "at position %d (operands bind left to right)",
                           m->name, beh->name, i + 1, (int)len, start, p->field[j].name, p->info.format, j + 1);
    }
}

/* Each operand's relocation: its kind's, unless .relocs names another ("imm=R_X pc=R_Y"). */
static void bind_relocs(isk_model *m, isk_pattern *p, isk_diag *diag)
{
    for (int i = 0; i < p->nfields; i++) {
        const char *kind_reloc = p->field[i].kind >= 0 ? m->kinds.data[p->field[i].kind].d.reloc : NULL;
        p->reloc[i] = kind_reloc ? isk_model_find_reloc(m, kind_reloc) : -1;
        if (kind_reloc && p->reloc[i] < 0)
            line_error(m, diag, p->line, "model '%s': operand kind '%s' uses the undeclared relocation %s", m->name,
                       m->kinds.data[p->field[i].kind].d.name, kind_reloc);
    }
    for (const char *s = p->info.relocs; s && *s;) {
        s += strspn(s, " ");
        size_t item = strcspn(s, " "), name_len = strcspn(s, "= ");
        if (!item) break;
        char reloc[64];
        copy_cut(reloc, sizeof reloc, s + name_len + 1, s[name_len] == '=' ? item - name_len - 1 : 0);
        int f = 0;
        while (f < p->nfields && !(strlen(p->field[f].name) == name_len && !strncmp(p->field[f].name, s, name_len))) f++;
        if (f == p->nfields || !*reloc)
            line_error(m, diag, p->line,
                       "model '%s': .relocs of '%s': '%.*s' is not OPERAND=RELOCATION for an operand of it", m->name,
                       p->info.format, (int)item, s);
        else if ((p->reloc[f] = isk_model_find_reloc(m, reloc)) < 0)
            line_error(m, diag, p->line, "model '%s': .relocs of '%s' names the undeclared relocation %s", m->name,
                       p->info.format, reloc);
        s += item;
    }
}

static void link_aliases(isk_model *m, isk_diag *diag)
{
    for (size_t i = 0; i < m->patterns.len; i++) {
        isk_pattern *a = &m->patterns.data[i];
        if (!a->alias) continue;
        for (size_t j = 0; j < m->patterns.len && a->base < 0; j++) {
            const isk_pattern *p = &m->patterns.data[j];
            if (!p->alias && p->beh == a->beh && p->info.iset == a->info.iset && (p->mask & ~a->mask) == 0 &&
                (a->match & p->mask) == p->match)
                a->base = (int)j;
        }
        if (a->base < 0)
            line_error(m, diag, a->line, "model '%s': alias '%s' (%s) is no special case of any instruction of %s%s",
                       m->name, a->info.format, a->info.syntax ? a->info.syntax : "", a->beh->name,
                       m->isets > 1 ? " in its instruction set" : "");
    }
}

/* Every storage declared between STATE_BEGIN and STATE_END must be named in the description:
 * the engine would otherwise leave its cell pointer NULL. The declarations are numbered 1..n
 * (model.h), so a missing number is a storage never named; its neighbours tell where it is. */
static void check_declared(const isk_model *m, const model_builder *B, const struct isk_model_entry *e,
                           isk_diag *diag)
{
    if (e->storages <= 0) return;
    const char *state_file = e->state_file ? e->state_file : m->file;
    for (int k = 1; k <= e->storages; k++) {
        const isk_storage *before = NULL, *after = NULL;
        bool named = false;
        for (size_t i = 0; i < B->named.len; i++) {
            const isk_storage *s = &B->named.data[i];
            if (s->seq == k) named = true;
            if (s->seq > 0 && s->seq < k && (!before || s->seq > before->seq)) before = s;
            if (s->seq > k && (!after || s->seq < after->seq)) after = s;
        }
        if (named) continue;
        int from = before ? before->state_line : e->state_line;
        /* The line is known when the neighbours leave room for one declaration only. */
        isk_loc at = { .file = state_file, .line = after && after->state_line == from + 2 ? from + 1 : 0,
                       .text_len = -1 };
        char *first = before ? isk_xasprintf("after '%s' (line %d)", before->info.name, from)
                             : isk_xasprintf("after STATE_BEGIN (line %d)", from);
        char *where = after ? isk_xasprintf("%s and before '%s' (line %d)", first, after->info.name, after->state_line)
                            : isk_xstrdup(first);
        isk_error(diag, at.file ? &at : NULL,
                  "model '%s': storage number %d of STATE_BEGIN..STATE_END, %s, is not named in the "
                  "description (%s: MEMORY, SHARED_MEMORY, REG or REGFILE_BEGIN)",
                  m->name, k, where, m->file ? m->file : m->source);
        free(first);
        free(where);
    }
}

/* A display name and what it names: a storage's member name (element -1), its title (-2) or
 * one of its registers. */
typedef struct display_name {
    const char *name;
    int storage;
    int64_t element;
} display_name;

static int display_name_cmp(const void *a, const void *b)
{
    const display_name *x = a, *y = b;
    int c = strcasecmp(x->name, y->name);
    if (c) return c;
    if (x->storage != y->storage) return x->storage < y->storage ? -1 : 1;
    return (x->element > y->element) - (x->element < y->element);
}

static char *display_name_owner(const isk_model *m, const display_name *d)
{
    const isk_storage *s = &m->storages.data[d->storage];
    if (d->element == -1) return isk_xasprintf("storage '%s' (line %d)", s->info.name, s->line);
    if (d->element == -2) return isk_xasprintf("the title of '%s' (line %d)", s->info.name, s->line);
    return isk_xasprintf("register %lld of '%s' (line %d)", (long long)d->element, s->info.name, s->line);
}

/* Storage is found by display name (isk_lookup: a member name, a title or a register name, in
 * any case): of two things with one name, one could never be reached. A storage's own name,
 * title and single register may agree. */
static void check_display_names(const isk_model *m, isk_diag *diag)
{
    VEC(display_name) all = { 0 };
    for (size_t i = 0; i < m->storages.len; i++) {
        const isk_storage *s = &m->storages.data[i];
        VEC_PUSH(&all, ((display_name){ s->info.name, (int)i, -1 }));
        if (strcasecmp(s->info.title, s->info.name) != 0) VEC_PUSH(&all, ((display_name){ s->info.title, (int)i, -2 }));
        for (uint64_t e = 0; s->elements && e < s->info.count; e++)
            if (s->elements[e]) VEC_PUSH(&all, ((display_name){ s->elements[e], (int)i, (int64_t)e }));
    }
    if (all.len) qsort(all.data, all.len, sizeof *all.data, display_name_cmp);
    int reported = 0;
    for (size_t j = 1; j < all.len && reported < 10; j++) {
        const display_name *a = &all.data[j - 1], *b = &all.data[j];
        if (strcasecmp(a->name, b->name) != 0 || (a->storage == b->storage && (a->element < 0 || b->element < 0)))
            continue;
        char *first = display_name_owner(m, a), *second = display_name_owner(m, b);
        isk_loc at = { .file = m->file, .line = m->storages.data[b->storage].line, .text_len = -1 };
        isk_error(diag, m->file ? &at : NULL, "model '%s': the display name '%s' is both %s and %s", m->name,
                  b->name, first, second);
        free(first);
        free(second);
        reported++;
    }
    VEC_FREE(&all);
}

/* Resources are compared bit by bit (UseResources): two names for one bit are a mistake. */
static void check_resources(const isk_model *m, isk_diag *diag)
{
    int first[64];
    for (int i = 0; i < 64; i++) first[i] = -1;
    for (size_t i = 0; i < m->resources.len; i++) {
        int bit = __builtin_ctzll(m->resources.data[i].mask);
        if (first[bit] < 0) {
            first[bit] = (int)i;
            continue;
        }
        isk_loc at = { .file = m->file, .line = m->resource_lines.data[i], .text_len = -1 };
        isk_error(diag, m->file ? &at : NULL,
                  "model '%s': resources '%s' (line %d) and '%s' (line %d) are both bit %d (0x%llx)", m->name,
                  m->resources.data[first[bit]].name, m->resource_lines.data[first[bit]], m->resources.data[i].name,
                  m->resource_lines.data[i], bit, (unsigned long long)m->resources.data[i].mask);
    }
}

/* INSTRUCTION .iset names one of the processor's instruction sets. Checked once the whole
 * description is known: PROCESSOR may come after the instructions. */
static void check_isets(const isk_model *m, const model_builder *B, isk_diag *diag)
{
    for (size_t i = 0; i < m->patterns.len; i++) {
        const isk_pattern *p = &m->patterns.data[i];
        int iset = p->info.iset;
        if (iset != 0 && !m->is_processor)
            line_error(m, diag, p->line,
                       "model '%s': INSTRUCTION '%s' (.iset = %d): only a PROCESSOR has instruction sets", m->name,
                       p->info.format, iset);
        else if (iset < 0 || iset >= m->isets)
            line_error(m, diag, p->line,
                       "model '%s': INSTRUCTION '%s' (.iset = %d): the PROCESSOR (line %d) has %d instruction "
                       "set(s), .iset 0..%d",
                       m->name, p->info.format, iset, B->processor_line, m->isets, m->isets - 1);
    }
}

/* Issue groups: the group bit is a bit of the word that no format uses (the decoder clears it),
 * a group is 2..4 words and starts at a multiple of group_align words (a divisor of the size). */
static void check_groups(const isk_model *m, const model_builder *B, isk_diag *diag)
{
    int bit = m->proc.group_bit, words = m->proc.group_words, align = m->proc.group_align;
    int line = B->processor_line;
    if (bit < 0 || (bit > 0 && bit >= m->word_bits)) {
        line_error(m, diag, line, "model '%s': PROCESSOR(.group_bit = %d): the group bit is one of bits 1..%d of "
                   "the %d-bit word", m->name, bit, m->word_bits - 1, m->word_bits);
        return;
    }
    if (bit == 0 && words != 0)
        line_error(m, diag, line, "model '%s': PROCESSOR(.group_words = %d) without .group_bit: name the bit that "
                   "announces a group", m->name, words);
    if (bit == 0 && m->proc.group_all)
        line_error(m, diag, line, "model '%s': PROCESSOR(.group_all = %d) without .group_bit: name the bit that "
                   "announces a group", m->name, m->proc.group_all);
    if (bit == 0 && align != words)
        line_error(m, diag, line, "model '%s': PROCESSOR(.group_align = %d) without .group_bit: name the bit that "
                   "announces a group", m->name, align);
    if (bit == 0) return;
    if (words < 2 || words > 4)
        line_error(m, diag, line, "model '%s': PROCESSOR(.group_bit = %d, .group_words = %d): an issue group is "
                   "2..4 words", m->name, bit, words);
    else if (align < 1 || words % align)
        line_error(m, diag, line, "model '%s': PROCESSOR(.group_words = %d, .group_align = %d): a group starts at a "
                   "multiple of group_align words, a divisor of group_words (0 means group_words)", m->name, words,
                   align);
    uint64_t mask = UINT64_C(1) << bit;
    for (size_t i = 0; i < m->patterns.len; i++) {
        const isk_pattern *p = &m->patterns.data[i];
        if (p->mask & mask)
            line_error(m, diag, p->line, "model '%s': format '%s' fixes bit %d, the group bit (PROCESSOR line %d): "
                       "mark it '*'", m->name, p->info.format, bit, line);
        for (int f = 0; f < p->nfields; f++)
            if (p->field[f].word_bits & mask)
                line_error(m, diag, p->line, "model '%s': format '%s' puts operand '%s' on bit %d, the group bit "
                           "(PROCESSOR line %d): mark it '*'", m->name, p->info.format, p->field[f].name, bit, line);
    }
}

/* INSTRUCTION .solo: the format's group bit becomes a fixed 0 (ISK_SOLO: a word with the group
 * bit set does not decode as it) or 1 (ISK_SOLO_BIT_SET: a word with the bit decodes as it and
 * is not a group's head); the decoder then keeps the bit in the words it looks at. After the
 * aliases are linked: their formats are compared with the base's as written. */
static void apply_solo(isk_model *m, const model_builder *B, isk_diag *diag)
{
    uint64_t bit = m->proc.group_bit > 0 ? UINT64_C(1) << m->proc.group_bit : 0;
    for (size_t i = 0; i < m->patterns.len; i++) {
        isk_pattern *p = &m->patterns.data[i];
        const int slot = p->info.group_slot;
        if (slot && (!bit || p->info.solo || slot < 0 || slot > m->proc.group_words))
            line_error(m, diag, p->line, "model '%s': INSTRUCTION '%s' (.group_slot = %d) needs issue groups of at "
                       "least that many members (PROCESSOR .group_bit, .group_words) and no .solo", m->name,
                       p->info.format, slot);
        if (!p->info.solo) continue;
        if (p->info.solo != ISK_SOLO && p->info.solo != ISK_SOLO_BIT_SET) {
            line_error(m, diag, p->line, "model '%s': INSTRUCTION '%s' (.solo = %d): .solo is ISK_SOLO (1, the "
                       "group bit a fixed 0) or ISK_SOLO_BIT_SET (2, a fixed 1)", m->name, p->info.format,
                       p->info.solo);
            continue;
        }
        if (!bit) {
            line_error(m, diag, p->line, "model '%s': INSTRUCTION '%s' (.solo = %d) but the PROCESSOR (line %d) has "
                       "no issue groups (.group_bit)", m->name, p->info.format, p->info.solo, B->processor_line);
            continue;
        }
        p->mask |= bit;
        if (p->info.solo == ISK_SOLO_BIT_SET) {
            p->match |= bit;
            m->has_solo_bit_set = true;
        }
        p->info.mask = p->mask;
        p->info.match = p->match;
        m->has_solo = true;
    }
}

isk_model *isk_model_from_entry(const struct isk_model_entry *e, const char *source, isk_diag *diag)
{
    if (e->abi_version != ISK_ABI_VERSION) {
        isk_loc at = { .file = source };
        isk_error(diag, &at, "model built for isekit model ABI %d, but this isekit uses ABI %d: rebuild the model "
                  "against this isekit's include/isekit/model.h", e->abi_version, ISK_ABI_VERSION);
        return NULL;
    }
    isk_model *m = isk_xcalloc(1, sizeof *m);
    atomic_init(&m->refs, 1);
    m->entry = e;
    m->source = isk_xstrdup(source);
    m->name = isk_xstrdup(e->name);
    m->title = isk_xstrdup(e->name);
    m->code_storage = -1;
    m->isets = 1;
    m->file = e->file ? e->file : m->source;
    int errors_before = diag->errors;
    model_builder B = { .pub = { &builder_ops, NULL }, .m = m, .diag = diag, .group = -1, .state_size = e->state_size };
    B.pub.engine = &B;
    if (storage_bound(&B.max_bytes, diag)) {
        e->describe(&B.pub);
        check_declared(m, &B, e, diag);
        check_display_names(m, diag);
        check_resources(m, diag);
        check_isets(m, &B, diag);
        if (m->is_processor) check_groups(m, &B, diag);
        if (m->on_exception && !m->is_processor)
            line_error(m, diag, B.exception_line, "model '%s': ON_EXCEPTION: only a PROCESSOR has architectural "
                       "exceptions", m->name);
    }
    for (size_t i = 0; i < B.named.len; i++) free((char *)B.named.data[i].info.name);
    VEC_FREE(&B.named);

    if (!m->word_bits && m->patterns.len == 0) {
        /* A model may have no instructions (pure storage), but then needs no word width. */
    } else if (!m->word_bits) {
        isk_error(diag, NULL, "model '%s': no WORD_BITS", m->name);
    }
    for (size_t i = 0; i < m->patterns.len; i++) {
        bind_kinds(m, &m->patterns.data[i], diag);
        bind_relocs(m, &m->patterns.data[i], diag);
        if (!m->patterns.data[i].alias) check_parameters(m, &m->patterns.data[i], diag);
    }
    link_aliases(m, diag);
    apply_solo(m, &B, diag);
    if (m->is_processor) {
        m->code_storage = m->proc.code ? isk_model_find_storage(m, m->proc.code) : -1;
        if (m->code_storage < 0 || m->storages.data[m->code_storage].info.kind != ISK_CODE_MEMORY)
            line_error(m, diag, B.processor_line,
                       "model '%s': PROCESSOR(.code = \"%s\") must name a DECLARE_CODE_MEMORY storage", m->name,
                       m->proc.code ? m->proc.code : "");
    }
    isk_addrmap_build(m, diag);
    if (diag->errors == errors_before && m->patterns.len) m->decoder = isk_decoder_build(m, diag);
    if (diag->errors != errors_before) {
        isk_model_release(m);
        return NULL;
    }
    return m;
}

static isk_model *load_shared_object(const char *so, const char *source, isk_diag *diag)
{
    void *dl = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    if (!dl) {
        isk_error(diag, NULL, "%s: cannot load the model: %s", source, dlerror());
        return NULL;
    }
    const struct isk_model_entry *e = dlsym(dl, "isk_model_entry");
    if (!e) {
        isk_error(diag, NULL, "%s: no model in it (MODEL_BEGIN ... MODEL_END missing?)", source);
        dlclose(dl);
        return NULL;
    }
    isk_model *m = isk_model_from_entry(e, source, diag);
    if (!m) {
        dlclose(dl);
        return NULL;
    }
    m->dl = dl;
    return m;
}

isk_model *isk_model_load(const char *spec, isk_diag *diag)
{
    isk_diag fallback;
    if (!diag) {
        isk_diag_init(&fallback);
        diag = &fallback;
    }
    if (isk_ends_with(spec, ".so")) return load_shared_object(spec, spec, diag);
    if (isk_ends_with(spec, ".c")) {
        char *so = isk_dynload_compile(spec, NULL, diag);
        if (!so) return NULL;
        isk_model *m = load_shared_object(so, spec, diag);
        free(so);
        return m;
    }
    int n = isk_builtin_model_count();
    for (int i = 0; i < n; i++)
        if (strcmp(__start_isk_builtin_models[i]->name, spec) == 0)
            return isk_model_from_entry(__start_isk_builtin_models[i], "built-in", diag);
    char list[256] = "";
    for (int i = 0; i < n; i++) {
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, isk_builtin_model_name(i), sizeof list - strlen(list) - 1);
    }
    if (!n) strcpy(list, "none");
    isk_error(diag, NULL, "unknown model '%s' (built-in models: %s; or give the path of a model .c file)", spec, list);
    return NULL;
}

void isk_model_release(isk_model *m)
{
    if (!m || atomic_fetch_sub(&m->refs, 1) > 1) return;
    for (size_t i = 0; i < m->storages.len; i++) {
        isk_storage *s = &m->storages.data[i];
        free((char *)s->info.name);
        free((char *)s->info.title);
        if (s->elements)
            for (uint64_t j = 0; j < s->info.count; j++) free(s->elements[j]);
        free(s->elements);
    }
    VEC_FREE(&m->storages);
    for (size_t i = 0; i < m->resources.len; i++) free((char *)m->resources.data[i].name);
    VEC_FREE(&m->resources);
    VEC_FREE(&m->resource_lines);
    for (size_t i = 0; i < m->kinds.len; i++) {
        isk_kind *k = &m->kinds.data[i];
        free((char *)k->d.name);
        free((char *)k->d.names);
        free((char *)k->d.reloc);
        for (size_t j = 0; j < k->names.len; j++) free(k->names.data[j].name);
        VEC_FREE(&k->names);
    }
    VEC_FREE(&m->kinds);
    for (size_t i = 0; i < m->patterns.len; i++) {
        isk_instruction_info *p = &m->patterns.data[i].info;
        free((char *)p->format);
        free((char *)p->syntax);
        free((char *)p->fields);
        free((char *)p->relocs);
    }
    VEC_FREE(&m->patterns);
    isk_params_free(m);
    free((char *)m->proc.code);
    free((char *)m->gdb.arch);
    free((char *)m->gdb.registers);
    free((char *)m->gdb.feature);
    for (size_t i = 0; i < m->regions.len; i++) {
        free((char *)m->regions.data[i].name);
        free((char *)m->regions.data[i].sections);
        free((char *)m->regions.data[i].storage);
    }
    VEC_FREE(&m->regions);
    isk_addrmap_free(m);
    for (size_t i = 0; i < m->relocs.len; i++) {
        free((char *)m->relocs.data[i].d.name);
        free((char *)m->relocs.data[i].d.fields);
    }
    VEC_FREE(&m->relocs);
    isk_decoder_free(m->decoder);
    void *dl = m->dl;
    free(m->source);
    free(m->name);
    free(m->title);
    free(m);
    if (dl) dlclose(dl);
}

/* ---- introspection ------------------------------------------------------------------------ */

int isk_model_find_storage(const isk_model *m, const char *name)
{
    for (size_t i = 0; i < m->storages.len; i++)
        if (strcmp(m->storages.data[i].info.name, name) == 0) return (int)i;
    return -1;
}

int isk_model_find_reloc(const isk_model *m, const char *name)
{
    for (size_t i = 0; i < m->relocs.len; i++)
        if (strcmp(m->relocs.data[i].d.name, name) == 0) return (int)i;
    return -1;
}

const char *isk_model_name(const isk_model *m) { return m->name; }
const char *isk_model_title(const isk_model *m) { return m->title; }
int isk_model_word_bits(const isk_model *m) { return m->word_bits; }
int isk_model_slots(const isk_model *m) { return m->slots; }
int isk_model_storage_count(const isk_model *m) { return (int)m->storages.len; }
const isk_storage_info *isk_model_storage(const isk_model *m, int i) { return &m->storages.data[i].info; }
int isk_model_resource_count(const isk_model *m) { return (int)m->resources.len; }
const isk_resource_info *isk_model_resource(const isk_model *m, int i) { return &m->resources.data[i]; }
int isk_model_instruction_count(const isk_model *m) { return (int)m->patterns.len; }
const isk_instruction_info *isk_model_instruction(const isk_model *m, int i) { return &m->patterns.data[i].info; }
void isk_model_coverage(const isk_model *m, isk_coverage *out) { *out = m->coverage; }

/* Set 0 first, then the others in order (sim.h): the tools find every set's instructions, and a
 * model of one set decodes as before. */
int isk_model_decode(const isk_model *m, uint64_t word, int64_t ops[ISK_MAX_OPS])
{
    for (int iset = 0; iset < m->isets; iset++) {
        int p = isk_model_decode_iset(m, iset, word, ops);
        if (p >= 0) return p;
    }
    return -1;
}
