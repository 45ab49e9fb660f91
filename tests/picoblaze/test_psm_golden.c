/* Every vector of golden-kcpsm3.tsv and golden-kcpsm6.tsv (words from opbasm, cross-checked with
 * KCPSM3.EXE and the Xilinx RTL disassemblers): the line assembles to its word, the word
 * disassembles to text that assembles back to the word, and for lines written in plain Xilinx
 * form (registers, conditions, hex) the disassembly is the line itself up to case and spacing. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "psm/psm.h"
#include "check.h"

static char *squeeze_upper(const char *s, char *out, size_t cap)
{
    size_t n = 0;
    for (; *s && *s != ';' && n + 1 < cap; s++)
        if (!isspace((unsigned char)*s)) out[n++] = (char)toupper((unsigned char)*s);
    out[n] = 0;
    return out;
}

/* Only registers, conditions, keywords and hex numbers: the disassembly must read the same. */
static bool is_plain(const char *line)
{
    if (strchr(line, ';') || strchr(line, '\'') || strchr(line, '"') || strchr(line, '~')) return false;
    if (strncasecmp(line, "INST", 4) == 0) return false;          /* a raw word: any instruction */
    const char *s = line;
    while (*s && !isspace((unsigned char)*s)) s++;           /* the mnemonic */
    static const char *const words[] = { "Z", "NZ", "C", "NC", "ENABLE", "DISABLE", "INTERRUPT", "A", "B" };
    while (*s) {
        while (*s && !isalnum((unsigned char)*s)) s++;
        const char *t = s;
        while (isalnum((unsigned char)*t)) t++;
        if (t == s) break;
        size_t len = (size_t)(t - s);
        bool ok = len == 2 && (*s == 's' || *s == 'S') && isxdigit((unsigned char)s[1]);
        for (size_t i = 0; i < sizeof words / sizeof *words && !ok; i++)
            ok = strlen(words[i]) == len && strncasecmp(words[i], s, len) == 0;
        for (size_t i = 0; i < len && !ok; i++)
            if (!isxdigit((unsigned char)s[i])) break;
            else if (i + 1 == len) ok = true;
        if (!ok) return false;
        s = t;
    }
    return true;
}

static bool assemble_line(const isk_model *m, const char *line, uint32_t *word, isk_diag *diag)
{
    psm_options o;
    psm_options_init(&o, m);
    o.timestamp = 0;
    char text[520];   /* a line of the table (up to 511 characters) and its newline */
    snprintf(text, sizeof text, "%s\n", line);
    psm_program *p = psm_assemble_text("golden", text, &o, diag);
    if (!p) return false;
    bool ok = p->count == 1;
    *word = p->words[0];
    psm_program_free(p);
    return ok;
}

static int run_table(const char *model_name, const char *path)
{
    isk_diag diag;
    isk_diag_init(&diag);
    isk_model *m = isk_model_load(model_name, &diag);
    CHECK(m != NULL);
    if (!m) return 0;
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f) return 0;
    char line[512];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        char *tab = strchr(line, '\t');
        CHECK(tab != NULL);
        if (!tab) continue;
        *tab = 0;
        unsigned expected = (unsigned)strtoul(tab + 1, NULL, 16);
        rows++;
        uint32_t word = 0;
        bool assembled = assemble_line(m, line, &word, &diag);
        CHECK(assembled);
        if (word != expected)
            fprintf(stderr, "%s: '%s' assembles to %05X, expected %05X\n", model_name, line, word, expected);
        CHECK_EQ(word, expected);

        char text[160];
        bool decoded = psm_disassemble(m, expected, text, sizeof text);
        bool is_inst = strncasecmp(line, "INST", 4) == 0;
        if (!decoded && !is_inst) fprintf(stderr, "%s: %05X disassembles to '%s'\n", model_name, expected, text);
        CHECK(decoded || is_inst);
        uint32_t back = 0;
        CHECK(assemble_line(m, text, &back, &diag));
        if (back != expected) fprintf(stderr, "%s: '%s' (from %05X) assembles to %05X\n", model_name, text, expected, back);
        CHECK_EQ(back, expected);
        if (is_plain(line)) {
            char a[160], b[160];
            squeeze_upper(line, a, sizeof a);
            squeeze_upper(text, b, sizeof b);
            if (strcmp(a, b) != 0) fprintf(stderr, "%s: '%s' disassembles as '%s'\n", model_name, line, text);
            CHECK_STR(a, b);
        }
    }
    fclose(f);
    isk_model_release(m);
    printf("%s: %d golden rows\n", model_name, rows);
    return rows;
}

int main(void)
{
    int rows3 = run_table("kcpsm3", ISEKIT_SOURCE_DIR "/tests/picoblaze/data/golden-kcpsm3.tsv");
    int rows6 = run_table("kcpsm6", ISEKIT_SOURCE_DIR "/tests/picoblaze/data/golden-kcpsm6.tsv");
    CHECK_EQ(rows3, 203);
    CHECK_EQ(rows6, 242);
    return CHECK_DONE();
}
