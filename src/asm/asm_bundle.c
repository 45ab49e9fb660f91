/* Issue groups in assembly: "{ a ; b }" on one line, or '{', the members and '}' on lines of
 * their own, for a model with PROCESSOR .group_bit. Each member is encoded as on its own; when
 * the '}' closes a group of exactly .group_words instructions, the group bit is set on its
 * first word (on every word with .group_all). The assembler does not pad: a group must start
 * at a multiple of .group_align words (its size unless the model says less), and one that does
 * not is an error saying how to align it. */
#include <inttypes.h>
#include <string.h>

#include "asm/asm_int.h"
#include "asm/syntax.h"

/* The alignment of a group's start in bytes (the section is aligned to it too). */
static int group_bytes(const isk_asm *a) { return a->m->proc.group_align * a->insn_bytes; }

static void open_bundle(isk_asm *a, const char *brace)
{
    const isk_model *m = a->m;
    if (m->proc.group_bit <= 0) {
        asm_error(a, brace, "instruction bundles '{ ... }' are not supported for model '%s' (it has no issue "
                  "groups)", m->name);
        return;
    }
    isk_section *s = &a->obj->secs.data[a->sec];
    if (s->align < (uint64_t)group_bytes(a)) s->align = (uint64_t)group_bytes(a);   /* the linker keeps it aligned */
    a->bundle.open = true;
    a->bundle.sec = a->sec;
    a->bundle.start = s->size;
    a->bundle.members = 0;
    a->bundle.failed = false;
    a->bundle.pos = a->pos;
    a->bundle.pos.text = a->pos.text ? asm_intern_n(a, a->pos.text, (size_t)a->pos.text_len) : NULL;
    a->bundle.col = asm_col(a, brace);
    if (s->size % (uint64_t)group_bytes(a)) {
        asm_error(a, brace, "bundle at offset 0x%" PRIx64 " of %s is not aligned to %d bytes: the assembler does "
                  "not insert padding; put an instruction before it or '.align %d'", s->size, s->name,
                  group_bytes(a), group_bytes(a));
        a->bundle.failed = true;
    }
}

/* An alias has the options of the instruction it spells. */
static const isk_instruction_info *declared(const isk_model *m, int pattern)
{
    const isk_pattern *p = &m->patterns.data[pattern];
    return p->alias && p->base >= 0 ? &m->patterns.data[p->base].info : &p->info;
}

static void member(isk_asm *a, char *text)
{
    const isk_model *m = a->m;
    const size_t word = strcspn(text, " \t,");
    if (*text == '.' && asm_is_conditional(text, word)) {    /* .if/.else/.endif may choose members */
        asm_directive(a, text, word, text + word);
        return;
    }
    if (*text == '.' || *text == '{') {
        asm_error(a, text, "only instructions and conditionals (.if, .else, .endif) may be in a bundle (another "
                  "directive, a label or a nested '{' may not)");
        a->bundle.failed = true;
        return;
    }
    if (++a->bundle.members > m->proc.group_words) {
        asm_error(a, text, "a bundle of model '%s' holds %d instructions: this is instruction %d", m->name,
                  m->proc.group_words, a->bundle.members);
        a->bundle.failed = true;
        return;
    }
    int pattern = asm_emit_instruction(a, text);
    if (pattern < 0) {
        a->bundle.failed = true;
        return;
    }
    const char *mn;
    const int n = (int)isk_syntax_mnemonic(m->patterns.data[pattern].info.syntax, &mn);
    const isk_instruction_info *d = declared(m, pattern);
    if (d->solo) {
        asm_error(a, text, "'%.*s' may not be in a bundle: it issues alone (INSTRUCTION .solo)", n, mn);
        a->bundle.failed = true;
    } else if (d->group_slot && d->group_slot != a->bundle.members) {
        asm_error(a, text, "'%.*s' must be instruction %d of a bundle, not %d (INSTRUCTION .group_slot)", n, mn, d->group_slot, a->bundle.members);
        a->bundle.failed = true;
    }
}

static void close_bundle(isk_asm *a, const char *brace)
{
    const isk_model *m = a->m;
    a->bundle.open = false;
    if (a->bundle.members < m->proc.group_words) {
        asm_error(a, brace, "a bundle of %d instruction%s: model '%s' bundles exactly %d (separated by ';' or "
                  "newlines)", a->bundle.members, a->bundle.members == 1 ? "" : "s", m->name, m->proc.group_words);
        return;
    }
    if (a->bundle.failed) return;
    isk_section *s = &a->obj->secs.data[a->bundle.sec];
    const uint64_t bit = UINT64_C(1) << m->proc.group_bit;
    for (int i = 0; i < (m->proc.group_all ? m->proc.group_words : 1); i++) {
        uint8_t *p = s->data + a->bundle.start + (uint64_t)i * (uint64_t)a->insn_bytes;
        asm_put_word(a, p, a->insn_bytes, asm_get_word(a, p, a->insn_bytes) | bit);
    }
}

void asm_bundle_statement(isk_asm *a, char *s)
{
    s = (char *)asm_skip(s);
    if (!a->bundle.open) {
        if (*s == '}') {
            asm_error(a, s, "'}' without '{'");
            return;
        }
        open_bundle(a, s);
        if (!a->bundle.open) return;
        s = (char *)asm_skip(s + 1);
    }
    /* Members up to the '}' (the statement splitter keeps "{ a ; b }" whole: split it here). */
    char *close = strchr(s, '}');
    if (close) *close = 0;
    char *rest = s, *st;
    while ((st = asm_next_statement(&rest)))
        if (*asm_skip(st)) member(a, (char *)asm_skip(st));
    if (!close) return;
    close_bundle(a, close);
    if (!asm_at_end(close + 1)) asm_error(a, asm_skip(close + 1), "text after the bundle's '}': end the line or ';'");
}

void asm_bundle_finish(isk_asm *a)
{
    if (!a->bundle.open) return;
    a->bundle.open = false;
    asm_error_pos(a, &a->bundle.pos, a->bundle.col, "bundle '{' without '}'");
}
