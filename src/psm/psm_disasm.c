/* The .psm disassembler: the model's decoder picks the instruction, its syntax template gives
 * the text, and the Xilinx conventions give the numbers (hex without prefix, as many digits as
 * the field needs: 2 for a constant, 3 for an address, 1 for an OUTPUTK port).
 *
 * A disassembly must assemble back to the same word. Words with bits the core ignores set (e.g.
 * a register form with a non-zero bits 3:0) would not, so they print as INST with the
 * instruction they execute as in a comment. */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "psm/psm_int.h"
#include "asm/syntax.h"

static void print_template(const isk_model *m, const isk_pattern *p, uint32_t word, char *out, size_t cap)
{
    size_t n = 0;
    for (const char *t = p->info.syntax; *t && n + 1 < cap;) {
        if (*t != '{') {
            out[n++] = *t++;
            continue;
        }
        const char *close = strchr(t, '}'), *colon = memchr(t, ':', (size_t)(close - t));
        size_t name_len = (size_t)((colon ? colon : close) - t - 1);
        const isk_field *f = NULL;
        for (int i = 0; i < p->nfields && !f; i++)
            if (strlen(p->field[i].name) == name_len && strncmp(p->field[i].name, t + 1, name_len) == 0)
                f = &p->field[i];
        char buf[32] = "?";
        if (f) {
            int64_t v = isk_field_extract(f, word);
            const isk_kind *k = f->kind >= 0 ? &m->kinds.data[f->kind] : NULL;
            const char *name = k && k->d.type == ISK_KIND_NAMES ? isk_kind_name_of(k, v) : NULL;
            if (name) snprintf(buf, sizeof buf, "%s", name);
            else snprintf(buf, sizeof buf, "%0*" PRIX64, (f->value_bits + 3) / 4, (uint64_t)v);
        }
        n += (size_t)snprintf(out + n, cap - n, "%s", buf);
        if (n >= cap) n = cap - 1;
        t = close + 1;
    }
    out[n] = 0;
}

/* Plain hex, the only number form the disassembler prints. */
static bool hex_value(void *user, const char **p, int64_t *value, bool *deferred)
{
    (void)user;
    *deferred = false;
    const char *s = *p;
    int64_t v = 0;
    while (isxdigit((unsigned char)*s) && s - *p < 8) {
        int c = toupper((unsigned char)*s++);
        v = v * 16 + (isdigit(c) ? c - '0' : c - 'A' + 10);
    }
    if (s == *p || isalnum((unsigned char)*s)) return false;
    *value = v;
    *p = s;
    return true;
}

bool psm_disassemble(const isk_model *m, uint32_t word, char *out, size_t cap)
{
    int pattern = isk_model_decode(m, word, NULL);
    if (pattern < 0 || !m->patterns.data[pattern].info.syntax) {
        snprintf(out, cap, "INST %05X", word & 0x3FFFFu);
        return false;
    }
    char text[96];
    print_template(m, &m->patterns.data[pattern], word, text, sizeof text);
    isk_syntax_env env = { .parse_value = hex_value };
    isk_encoded back;
    char err[160];
    int at;
    if (isk_syntax_encode(m, text, &env, &back, err, sizeof err, &at) && back.word == word) {
        snprintf(out, cap, "%s", text);
        return true;
    }
    snprintf(out, cap, "INST %05X ; executes as %s", word & 0x3FFFFu, text);
    return false;
}
