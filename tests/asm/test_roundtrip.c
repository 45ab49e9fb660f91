/* The toolchain's property test, for every instruction of every built-in model (models added
 * later are picked up through isk_builtin_model_name()):
 *
 *   encode random valid operands -> word; decode and print it (aliases as the disassembler
 *   shows them); assemble the text again -> the same word.
 *
 * Each text is assembled twice: by the syntax layer alone, and by the whole assembler, all
 * texts of a model as one source file (so labels, expressions and the operand rules of the
 * front end are in the loop too). The count per model is printed. */
#include <inttypes.h>
#include <stdlib.h>

#include "asm/asm.h"
#include "asm/disasm.h"
#include "asm/syntax.h"
#include "check.h"

#ifndef SAMPLES
#define SAMPLES 12
#endif

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next_random(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return rng_state = x;
}

/* A random value in [lo, hi], with the edges and small values drawn often. */
static int64_t random_in(int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    switch (next_random() % 6) {
    case 0: return lo;
    case 1: return hi;
    case 2: return lo <= 0 && hi >= 0 ? 0 : lo;
    case 3: return lo <= 1 && hi >= 1 ? 1 : hi;
    default: return span == UINT64_MAX ? (int64_t)next_random() : (int64_t)((uint64_t)lo + next_random() % (span + 1));
    }
}

/* Put a random valid operand into field f of *word; false if none was found. */
static bool random_operand(const isk_model *m, const isk_field *f, uint64_t pc, uint64_t *word)
{
    const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
    char err[200];
    for (int attempt = 0; attempt < 64; attempt++) {
        if (k && k->d.type == ISK_KIND_NAMES) {
            int64_t v = k->names.data[next_random() % k->names.len].value, back;
            /* Only values the assembler can produce: some tables give a second code to a name
             * for the decoder only (the DPU's ext_sub_set_cc 34..37). */
            const char *shown = isk_kind_name_of(k, v);
            if (!isk_kind_lookup(k, shown, strlen(shown), &back) || back != v) continue;
            uint64_t w = *word;
            if (isk_field_insert(f, v, &w) && isk_field_in_domain(m, f, v)) {
                *word = w;
                return true;
            }
            continue;
        }
        int64_t lo, hi, v;
        isk_syntax_field_range(m, f, &lo, &hi);
        int kscale = k ? k->d.scale : 0;
        if (k && k->d.type == ISK_KIND_PCREL && !(k->d.min < k->d.max)) {
            /* Pick the offset, then the target it means. */
            int64_t off = random_in(lo, hi);
            v = (int64_t)(pc + (uint64_t)k->d.pc_bias + ((uint64_t)off << kscale));
        } else {
            if (!(k && k->d.min < k->d.max) && kscale) lo = (int64_t)((uint64_t)lo << kscale), hi = (int64_t)((uint64_t)hi << kscale);
            v = random_in(lo, hi);
            int align = f->scale + kscale;
            if (align) v = (int64_t)((uint64_t)v & ~((UINT64_C(1) << align) - 1));
        }
        uint64_t w = *word;
        if (isk_syntax_insert(m, f, v, pc, &w, err, sizeof err)) {
            *word = w;
            return true;
        }
    }
    return false;
}

typedef struct sample { uint64_t word; int pattern; char text[256]; } sample;

