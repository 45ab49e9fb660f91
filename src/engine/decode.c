/* The decoder: a decision tree generated from the formats when the model loads, one per
 * instruction set (PROCESSOR .isets), so that two sets may give one encoding two meanings.
 *
 * Each inner node tests a run of word bits and jumps to one child per value; each leaf holds
 * the formats that may accept the words reaching it, best first, and decoding takes the first
 * whose fixed bits and operand domains (e.g. a register field that must name a register)
 * accept the word. A node becomes a leaf as soon as one of its formats has all its fixed bits
 * tested: that format matches every word of the node, so no word below is undecodable and
 * splitting further would only copy it into every child (a general format beside specific
 * ones multiplied the DPU's tree to 0.9 M nodes). Building it yields the undecodable code space
 * (empty leaves).
 *
 * The ambiguous pairs (two formats of the same priority that operand domains cannot tell
 * apart) are looked for over all pairs first. If there is one, the tree is built the
 * exhaustive way, split until every format's fixed bits are tested, and each leaf checks its
 * pairs: the error then names the leaf's region, as it always has. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/model_desc.h"

typedef struct dnode {
    uint8_t leaf, shift, bits;
    uint32_t first;          /* inner: index of child 0; leaf: index of the first candidate */
    uint32_t count;          /* leaf: number of candidates */
} dnode;

struct isk_decoder {
    VEC(dnode) nodes;        /* every set's tree */
    VEC(int) candidates;
    VEC(uint32_t) roots;     /* per instruction set: its tree's root node */
    uint64_t word_mask;      /* the word's bits, less the group bit: what formats see */
};

typedef struct region { uint64_t mask, value; double words; } region;

/* The images of one field layout (kind, segments, scale, negation): what field_images'
 * words depend on. Most formats share their operand fields' layouts with many others (the
 * DPU's ~1000 formats have a few dozen), so the words are made once per layout. */
typedef struct layout_images {
    const isk_field *field;  /* the first field seen with this layout */
    uint64_t *words;
} layout_images;

typedef struct builder {
    isk_model *m;
    isk_decoder *d;
    isk_diag *diag;
    bool failed;
    int iset;                /* the instruction set whose tree is being built */
    double undecodable;
    region largest[8];
    int nlargest;
    bool exhaustive;         /* some pair is ambiguous: split every leaf to its end and check
                                its pairs, to name the region in the error */
    uint8_t *checked;        /* pairs of formats already compared (a bit per pair): the
                                comparison does not depend on the leaf */
    size_t npatterns;
    uint64_t **images;       /* per field of a format (format * ISK_MAX_OPS + field), made when
                                first needed: each name's value of its kind put in the field,
                                in name order; comparing pairs reuses them. Not owned: they
                                point into `layouts`, shared by fields of one layout */
    VEC(layout_images) layouts;
    struct meet_memo *meets; /* domains_meet's answers, direct-mapped (MEET_MEMO entries) */
} builder;

/* One answer of domains_meet: the words it compared (layouts' images) and the bits. Formats
 * share layouts, so the same comparison comes back for many pairs. */
typedef struct meet_memo {
    const uint64_t *f, *g;
    uint64_t overlap;
    bool meet;
} meet_memo;

#define MEET_MEMO 1024

#define MAX_NODES (1u << 22)
#define MAX_SPLIT_BITS 8

static int popcount64(uint64_t x) { return __builtin_popcountll(x); }

static bool has_domain(const isk_model *m, const isk_field *f)
{
    return f->kind >= 0 && m->kinds.data[f->kind].d.type == ISK_KIND_NAMES;
}

/* Do fields f and g put every value in the same word bits? */
static bool same_layout(const isk_field *f, const isk_field *g)
{
    return f->kind == g->kind && f->nseg == g->nseg && f->scale == g->scale && f->negate == g->negate &&
           memcmp(f->seg, g->seg, (size_t)f->nseg * sizeof f->seg[0]) == 0;
}

