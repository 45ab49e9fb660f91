/* The IPU's golden vectors (tests/ipu/data/golden.tsv: Graphcore llvm-objdump words, their
 * assembler and disassembler tests, third-party encoders; see the column checked_against):
 * every row's text assembles to its words, and every word disassembles to text that assembles
 * back to the same word.
 *
 * A bundle row "{ main ; aux }" has two words, both with bit 31 (the co-issue bit) set, as
 * Graphcore's assembler writes them: the shared assembler assembles the row's text (the model's
 * PROCESSOR .group_bit = 31, .group_all), and the disassembler prints the two words back as one
 * "{ main ; aux }", which assembles to them again.
 *
 * sendpicp's row has two words although it is no bundle: the first has bit 31 set, and its format
 * fixes the bit (INSTRUCTION .solo = ISK_SOLO_BIT_SET); the second (XPIC and PIC) is data after
 * it, which Graphcore's listing prints as the instruction it decodes as (`setzi $m0, 86016`,
 * a row of its own). So the text assembles to the first word, each word prints and assembles
 * back, and a listing of both shows two lines, not a bundle.
 *
 * One row's text is Graphcore's listing annotated, "delayxpic (source 130)": its word
 * disassembles to delayxpic with that value and assembles back.
 *
 * Decode-only rows (their note says so: two main-pipe instructions in one bundle, from
 * Graphcore's disassembler test) are refused by the assembler, since the main-pipe instruction
 * must come first and the aux one second (INSTRUCTION .group_slot), and print back as their text.
 *
 * Solo classes (exit*, run, runall, sync and the exchange instructions) do not decode with
 * bit 31 set and may not be in a bundle. poplibs' spellings: `~mask` as an izimm12 (a negative
 * value is its 32 bits), half-precision literals. */
#include <ctype.h>

#include "asm/asm.h"
#include "asm/disasm.h"
#include "asm/syntax.h"
#include "check.h"
#include "engine/model_desc.h"
#include "isekit/sim.h"

#define CO_ISSUE 0x80000000u

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    return s;
}

/* Encode one instruction (bit 31 clear); on failure say why. */
static bool encode(const isk_model *m, const char *text, uint32_t *word, char *why, size_t cap)
{
    isk_encoded enc;
    char err[200] = "";
    int at = 0;
    if (!isk_syntax_encode(m, text, NULL, &enc, err, sizeof err, &at)) {
        snprintf(why, cap, "'%s': %s at %d", text, err, at);
        return false;
    }
    *word = (uint32_t)enc.word;
    return true;
}

/* Assemble `text` with the shared assembler: its words (at most `cap`), or -1 with the messages. */
static int assemble(const isk_model *m, const char *text, uint32_t *words, int cap, char *why, size_t whycap)
{
    isk_diag diag;
    isk_diag_buffer out;
    isk_diag_init(&diag);
    isk_diag_capture(&diag, &out);
    isk_asm *a = isk_asm_new(m, "golden.o", NULL, &diag);
    isk_asm_text(a, "golden.s", text, strlen(text));
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    int n = -1;
    uint32_t sec = o ? isk_obj_find_section(o, ".text") : 0;
    if (sec) {
        const isk_section *s = &o->secs.data[sec];
        n = 0;
        for (uint64_t off = 0; off + 4 <= s->size && n < cap; off += 4)
            words[n++] = (uint32_t)s->data[off] | (uint32_t)s->data[off + 1] << 8 | (uint32_t)s->data[off + 2] << 16 |
                         (uint32_t)s->data[off + 3] << 24;
    } else {
        snprintf(why, whycap, "'%s': %s", text, out.text ? out.text : "no .text");
    }
    isk_obj_free(o);
    isk_diag_buffer_free(&out);
    return n;
}

/* A bundle's two words printed as "{ a ; b }" and assembled again: the same words? */
static bool group_round_trip(const isk_model *m, const uint32_t *want, char *why, size_t cap)
{
    char text[512];
    if (!isk_disasm_group(m, (const uint64_t[]){ want[0], want[1] }, 2, 0, text, sizeof text)) {
        snprintf(why, cap, "%08X %08X print as '%.200s'", want[0], want[1], text);
        return false;
    }
    uint32_t again[2];
    if (assemble(m, text, again, 2, why, cap) != 2) return false;
    if (again[0] != want[0] || again[1] != want[1]) {
        snprintf(why, cap, "%08X %08X print '%.200s', which assembles to %08X %08X", want[0], want[1], text, again[0],
                 again[1]);
        return false;
    }
    return true;
}