static void roundtrip_model(const char *name)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load(name, &diag);
    CHECK(m != NULL);
    if (!m) return;
    int unit = isk_asm_insn_bytes(m), pcu = isk_asm_pc_unit_bytes(m);
    VEC(sample) samples = { 0 };
    int instructions = 0, failures = 0, ambiguous = 0;
    for (size_t pi = 0; pi < m->patterns.len; pi++) {
        const isk_pattern *p = &m->patterns.data[pi];
        if (!p->info.syntax) continue;
        instructions++;
        for (int s = 0; s < SAMPLES; s++) {
            uint64_t pc = (uint64_t)samples.len * (uint64_t)unit / (uint64_t)pcu;
            uint64_t word = p->match;
            bool ok = true;
            for (int f = 0; f < p->nfields && ok; f++) ok = random_operand(m, &p->field[f], pc, &word);
            if (!ok) {
                fprintf(stderr, "%s: '%s': found no valid operands\n", name, p->info.syntax);
                failures++;
                break;
            }
            sample smp = { .word = word, .pattern = (int)pi };
            if (!isk_disasm_word(m, word, pc, smp.text, sizeof smp.text)) {
                fprintf(stderr, "%s: '%s': word 0x%" PRIx64 " does not decode\n", name, p->info.syntax, word);
                failures++;
                continue;
            }
            isk_encoded enc;
            char err[256];
            int at;
            isk_syntax_env env = { .pc = pc };
            if (!isk_syntax_encode(m, smp.text, &env, &enc, err, sizeof err, &at)) {
                fprintf(stderr, "%s: '%s': 0x%" PRIx64 " -> \"%s\" -> %s\n", name, p->info.syntax, word, smp.text, err);
                failures++;
                continue;
            }
            if (enc.word != word) {
                /* Another encoding with the very same text is the model's syntax being
                 * ambiguous (two forms print alike); a different text is a failure. */
                char again[256];
                isk_disasm_word(m, enc.word, pc, again, sizeof again);
                if (strcmp(again, smp.text) != 0) {
                    fprintf(stderr, "%s: '%s': 0x%" PRIx64 " -> \"%s\" -> 0x%" PRIx64 " -> \"%s\"\n", name,
                            p->info.syntax, word, smp.text, enc.word, again);
                    failures++;
                    continue;
                }
                if (ambiguous++ < 3)
                    fprintf(stderr, "%s: note: \"%s\" is both 0x%" PRIx64 " ('%s') and 0x%" PRIx64 " ('%s')\n", name,
                            smp.text, word, p->info.syntax, enc.word, m->patterns.data[enc.pattern].info.syntax);
                smp.word = enc.word;
            }
            VEC_PUSH(&samples, smp);
        }
    }
    /* The same texts through the whole assembler, as one file. */
    VEC(char) src = { 0 };
    for (size_t i = 0; i < samples.len; i++) {
        size_t n = strlen(samples.data[i].text);
        VEC_RESERVE(&src, n + 2);
        memcpy(src.data + src.len, samples.data[i].text, n);
        src.len += n;
        src.data[src.len++] = '\n';
    }
    isk_diag_buffer out;
    isk_diag adiag;
    isk_diag_init(&adiag);
    isk_diag_capture(&adiag, &out);
    adiag.max_errors = 20;
    isk_asm *a = isk_asm_new(m, "roundtrip.o", NULL, &adiag);
    isk_asm_text(a, "roundtrip.s", src.data ? src.data : "", src.len);
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    int asm_mismatches = 0;
    if (!o) {
        fprintf(stderr, "%s: the assembler refused the printed texts:\n%s", name, out.text ? out.text : "");
        asm_mismatches = (int)samples.len;
    } else {
        const isk_section *text = &o->secs.data[isk_obj_find_section(o, ".text")];
        CHECK_EQ(text->size, samples.len * (uint64_t)unit);
        for (size_t i = 0; i < samples.len && (i + 1) * (uint64_t)unit <= text->size; i++) {
            uint64_t w = 0;
            for (int b = 0; b < unit; b++)
                w |= (uint64_t)text->data[i * (size_t)unit + (size_t)(o->big_endian ? unit - 1 - b : b)] << (8 * b);
            if (w != samples.data[i].word && asm_mismatches++ < 10)
                fprintf(stderr, "%s: assembler: \"%s\" -> 0x%" PRIx64 ", expected 0x%" PRIx64 "\n", name,
                        samples.data[i].text, w, samples.data[i].word);
        }
    }
    isk_obj_free(o);
    isk_diag_buffer_free(&out);
    CHECK_EQ(failures, 0);
    CHECK_EQ(asm_mismatches, 0);
    printf("round trip: model %-10s %4d instructions, %6zu words encoded, printed and assembled back%s\n", name,
           instructions, samples.len, failures || asm_mismatches ? " (WITH FAILURES)" : "");
    if (ambiguous)
        printf("            (%d of them print like another encoding, which the assembler chose instead)\n", ambiguous);
    VEC_FREE(&src);
    VEC_FREE(&samples);
    isk_model_release(m);
}

int main(void)
{
    for (int i = 0; isk_builtin_model_name(i); i++) roundtrip_model(isk_builtin_model_name(i));
    return CHECK_DONE();
}