/* The words of field f (one with a domain) for each name of its kind, all other bits 0: made
 * once per layout, or found among those made. */
static uint64_t *layout_words(builder *b, const isk_field *f)
{
    for (size_t i = 0; i < b->layouts.len; i++)
        if (same_layout(b->layouts.data[i].field, f)) return b->layouts.data[i].words;
    const isk_kind *k = &b->m->kinds.data[f->kind];
    uint64_t *words = isk_xcalloc(k->names.len + 1, sizeof *words);
    for (size_t v = 0; v < k->names.len; v++) isk_field_insert(f, k->names.data[v].value, &words[v]);
    VEC_PUSH(&b->layouts, ((layout_images){ f, words }));
    return words;
}

/* The words of field i of format p (one with a domain) for each name of its kind, all other
 * bits 0: cached, as each format is compared with many. */
static const uint64_t *field_images(builder *b, int p, int i, size_t *n)
{
    const isk_field *f = &b->m->patterns.data[p].field[i];
    uint64_t **slot = &b->images[(size_t)p * ISK_MAX_OPS + (size_t)i];
    if (!*slot) *slot = layout_words(b, f);
    *n = b->m->kinds.data[f->kind].names.len;
    return *slot;
}

/* Is there a value in the domain of field i of format p whose bits agree with `fixed` on
 * `fixed_mask`? */
static bool domain_meets_bits(builder *b, int p, int i, uint64_t fixed_mask, uint64_t fixed)
{
    uint64_t overlap = fixed_mask & b->m->patterns.data[p].field[i].word_bits;
    if (!overlap) return true;
    size_t n;
    const uint64_t *w = field_images(b, p, i, &n);
    for (size_t v = 0; v < n; v++)
        if (((w[v] ^ fixed) & overlap) == 0) return true;
    return false;
}

/* Have field i of format p and field j of format q a pair of domain values that agree on the
 * bits both fields occupy? */
static bool domains_meet(builder *b, int p, int i, int q, int j, uint64_t overlap)
{
    size_t nf, ng;
    const uint64_t *wf = field_images(b, p, i, &nf), *wg = field_images(b, q, j, &ng);
    uint64_t h = ((uint64_t)(uintptr_t)wf * 31 + (uint64_t)(uintptr_t)wg) * 0x9e3779b97f4a7c15u ^ overlap;
    meet_memo *e = &b->meets[(h ^ h >> 29) % MEET_MEMO];
    if (e->f == wf && e->g == wg && e->overlap == overlap) return e->meet;
    bool meet = false;
    for (size_t x = 0; x < nf && !meet; x++)
        for (size_t y = 0; y < ng && !meet; y++) meet = ((wf[x] ^ wg[y]) & overlap) == 0;
    *e = (meet_memo){ wf, wg, overlap, meet };
    return meet;
}

/* Can operand domains prove that no word is accepted by both formats pi and qi? */
static bool domains_separate(builder *b, int pi, int qi)
{
    const isk_model *m = b->m;
    const isk_pattern *p = &m->patterns.data[pi], *q = &m->patterns.data[qi];
    for (int pass = 0; pass < 2; pass++) {
        int ai = pass ? qi : pi;
        const isk_pattern *a = pass ? q : p, *o = pass ? p : q;
        for (int i = 0; i < a->nfields; i++)
            if (has_domain(m, &a->field[i]) && !domain_meets_bits(b, ai, i, o->mask, o->match)) return true;
    }
    for (int i = 0; i < p->nfields; i++) {
        if (!has_domain(m, &p->field[i])) continue;
        for (int j = 0; j < q->nfields; j++) {
            uint64_t overlap = p->field[i].word_bits & q->field[j].word_bits;
            if (has_domain(m, &q->field[j]) && overlap && !domains_meet(b, pi, i, qi, j, overlap)) return true;
        }
    }
    return false;
}