/* The listing (isekit objdump) of `text` assembled. */
static char *listing(const isk_model *m, const char *text)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_asm *a = isk_asm_new(m, "golden.o", NULL, &diag);
    isk_asm_text(a, "golden.s", text, strlen(text));
    isk_obj *o = isk_asm_finish(a);
    isk_asm_free(a);
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (o) isk_disasm_obj(m, o, f, &(isk_disasm_options){ 0 });
    fclose(f);
    isk_obj_free(o);
    return out;
}

/* Disassemble a word and assemble the text again: the same word? */
static bool round_trip(const isk_model *m, uint32_t word, char *why, size_t cap)
{
    int64_t ops[ISK_MAX_OPS];
    int pat = isk_model_decode(m, word, ops);
    if (pat < 0) {
        snprintf(why, cap, "0x%08X does not decode", word);
        return false;
    }
    char text[256];
    isk_syntax_print(m, isk_syntax_display_pattern(m, pat, word), word, 0, text, sizeof text);
    uint32_t again;
    if (!encode(m, text, &again, why, cap)) return false;
    if (again != word) {
        snprintf(why, cap, "0x%08X prints '%s', which assembles to 0x%08X", word, text, again);
        return false;
    }
    return true;
}

int main(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("ipu", &diag);
    CHECK(m != NULL);
    if (!m) return CHECK_DONE();

    FILE *f = fopen(ISEKIT_SOURCE_DIR "/tests/ipu/data/golden.tsv", "r");
    CHECK(f != NULL);
    if (!f) return CHECK_DONE();
    char line[1024];
    int rows = 0, singles = 0, bundles = 0, encoded = 0, bundles_encoded = 0, decoded = 0, annotated = 0;
    int decode_only = 0, word_and_data = 0;
    int reported = 0;
    bool header = true;
    while (fgets(line, sizeof line, f)) {
        if (header) { header = false; continue; }
        char *asm_text = line, *tab = strchr(line, '\t');
        if (!tab) continue;
        *tab = 0;
        char *hex = tab + 1;
        char *tab2 = strchr(hex, '\t');
        if (tab2) *tab2 = 0;
        const bool only_decode = tab2 && strstr(tab2 + 1, "decode-only");
        rows++;
        uint32_t want[2] = { 0, 0 };
        int nwords = 0;
        for (char *p = hex; *p && nwords < 2;) {
            char *end;
            want[nwords++] = (uint32_t)strtoul(p, &end, 16);
            if (end == p) break;
            p = end;
        }
        char why[400] = "";
        asm_text = trim(asm_text);
        if (strstr(asm_text, "(source")) {
            annotated++;
            char text[256], value[32];
            snprintf(value, sizeof value, ", %ld", strtol(strstr(asm_text, "(source") + 7, NULL, 10));
            CHECK(isk_disasm_word(m, want[0], 0, text, sizeof text));
            CHECK(strncmp(text, asm_text, strcspn(asm_text, " ")) == 0);
            CHECK_CONTAINS(text, value);
            CHECK(round_trip(m, want[0], why, sizeof why));
            continue;
        }
        if (strncmp(asm_text, "sendpicp", 8) == 0) {
            word_and_data++;
            uint32_t got[2] = { 0 };
            CHECK_EQ(assemble(m, asm_text, got, 2, why, sizeof why), 1);
            CHECK_EQ(got[0], want[0]);
            CHECK(nwords == 2 && want[0] & CO_ISSUE && !isk_group_head(m, want[0]));
            CHECK(round_trip(m, want[0], why, sizeof why) && round_trip(m, want[1], why, sizeof why));
            continue;
        }
        bool ok = false;
        if (only_decode) {
            decode_only++;
            uint32_t got[2];
            char text[512] = "";
            CHECK_EQ(assemble(m, asm_text, got, 2, why, sizeof why), -1);
            CHECK_CONTAINS(why, "must be instruction 1 of a bundle, not 2");
            CHECK(nwords == 2 && isk_disasm_group(m, (const uint64_t[]){ want[0], want[1] }, 2, 0, text, sizeof text));
            CHECK_STR(text, asm_text);
            continue;
        }
        if (asm_text[0] == '{') {
            bundles++;
            uint32_t got[3];
            int n = assemble(m, asm_text, got, 3, why, sizeof why);
            ok = n == 2 && nwords == 2 && got[0] == want[0] && got[1] == want[1];
            if (!ok && n >= 0) snprintf(why, sizeof why, "gives %d words %08X %08X", n, got[0], n > 1 ? got[1] : 0);
            bundles_encoded += ok;
        } else {
            singles++;
            uint32_t w;
            ok = nwords == 1 && encode(m, asm_text, &w, why, sizeof why);
            if (ok && w != want[0]) {
                snprintf(why, sizeof why, "gives %08X", w);
                ok = false;
            }
        }
        encoded += ok;
        if (!ok && reported++ < 40) fprintf(stderr, "encode '%s' (%s): %s\n", asm_text, hex, why);
        bool back = true;
        if (asm_text[0] == '{') back = nwords == 2 && group_round_trip(m, want, why, sizeof why);
        for (int i = 0; i < nwords && back && asm_text[0] != '{'; i++) back = round_trip(m, want[i], why, sizeof why);
        decoded += back;
        if (!back && reported++ < 40) fprintf(stderr, "disassemble '%s' (%s): %s\n", asm_text, hex, why);
    }
    fclose(f);
    printf("golden: %d rows (%d single words, %d bundles, %d decode-only bundles, %d instruction followed by its "
           "data word, %d annotated listing); assembled to their words: %d (%d bundles); disassembled and "
           "re-assembled to the same words: %d\n",
           rows, singles, bundles, decode_only, word_and_data, annotated, encoded, bundles_encoded, decoded);
    CHECK(rows > 1000);
    CHECK_EQ(annotated, 1);
    CHECK_EQ(decode_only, 3);
    CHECK_EQ(word_and_data, 1);
    CHECK_EQ(encoded, rows - annotated - decode_only - word_and_data);
    CHECK_EQ(bundles_encoded, bundles);
    CHECK_EQ(decoded, rows - annotated - decode_only - word_and_data);

    /* sendpicp and its data word listed as Graphcore's listing shows them: two lines, no bundle;
     * it may not be in a bundle either */
    char *list = listing(m, "sendpicp 42, 0x14021, 1, 0\nsetzi $m0, 86016");
    CHECK(list != NULL);
    CHECK_CONTAINS(list ? list : "", "0:\tf54a0109\tsendpicp 42, 81953, 1, 0\n");
    CHECK_CONTAINS(list ? list : "", "4:\t19015000\tsetzi $m0, 86016\n");
    CHECK(list && !strchr(list, '{'));
    free(list);

    /* solo classes: not with bit 31, not in a bundle */
    CHECK(isk_model_decode_iset(m, 0, 0x43004000, NULL) >= 0);                /* exitz $m0 */
    CHECK_EQ(isk_model_decode_iset(m, 0, 0x43004000 | CO_ISSUE, NULL), -1);
    CHECK(isk_model_decode_iset(m, 1, 0x1500F000, NULL) >= 0);                /* runall $m0, $m15, 0 */
    CHECK_EQ(isk_model_decode_iset(m, 1, 0x1500F000 | CO_ISSUE, NULL), -1);
    CHECK(isk_model_decode_iset(m, 0, 0x99E00000, NULL) >= 0);                /* nop with bit 31: a bundle's */
    uint32_t w[2];
    char why[400] = "";
    CHECK_EQ(assemble(m, "{ nop ; exitz $m0 }", w, 2, why, sizeof why), -1);
    CHECK_CONTAINS(why, "golden.s:1:9: error: 'exitz' may not be in a bundle");
    CHECK_EQ(assemble(m, "{ sendpicp 1, 2, 3, 0 ; fnop }", w, 2, why, sizeof why), -1);
    CHECK_CONTAINS(why, "'sendpicp' may not be in a bundle");
    /* a bundle needs 4-byte alignment only (PROCESSOR .group_align = 1): at offset 4 it assembles */
    uint32_t w3[3] = { 0 };
    CHECK_EQ(assemble(m, "nop\n{ nop ; fnop }", w3, 3, why, sizeof why), 3);
    CHECK_EQ(w3[0], 0x19E00000u);
    CHECK_EQ(w3[1], 0x99E00000u);
    CHECK_EQ(w3[2], 0x9AD00000u);
    /* poplibs' forms: the complement of a mask as izimm12 (its 32 bits), half literals */
    CHECK_EQ(assemble(m, "or $m0, $mzero, ~0xFFFFFF\nsetzi $a0, -1.0h\nsetzi $a1, infh", w3, 3, why, sizeof why), 3);
    CHECK_EQ(w3[0], 0x42F0CFF0u);
    CHECK_EQ(w3[1], 0x1A00BC00u);
    CHECK_EQ(w3[2], 0x1A107C00u);
    isk_model_release(m);
    return CHECK_DONE();
}
