/* The DPU's golden vectors (tests/dpu/data/golden.tsv, from UPMEM's own disassembler): every
 * word decodes to its signature and prints exactly its text, and assembling the text gives the
 * word back.
 *
 * Normalisation: UPMEM's disassembler prints the implied `false` of the ...f forms as an empty
 * operand (a trailing ", "); our listing prints "false", as the LLVM printer and assembler
 * spell it. Nothing else is normalised.
 *
 * Known ambiguity: in the ext_sub_set_cc class (sub/subc ...rrrc/...rric forms) the codes 34..37
 * are decode-only duplicates of 6, 7, 10, 11 (z, nz, xz, xnz): UPMEM's disassembler prints the
 * same name for both and the assembler emits the short code. Likewise a stack-checked access
 * (ld:ersi, sw:esir, ...) whose descriptor is a constant register (`one`, `id8`, ...) prints
 * exactly like the plain access (ld:erri, ...), which the assembler chooses. For those rows the
 * test checks that the re-assembled word is the other encoding and prints the same text. */
#include <ctype.h>

#include "asm/syntax.h"
#include "check.h"
#include "engine/model_desc.h"
#include "isekit/sim.h"

static void ident(const char *sig, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *s = sig; *s && n + 1 < cap; s++) {
        if (*s == ':') {
            if (!s[1] || s[1] == '-') break;
            out[n++] = '_';
        } else {
            out[n++] = *s == '.' ? '_' : *s;
        }
    }
    out[n] = 0;
}

int main(void)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load("dpu", &diag);
    CHECK(m != NULL);
    if (!m) return CHECK_DONE();
    printf("model dpu: %d instruction signatures\n", isk_model_instruction_count(m));

    FILE *f = fopen(ISEKIT_SOURCE_DIR "/tests/dpu/data/golden.tsv", "r");
    CHECK(f != NULL);
    if (!f) return CHECK_DONE();
    char line[512];
    int rows = 0, decoded = 0, printed = 0, encoded = 0, short_cc = 0, safe_const = 0, shown = 0;
    int reported = 0;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "0x", 2) != 0) continue;
        line[strcspn(line, "\r\n")] = 0;
        char *cols[5] = { 0 };
        char *p = line;
        for (int i = 0; i < 5; i++) {
            cols[i] = p;
            p = strchr(p, '\t');
            if (!p) break;
            *p++ = 0;
        }
        if (!cols[4]) continue;
        rows++;
        uint64_t word = strtoull(cols[0], NULL, 16);
        char want[256];
        snprintf(want, sizeof want, "%s", cols[1]);
        size_t wl = strlen(want);
        if (wl >= 2 && want[wl - 2] == ',' && want[wl - 1] == ' ') snprintf(want + wl, sizeof want - wl, "false");

        int64_t ops[ISK_MAX_OPS];
        int pat = isk_model_decode(m, word, ops);
        char beh[64];
        ident(cols[2], beh, sizeof beh);
        /* a big-endian load or store decodes to its signature's !big specialisation,
         * <name>_be (gen_isa.py ENDIAN_ORDERS), and only such a one */
        const char *name = pat >= 0 ? m->patterns.data[pat].beh->name : "";
        const size_t bl = strlen(beh);
        bool ok_decode = pat >= 0 && (strcmp(name, beh) == 0 ||
                                      (strncmp(name, beh, bl) == 0 && strcmp(name + bl, "_be") == 0 &&
                                       strstr(want, "!big") != NULL));
        decoded += ok_decode;
        char got[256] = "";
        if (pat >= 0) {
            int disp = isk_syntax_display_pattern(m, pat, word);
            shown += disp != pat;
            isk_syntax_print(m, disp, word, 0, got, sizeof got);
        }
        bool ok_print = strcmp(got, want) == 0;
        printed += ok_print;

        isk_encoded enc;
        char err[200] = "";
        int at = 0;
        bool ok_enc = isk_syntax_encode(m, want, NULL, &enc, err, sizeof err, &at) && enc.word == word;
        if (!ok_enc && pat >= 0 && enc.word != word && err[0] == 0) {
            /* the same text for another word: must decode to the same signature and text */
            int64_t o2[ISK_MAX_OPS];
            int p2 = isk_model_decode(m, enc.word, o2);
            char again[256] = "";
            if (p2 >= 0) isk_syntax_print(m, isk_syntax_display_pattern(m, p2, enc.word), enc.word, 0, again, sizeof again);
            const char *syn = m->patterns.data[pat].info.syntax;
            bool same_text = p2 >= 0 && strcmp(again, want) == 0;
            if (same_text && p2 == pat && strstr(syn, "ext_sub_set_cc")) short_cc++;
            else if (same_text && strstr(syn, "{sa:sk}") && strstr(m->patterns.data[p2].info.syntax, "{ra:rk}"))
                safe_const++;
            else if (reported++ < 40)
                fprintf(stderr, "re-encode %s: '%s' -> 0x%012llx (%s)\n", cols[0], want, (unsigned long long)enc.word,
                        again);
        } else if (ok_enc) {
            encoded++;
        } else if (reported++ < 40) {
            fprintf(stderr, "encode %s: '%s': %s at %d\n", cols[0], want, err, at);
        }
        if ((!ok_decode || !ok_print) && reported++ < 40)
            fprintf(stderr, "decode %s: want %s '%s', got %s '%s'\n", cols[0], beh, want,
                    pat >= 0 ? m->patterns.data[pat].beh->name : "(none)", got);
    }
    fclose(f);
    printf("golden: %d rows; decoded to their signature: %d; printed exactly: %d (%d as sugar); "
           "re-assembled to the same word: %d; to the other encoding of the same text: %d (short condition "
           "code) + %d (stack check on a constant register)\n",
           rows, decoded, printed, shown, encoded, short_cc, safe_const);
    CHECK_EQ(rows, 15754);
    CHECK_EQ(decoded, rows);
    CHECK_EQ(printed, rows);
    CHECK_EQ(encoded + short_cc + safe_const, rows);
    isk_model_release(m);
    return CHECK_DONE();
}