static void region_string(const isk_model *m, uint64_t mask, uint64_t value, char *out, size_t cap)
{
    size_t n = 0;
    for (int bit = m->word_bits - 1; bit >= 0 && n + 2 < cap; bit--) {
        out[n++] = (mask >> bit & 1) ? ((value >> bit & 1) ? '1' : '0') : '*';
        if (bit && bit % 4 == 0) out[n++] = '-';
    }
    out[n] = 0;
}

static void note_undecodable(builder *b, uint64_t known_mask, uint64_t known_value)
{
    if (b->iset != 0) return;          /* the coverage report is about set 0 */
    int free_bits = b->m->word_bits - popcount64(known_mask);
    /* the same power of two as ldexp gives, without its call on each of many empty leaves */
    double words = free_bits < 64 ? (double)(UINT64_C(1) << free_bits) : ldexp(1.0, free_bits);
    b->undecodable += words;
    int at;
    if (b->nlargest < 8) at = b->nlargest++;
    else if (words > b->largest[7].words) at = 7;
    else return;
    b->largest[at] = (region){ known_mask, known_value, words };
    for (int i = at; i > 0 && b->largest[i].words > b->largest[i - 1].words; i--) {
        region t = b->largest[i];
        b->largest[i] = b->largest[i - 1];
        b->largest[i - 1] = t;
    }
}

/* Leaf order: higher priority first, then declaration order. The root's set is sorted once:
 * partitioning keeps the order, so every leaf's set is sorted too. */
static void sort_by_priority(const isk_model *m, int *set, int n)
{
    for (int i = 1; i < n; i++) {
        int x = set[i], j = i;
        int px = m->patterns.data[x].priority;
        while (j > 0 && (m->patterns.data[set[j - 1]].priority < px ||
                         (m->patterns.data[set[j - 1]].priority == px && set[j - 1] > x))) {
            set[j] = set[j - 1];
            j--;
        }
        set[j] = x;
    }
}

/* Could p and q accept one word: do their fixed bits agree, and can operand domains not
 * prove them apart? Only formats of one priority compete (the higher one wins otherwise). */
static bool ambiguous_pair(builder *b, int pi, int qi)
{
    const isk_pattern *p = &b->m->patterns.data[pi], *q = &b->m->patterns.data[qi];
    return p->priority == q->priority && ((p->match ^ q->match) & p->mask & q->mask) == 0 &&
           !domains_separate(b, pi, qi);
}

/* A format as the all-pairs check sorts them: by priority, then by its value on the bits
 * every format of the set fixes. Two formats that differ there cannot accept one word. */
typedef struct pair_key {
    int priority;
    uint64_t common;         /* the format's match on the bits all fix */
    uint64_t mask, match;    /* its fixed bits, copied: the pairs' mask test reads these only */
    int index;
} pair_key;

