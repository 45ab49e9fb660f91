/* The decoder tree against a brute-force reference, for every built-in model: the tree may
 * stop splitting early and keep several candidates in a leaf, and must still pick, for every
 * word, what the rule it implements picks: among the decodable (non-alias) formats of the
 * instruction set that accept the word (fixed bits match, every field in its domain), the one
 * of highest priority, ties to the lowest index, with the same operands. */
#include "check.h"
#include "engine/model_desc.h"
#include "isekit/sim.h"

#define RANDOM_WORDS 100000     /* per model and instruction set */
#define WORDS_PER_FORMAT 100    /* each format's match with random don't-care bits */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint64_t next_random(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static bool accepts(const isk_model *m, const isk_pattern *p, uint64_t w, int64_t ops[ISK_MAX_OPS])
{
    if ((w & p->mask) != p->match) return false;
    for (int i = 0; i < p->nfields; i++) {
        ops[i] = isk_field_extract(&p->field[i], w);
        if (!isk_field_in_domain(m, &p->field[i], ops[i])) return false;
    }
    return true;
}

/* The reference: every decodable format of the set, keeping the best that accepts. */
static int reference_decode(const isk_model *m, int iset, uint64_t w, int64_t ops[ISK_MAX_OPS])
{
    int best = -1;
    for (size_t i = 0; i < m->patterns.len; i++) {
        const isk_pattern *p = &m->patterns.data[i];
        int64_t v[ISK_MAX_OPS] = { 0 };
        if (p->alias || p->info.iset != iset) continue;
        if (best >= 0 && p->priority <= m->patterns.data[best].priority) continue;
        if (!accepts(m, p, w, v)) continue;
        best = (int)i;
        memcpy(ops, v, sizeof v);
    }
    return best;
}

static int mismatches;

static void compare_word(const isk_model *m, int iset, uint64_t w)
{
    int64_t want[ISK_MAX_OPS] = { 0 }, got[ISK_MAX_OPS] = { 0 };
    w &= m->word_mask;
    int expected = reference_decode(m, iset, w, want);
    int decoded = isk_model_decode_iset(m, iset, w, got);
    bool same = decoded == expected && (expected < 0 || memcmp(want, got, sizeof want) == 0);
    if (!same && mismatches++ < 5)
        fprintf(stderr, "model %s set %d word 0x%llx: decoded %d, reference %d\n", m->name, iset,
                (unsigned long long)w, decoded, expected);
    CHECK(same);
}

static void check_model(const char *name)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load(name, &diag);
    CHECK(m != NULL);
    if (!m) return;
    size_t words = 0;
    for (int iset = 0; iset < m->isets; iset++) {
        for (int i = 0; i < RANDOM_WORDS; i++, words++) compare_word(m, iset, next_random());
        for (size_t i = 0; i < m->patterns.len; i++) {
            const isk_pattern *p = &m->patterns.data[i];
            for (int k = 0; k < WORDS_PER_FORMAT; k++, words++)
                compare_word(m, iset, p->match | (next_random() & ~p->mask));
        }
    }
    printf("%-12s %zu formats, %d set(s): %zu words compared\n", name, m->patterns.len, m->isets, words);
    isk_model_release(m);
}

int main(void)
{
    for (int i = 0; isk_builtin_model_name(i); i++) check_model(isk_builtin_model_name(i));
    CHECK(isk_builtin_model_count() > 0);
    return CHECK_DONE();
}