static int pair_key_cmp(const void *a, const void *b)
{
    const pair_key *x = a, *y = b;
    if (x->priority != y->priority) return x->priority < y->priority ? -1 : 1;
    if (x->common != y->common) return x->common < y->common ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* Has some pair of the set (one instruction set's formats) a word both may accept? Only
 * formats of one priority and one value on the bits all of them fix can: sorting by those
 * leaves fewer pairs to compare, and a mask test on the keys' copies of the fixed bits rules out
 * most of those without a look at the large pattern records (the DPU's ~1000 formats make
 * ~470 K pairs, ~7 K of which need the domains compared). */
static bool any_ambiguous_pair(builder *b, const int *set, int n)
{
    const isk_model *m = b->m;
    uint64_t all_fix = ~UINT64_C(0);
    for (int i = 0; i < n; i++) all_fix &= m->patterns.data[set[i]].mask;
    pair_key *keys = isk_xcalloc((size_t)n + 1, sizeof *keys);
    for (int i = 0; i < n; i++) {
        const isk_pattern *p = &m->patterns.data[set[i]];
        keys[i] = (pair_key){ p->priority, p->match & all_fix, p->mask, p->match, set[i] };
    }
    qsort(keys, (size_t)n, sizeof *keys, pair_key_cmp);
    bool found = false;
    for (int lo = 0, hi; lo < n && !found; lo = hi) {
        for (hi = lo + 1; hi < n && keys[hi].priority == keys[lo].priority && keys[hi].common == keys[lo].common; hi++)
            ;
        for (int i = lo; i < hi && !found; i++)
            for (int j = i + 1; j < hi && !found; j++)
                found = ((keys[i].match ^ keys[j].match) & keys[i].mask & keys[j].mask) == 0 &&
                        ambiguous_pair(b, keys[i].index, keys[j].index);
    }
    free(keys);
    return found;
}

static bool accepts(const isk_model *m, const isk_pattern *p, uint64_t w)
{
    if ((w & p->mask) != p->match) return false;
    for (int i = 0; i < p->nfields; i++)
        if (!isk_field_in_domain(m, &p->field[i], isk_field_extract(&p->field[i], w))) return false;
    return true;
}

/* Look for a word both patterns accept, to show in the error; false if none was found. */
static bool example_word(const isk_model *m, const isk_pattern *p, const isk_pattern *q, uint64_t w, uint64_t *out)
{
    for (int round = 0; round < 4 && !(accepts(m, p, w) && accepts(m, q, w)); round++)
        for (int pass = 0; pass < 2; pass++) {
            const isk_pattern *a = pass ? q : p;
            for (int i = 0; i < a->nfields; i++) {
                const isk_field *f = &a->field[i];
                if (!has_domain(m, f) || isk_field_in_domain(m, f, isk_field_extract(f, w))) continue;
                const isk_kind *k = &m->kinds.data[f->kind];
                for (size_t v = 0; v < k->names.len; v++) {
                    uint64_t t = w;
                    isk_field_insert(f, k->names.data[v].value, &t);
                    if ((t & p->mask) == p->match && (t & q->mask) == q->match) {
                        w = t;
                        break;
                    }
                }
            }
        }
    *out = w;
    return accepts(m, p, w) && accepts(m, q, w);
}

static void check_leaf(builder *b, const int *set, int n, uint64_t known_mask, uint64_t known_value)
{
    const isk_model *m = b->m;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            const isk_pattern *p = &m->patterns.data[set[i]], *q = &m->patterns.data[set[j]];
            size_t lo = (size_t)(set[i] < set[j] ? set[i] : set[j]), hi = (size_t)(set[i] < set[j] ? set[j] : set[i]);
            size_t bit = lo * b->npatterns + hi;
            if (b->checked[bit >> 3] >> (bit & 7) & 1) continue;
            b->checked[bit >> 3] |= (uint8_t)(1u << (bit & 7));
            if (p->priority != q->priority || domains_separate(b, set[i], set[j])) continue;
            char where[90], sample[40] = "", in_set[40] = "";
            uint64_t w;
            region_string(m, known_mask, known_value, where, sizeof where);
            if (example_word(m, p, q, known_value, &w))
                snprintf(sample, sizeof sample, " (e.g. 0x%0*llx)", (m->word_bits + 3) / 4, (unsigned long long)w);
            if (m->isets > 1) snprintf(in_set, sizeof in_set, " of instruction set %d", b->iset);
            /* at the later declaration: the one that made the pair */
            isk_loc at = { .file = m->file, .line = m->patterns.data[hi].line, .text_len = -1 };
            isk_error(b->diag, m->file ? &at : NULL,
                      "model '%s': formats '%s' (%s) and '%s' (%s)%s both accept the words %s%s; "
                      "give one a higher .priority or make them disjoint",
                      m->name, p->info.format, p->info.behaviour, q->info.format, q->info.behaviour, in_set, where,
                      sample);
            b->failed = true;
        }
}

static void pick_split(const isk_model *m, const int *set, int n, uint64_t known, int *shift, int *bits)
{
    uint64_t common = ~UINT64_C(0), any = 0;
    for (int i = 0; i < n; i++) {
        uint64_t need = m->patterns.data[set[i]].mask & ~known;
        if (!need) continue;
        common &= need;
        any |= need;
    }
    if (common == ~UINT64_C(0)) common = 0;
    if (common) {
        /* The most significant run of bits every undecided format tests. */
        int hi = 63 - __builtin_clzll(common), lo = hi;
        while (lo > 0 && (common >> (lo - 1) & 1) && hi - lo + 1 < MAX_SPLIT_BITS) lo--;
        *shift = lo;
        *bits = hi - lo + 1;
        return;
    }
    /* No bit tested by all: split on the bit most formats test (the lowest of those tied).
     * Counted in one pass over the set, each format adding its own bits. */
    int count[64] = { 0 };
    for (int i = 0; i < n; i++)
        for (uint64_t need = m->patterns.data[set[i]].mask & any; need; need &= need - 1) count[__builtin_ctzll(need)]++;
    int best = 63 - __builtin_clzll(any), best_count = -1;
    for (uint64_t left = any; left; left &= left - 1) {   /* any's bits, lowest first */
        int bit = __builtin_ctzll(left);
        if (count[bit] > best_count) best = bit, best_count = count[bit];
    }
    *shift = best;
    *bits = 1;
}

/* Is the node a leaf? Exhaustive: when every format has all its fixed bits tested. Else as
 * soon as one has (or none is left): it matches every word below, so the node has no
 * undecodable word, and the leaf's linear scan does what further splits would. */
static bool is_leaf(const builder *b, const int *set, int n, uint64_t known_mask)
{
    const isk_model *m = b->m;
    int decided = 0;
    for (int i = 0; i < n; i++) decided += (m->patterns.data[set[i]].mask & ~known_mask) == 0;
    return b->exhaustive ? decided == n : n == 0 || decided > 0;
}

/* Does p accept every word whose bits in known_mask agree with its fixed bits: are they all
 * tested, and has no field a domain? Then no format after it in a leaf is ever reached. */
static bool accepts_all(const isk_model *m, const isk_pattern *p, uint64_t known_mask)
{
    if (p->mask & ~known_mask) return false;
    for (int i = 0; i < p->nfields; i++)
        if (has_domain(m, &p->field[i])) return false;
    return true;
}

static void make_leaf(builder *b, uint32_t at, const int *set, int n, uint64_t known_mask, uint64_t known_value)
{
    if (n == 0) note_undecodable(b, known_mask, known_value);
    if (b->exhaustive) check_leaf(b, set, n, known_mask, known_value);
    uint32_t first = (uint32_t)b->d->candidates.len;
    int kept = 0;
    while (kept < n && !accepts_all(b->m, &b->m->patterns.data[set[kept]], known_mask)) kept++;
    if (kept < n) kept++;  /* the format that accepts everything; those after it never decode */
    for (int i = 0; i < kept; i++) VEC_PUSH(&b->d->candidates, set[i]);
    b->d->nodes.data[at] = (dnode){ 1, 0, 0, first, (uint32_t)kept };
}

/* Partition the set among the 1 << bits children of a split on `bits` bits at `shift`, in two
 * passes over the set (count, then place) instead of one scan of it per child: each format
 * goes to the children whose value agrees with its fixed bits there (one child when it fixes
 * them all, else one per value of the bits it leaves free). Child v's set is
 * out[start[v] .. start[v + 1]), in the set's order (so still sorted by priority). The caller
 * frees the returned buffer. */
static int *partition(const isk_model *m, const int *set, int n, int shift, int bits,
                      uint32_t start[(1u << MAX_SPLIT_BITS) + 1])
{
    uint32_t nchildren = 1u << bits, all = nchildren - 1;
    uint32_t fill[1u << MAX_SPLIT_BITS];
    memset(start, 0, (nchildren + 1) * sizeof *start);
    memset(fill, 0, nchildren * sizeof *fill);
    for (int i = 0; i < n; i++) {      /* count each child's formats */
        const isk_pattern *p = &m->patterns.data[set[i]];
        uint32_t fixed = (uint32_t)(p->mask >> shift) & all, free_bits = all & ~fixed;
        uint32_t value = (uint32_t)(p->match >> shift) & fixed, sub = 0;
        do {
            fill[value | sub]++;
            sub = (sub - free_bits) & free_bits;  /* the next submask of free_bits */
        } while (sub);
    }
    for (uint32_t v = 0; v < nchildren; v++) {
        start[v + 1] = start[v] + fill[v];
        fill[v] = start[v];
    }
    int *out = isk_xcalloc((size_t)start[nchildren] + 1, sizeof *out);
    for (int i = 0; i < n; i++) {      /* then place them */
        const isk_pattern *p = &m->patterns.data[set[i]];
        uint32_t fixed = (uint32_t)(p->mask >> shift) & all, free_bits = all & ~fixed;
        uint32_t value = (uint32_t)(p->match >> shift) & fixed, sub = 0;
        do {
            out[fill[value | sub]++] = set[i];
            sub = (sub - free_bits) & free_bits;
        } while (sub);
    }
    return out;
}

static void build_node(builder *b, uint32_t at, int *set, int n, uint64_t known_mask, uint64_t known_value)
{
    if (b->failed && b->d->nodes.len > MAX_NODES) return;
    isk_model *m = b->m;
    if (is_leaf(b, set, n, known_mask)) {
        make_leaf(b, at, set, n, known_mask, known_value);
        return;
    }
    int shift, bits;
    pick_split(m, set, n, known_mask, &shift, &bits);
    uint32_t nchildren = 1u << bits;
    if (b->d->nodes.len + nchildren > MAX_NODES) {
        if (!b->failed)
            isk_error(b->diag, NULL, "model '%s': the decoder tree exceeds %u nodes", m->name, MAX_NODES);
        b->failed = true;
        return;
    }
    uint32_t first = (uint32_t)b->d->nodes.len;
    VEC_RESERVE(&b->d->nodes, nchildren);
    b->d->nodes.len += nchildren;
    b->d->nodes.data[at] = (dnode){ 0, (uint8_t)shift, (uint8_t)bits, first, 0 };
    uint64_t split_mask = (((uint64_t)1 << bits) - 1) << shift;
    uint32_t start[(1u << MAX_SPLIT_BITS) + 1];
    int *subsets = partition(m, set, n, shift, bits, start);
    for (uint32_t v = 0; v < nchildren; v++)
        build_node(b, first + v, subsets + start[v], (int)(start[v + 1] - start[v]), known_mask | split_mask,
                   known_value | (uint64_t)v << shift);
    free(subsets);
}

/* The decodable formats of one instruction set, best first; returns their number. */
static int iset_formats(const isk_model *m, int iset, int *set)
{
    int n = 0;
    for (size_t i = 0; i < m->patterns.len; i++)
        if (!m->patterns.data[i].alias && m->patterns.data[i].info.iset == iset) set[n++] = (int)i;
    sort_by_priority(m, set, n);
    return n;
}

/* One tree per instruction set, each over its own formats only: overlaps and ambiguities are
 * a matter within a set. The group bit is in no format (model.c refuses one that uses it), so
 * the trees never test it, except for solo formats (INSTRUCTION .solo), which fix it to 0 or 1:
 * then the decoder keeps the bit and the others match either value. */
isk_decoder *isk_decoder_build(isk_model *m, isk_diag *diag)
{
    builder b = { .m = m, .diag = diag, .npatterns = m->patterns.len };
    b.checked = isk_xcalloc(m->patterns.len * m->patterns.len / 8 + 1, 1);
    b.images = isk_xcalloc(m->patterns.len * ISK_MAX_OPS + 1, sizeof *b.images);
    b.meets = isk_xcalloc(MEET_MEMO, sizeof *b.meets);
    b.d = isk_xcalloc(1, sizeof *b.d);
    b.d->word_mask = m->word_mask;
    if (m->proc.group_bit > 0 && !m->has_solo) b.d->word_mask &= ~(UINT64_C(1) << m->proc.group_bit);
    int *set = isk_xcalloc(m->patterns.len + 1, sizeof *set);
    for (int iset = 0; iset < m->isets && !b.exhaustive; iset++)
        b.exhaustive = any_ambiguous_pair(&b, set, iset_formats(m, iset, set));
    for (int iset = 0; iset < m->isets; iset++) {
        int n = iset_formats(m, iset, set);
        uint32_t root = (uint32_t)b.d->nodes.len;
        VEC_PUSH(&b.d->roots, root);
        VEC_PUSH(&b.d->nodes, ((dnode){ 0 }));
        b.iset = iset;
        build_node(&b, root, set, n, 0, 0);
    }
    free(set);
    free(b.checked);
    for (size_t i = 0; i < b.layouts.len; i++) free(b.layouts.data[i].words);
    VEC_FREE(&b.layouts);
    free(b.images);
    free(b.meets);

    isk_coverage *c = &m->coverage;
    memset(c, 0, sizeof *c);
    c->undecodable_fraction = b.undecodable / ldexp(1.0, m->word_bits);
    c->nregions = b.nlargest;
    for (int i = 0; i < b.nlargest; i++)
        region_string(m, b.largest[i].mask, b.largest[i].value, c->regions[i], sizeof c->regions[i]);
    if (b.failed) {
        isk_decoder_free(b.d);
        return NULL;
    }
    return b.d;
}

void isk_decoder_free(isk_decoder *d)
{
    if (!d) return;
    VEC_FREE(&d->nodes);
    VEC_FREE(&d->candidates);
    VEC_FREE(&d->roots);
    free(d);
}

bool isk_decodes_solo_bit_set(const isk_model *m, uint64_t word)
{
    for (int iset = 0; iset < m->isets; iset++) {
        const int pattern = isk_model_decode_iset(m, iset, word, NULL);
        if (pattern >= 0 && m->patterns.data[pattern].info.solo == ISK_SOLO_BIT_SET) return true;
    }
    return false;
}

int isk_model_decode_iset(const isk_model *m, int iset, uint64_t word, int64_t ops[ISK_MAX_OPS])
{
    const isk_decoder *d = m->decoder;
    if (!d || iset < 0 || (size_t)iset >= d->roots.len) return -1;
    word &= d->word_mask;
    const dnode *node = &d->nodes.data[d->roots.data[iset]];
    while (!node->leaf)
        node = &d->nodes.data[node->first + ((word >> node->shift) & ((1u << node->bits) - 1))];
    for (uint32_t c = 0; c < node->count; c++) {
        int index = d->candidates.data[node->first + c];
        const isk_pattern *p = &m->patterns.data[index];
        if ((word & p->mask) != p->match) continue;  /* a leaf need not test every fixed bit */
        int64_t v[ISK_MAX_OPS];
        bool ok = true;
        for (int i = 0; i < p->nfields && ok; i++) {
            v[i] = isk_field_extract(&p->field[i], word);
            ok = isk_field_in_domain(m, &p->field[i], v[i]);
        }
        if (!ok) continue;
        if (ops) {
            memset(ops, 0, sizeof(int64_t) * ISK_MAX_OPS);
            memcpy(ops, v, sizeof(int64_t) * (size_t)p->nfields);
        }
        return index;
    }
    return -1;
}
