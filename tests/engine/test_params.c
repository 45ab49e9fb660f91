/* Model parameters: declarations and their defaults, each type's check and message, unknown
 * names, refused declarations, and what a model reads (GET_PARAM, PARAM_VALUE). */
#define ISK_BUILTIN_MODEL 1
#include <string.h>

#include "check.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

STATE_BEGIN
    DECLARE_REGISTER(INT(32, 0)) DEPTH;
    DECLARE_REGISTER(UINT(8, 0)) SHAPE;
    DECLARE_REGISTER(UINT(1, 0)) FAST;
    DECLARE_REGISTER(UINT(8, 0)) NOTE0;     /* the first character of the text parameter */
    DECLARE_REGISTER(INT(32, 0)) RESETS;
STATE_END

static void typed_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    SET(DEPTH, GET_PARAM("depth"));
    SET(SHAPE, GET_PARAM("shape"));
    SET(FAST, GET_PARAM("fast"));
    SET(NOTE0, PARAM_VALUE("note")[0]);
    SET(RESETS, GET(RESETS) + 1);
}

ACC_FUNCTION(NOP) {}

#define TYPED_STORAGE REG(DEPTH, "Depth"); REG(SHAPE, "Shape"); REG(FAST, "Fast"); REG(NOTE0, "Note"); \
    REG(RESETS, "Resets"); INSTRUCTION("00000000", NOP, "nop")

MODEL_BEGIN(typed, "one parameter of each type")
    WORD_BITS(8);
    SLOTS(1);
    PARAM_INT("depth", -4, -8, 1000, "queue depth");
    PARAM_INT("size", 64, 16, 4096, "bytes", .pow2 = 1);
    PARAM_INT("vector", 0x3FF, 0, 0xFFF, "where interrupts go", .hex = 1);
    PARAM_ENUM("shape", "ring", "line ring star", "how the nodes connect");
    PARAM_BOOL("fast", 1, "skip the slow path");
    PARAM_TEXT("note", "hello", NULL);
    PARAM("legacy", "v1");
    ON_RESET(typed_reset);
    TYPED_STORAGE;
MODEL_END

static void test_declarations(void)
{
    loaded l;
    load(&l, &isk_model_typed);
    CHECK(l.m != NULL);
    CHECK_EQ(isk_model_parameter_count(l.m), 7);
    static const struct { const char *name, *type, *def, *accepts, *help; } want[] = {
        { "depth", "integer", "-4", "an integer from -8 to 1000", "queue depth" },
        { "size", "integer", "64", "a power of two from 16 to 4096", "bytes" },
        { "vector", "integer", "0x3FF", "an integer from 0x0 to 0xFFF", "where interrupts go" },
        { "shape", "enumeration", "ring", "one of: line, ring, star", "how the nodes connect" },
        { "fast", "boolean", "yes", "yes or no (or true/false, on/off, 1/0)", "skip the slow path" },
        { "note", "text", "hello", "any text", "" },
        { "legacy", "text", "v1", "any text", "" },
    };
    for (int i = 0; i < 7; i++) {
        const isk_param_info *p = isk_model_parameter(l.m, i);
        CHECK_STR(p->name, want[i].name);
        CHECK_STR(p->type, want[i].type);
        CHECK_STR(p->def, want[i].def);
        CHECK_STR(p->accepts, want[i].accepts);
        CHECK_STR(p->help, want[i].help);
    }
    unload(&l);
}

/* A system holding one instance of model e, every message captured in l. */
static isk_inst *one_instance(loaded *l, const struct isk_model_entry *e, isk_system **sys, const char *name)
{
    load(l, e);
    *sys = isk_system_new(&(isk_system_options){ .diag = &l->d });
    return isk_system_add(*sys, l->m, name);
}

/* A register's value (a failed read fails a check and gives -999). */
static int64_t reg(isk_inst *inst, const char *name)
{
    int64_t v = -999;
    CHECK_EQ(isk_read(inst, name, 0, &v), ISK_OK);
    return v;
}

/* The defaults are what a new instance's reset reads. */
static void test_defaults(void)
{
    loaded l;
    isk_system *sys;
    isk_inst *a = one_instance(&l, &isk_model_typed, &sys, "a");
    int64_t v;
    CHECK_EQ(reg(a, "DEPTH"), -4);
    CHECK_EQ(reg(a, "SHAPE"), 1);
    CHECK_EQ(reg(a, "FAST"), 1);
    CHECK_EQ(reg(a, "NOTE0"), 'h');
    CHECK_STR(isk_get_param(a, "vector"), "0x3FF");
    CHECK_STR(isk_get_param(a, "legacy"), "v1");
    CHECK(isk_get_param(a, "nope") == NULL);
    CHECK(isk_get_param_number(a, "vector", &v) && v == 0x3FF);
    CHECK(!isk_get_param_number(a, "note", &v) && v == 0);
    CHECK(!isk_get_param_number(a, "nope", &v));
    CHECK_STR(l.out.text ? l.out.text : "", "");
    isk_system_free(sys);
    unload(&l);
}

static void check_refused(const isk_model *m, const char *key, const char *value, const char *why)
{
    char got[512] = "";
    CHECK(!isk_model_check_param(m, key, value, got, sizeof got));
    CHECK_STR(got, why);
}

static void check_accepted(const isk_model *m, const char *key, const char *value)
{
    char why[512] = "";
    CHECK(isk_model_check_param(m, key, value, why, sizeof why));
    CHECK_STR(why, "");
}

static void test_checks(void)
{
    loaded l;
    load(&l, &isk_model_typed);
    const isk_model *m = l.m;
    /* integers: the one number parser, then the range, then powers of two */
    check_accepted(m, "depth", "-8");
    check_accepted(m, "depth", "1_000");
    check_accepted(m, "depth", "0x10");
    check_accepted(m, "depth", "0b11");
    check_refused(m, "depth", "1001", "'depth' is an integer from -8 to 1000");
    check_refused(m, "depth", "-9", "'depth' is an integer from -8 to 1000");
    check_refused(m, "depth", "abc", "'depth' is an integer from -8 to 1000");
    check_refused(m, "depth", "", "'depth' is an integer from -8 to 1000");
    check_refused(m, "depth", "5k", "'depth' is an integer from -8 to 1000");
    check_refused(m, "depth", "99999999999999999999", "'depth' is an integer from -8 to 1000");
    check_accepted(m, "size", "4096");
    check_refused(m, "size", "100", "'size' is a power of two from 16 to 4096");
    check_refused(m, "size", "8", "'size' is a power of two from 16 to 4096");
    check_refused(m, "vector", "0x1000", "'vector' is an integer from 0x0 to 0xFFF");
    /* enumerations ignore case */
    check_accepted(m, "shape", "STAR");
    check_refused(m, "shape", "tree", "'shape' is one of: line, ring, star");
    check_refused(m, "shape", "rin", "'shape' is one of: line, ring, star");
    /* booleans */
    static const char *const yes_no[] = { "yes", "no", "TRUE", "false", "on", "Off", "1", "0" };
    for (int i = 0; i < 8; i++) check_accepted(m, "fast", yes_no[i]);
    check_refused(m, "fast", "2", "'fast' is yes or no (or true/false, on/off, 1/0)");
    check_refused(m, "fast", "y", "'fast' is yes or no (or true/false, on/off, 1/0)");
    /* text takes anything */
    check_accepted(m, "note", "");
    check_accepted(m, "note", "a b = c");
    /* unknown names list what the model has */
    check_refused(m, "Depth", "1",
                  "model 'typed' has no parameter 'Depth' (its parameters: depth, size, vector, shape, fast, note, legacy)");
    unload(&l);
}

/* isk_set_param: the message names the instance; a refused value leaves the old one; an
 * accepted one resets the instance, which then reads it. */
static void test_set(void)
{
    loaded l;
    isk_system *sys;
    isk_inst *a = one_instance(&l, &isk_model_typed, &sys, "acc7");
    CHECK_EQ(isk_set_param(a, "depth", "2000"), ISK_FAILED);
    CHECK_STR(isk_last_error(sys), "acc7: parameter depth=2000: 'depth' is an integer from -8 to 1000");
    CHECK_STR(isk_get_param(a, "depth"), "-4");
    CHECK_EQ(reg(a, "RESETS"), 1);
    CHECK_EQ(isk_set_param(a, "colour", "red"), ISK_FAILED);
    CHECK_CONTAINS(l.out.text, "acc7: model 'typed' has no parameter 'colour' (its parameters: depth, size, "
                               "vector, shape, fast, note, legacy)");
    CHECK_EQ(isk_set_param(a, "depth", "0x20"), ISK_OK);
    CHECK_EQ(isk_set_param(a, "shape", "Line"), ISK_OK);
    CHECK_EQ(isk_set_param(a, "fast", "off"), ISK_OK);
    CHECK_EQ(isk_set_param_text(a, "note=zebra"), ISK_OK);
    CHECK_EQ(reg(a, "DEPTH"), 32);
    CHECK_EQ(reg(a, "SHAPE"), 0);
    CHECK_EQ(reg(a, "FAST"), 0);
    CHECK_EQ(reg(a, "NOTE0"), 'z');
    CHECK_EQ(reg(a, "RESETS"), 5);
    /* the text kept: as written for integers, the declared spelling of a word or a boolean */
    CHECK_STR(isk_get_param(a, "depth"), "0x20");
    CHECK_STR(isk_get_param(a, "shape"), "line");
    CHECK_STR(isk_get_param(a, "fast"), "no");
    /* another instance of the same model keeps its defaults */
    isk_inst *b = isk_system_add(sys, l.m, "acc8");
    CHECK_EQ(reg(b, "DEPTH"), -4);
    CHECK_STR(isk_get_param(b, "shape"), "ring");
    isk_system_free(sys);
    unload(&l);
}

/* A model without parameters says so. */
MODEL_BEGIN(bare, "no parameters")
    WORD_BITS(8);
    SLOTS(1);
    TYPED_STORAGE;
MODEL_END

static void test_none(void)
{
    loaded l;
    load(&l, &isk_model_bare);
    CHECK_EQ(isk_model_parameter_count(l.m), 0);
    char why[200];
    CHECK(!isk_model_check_param(l.m, "x", "1", why, sizeof why));
    CHECK_STR(why, "model 'bare' has no parameter 'x'; it has none");
    unload(&l);
}

/* A model reading a parameter it does not declare, or the number of a text: an error, 0. */
static void misread_reset(isk_hdr *h)
{
    struct isk_state *S = (struct isk_state *)(void *)h;
    SET(DEPTH, GET_PARAM("nope") + GET_PARAM("note") + 7);
    SET(NOTE0, PARAM_VALUE("gone") == NULL);
}

MODEL_BEGIN(misread, "reads what it does not declare")
    WORD_BITS(8);
    SLOTS(1);
    PARAM_TEXT("note", "n", "a text");
    ON_RESET(misread_reset);
    TYPED_STORAGE;
MODEL_END

static void test_misread(void)
{
    loaded l;
    isk_system *sys;
    isk_inst *a = one_instance(&l, &isk_model_misread, &sys, "m");
    CHECK_EQ(reg(a, "DEPTH"), 7);
    CHECK_EQ(reg(a, "NOTE0"), 1);
    CHECK_CONTAINS(l.out.text, "m: model 'misread' reads parameter 'nope' as a number, but declares no such parameter");
    CHECK_CONTAINS(l.out.text, "m: model 'misread' reads parameter 'note' as a number, but declares it as text (PARAM_VALUE)");
    CHECK_CONTAINS(l.out.text, "m: model 'misread' reads parameter 'gone', but declares no such parameter");
    isk_system_free(sys);
    unload(&l);
}

/* Declarations the engine refuses, each at its line (the first is BAD_FIRST). */
enum { BAD_FIRST = __LINE__ + 4 };
MODEL_BEGIN(bad_decls, "refused declarations")
    WORD_BITS(8);
    SLOTS(1);
    PARAM_INT("depth", 2000, 0, 1000, "default out of range");
    PARAM_INT("size", 100, 1, 4096, "default not a power of two", .pow2 = 1);
    PARAM_INT("empty", 5, 10, 1, "no value in range");
    PARAM_ENUM("shape", "tree", "line ring", "default not a word");
    PARAM_ENUM("none", "", "", "no words");
    PARAM_BOOL("fast", 2, "not a boolean");
    PARAM_TEXT("note", "a", NULL);
    PARAM_TEXT("note", "b", NULL);
    PARAM_TEXT("has space", "x", NULL);
    ISK_PARAM_DECL(.name = "typeless", .type = 9);
    TYPED_STORAGE;
MODEL_END

static void test_bad_declarations(void)
{
    loaded l;
    load(&l, &isk_model_bad_decls);
    CHECK(l.m == NULL);
    static const char *const want[] = {
        "model 'bad_decls': parameter 'depth': its default 2000 is refused: 'depth' is an integer from 0 to 1000",
        "model 'bad_decls': parameter 'size': its default 100 is refused: 'size' is a power of two from 1 to 4096",
        "model 'bad_decls': parameter 'empty': its range 10 to 1 holds no value",
        "model 'bad_decls': parameter 'shape': its default tree is refused: 'shape' is one of: line, ring",
        "model 'bad_decls': parameter 'none' is an enumeration without words",
        "model 'bad_decls': parameter 'fast': its default 2 is refused: 'fast' is yes or no",
        NULL,
        "model 'bad_decls': parameter 'note' is declared twice",
        "model 'bad_decls': a parameter needs a name without spaces or '='",
        "model 'bad_decls': parameter 'typeless' has an unknown type 9",
    };
    for (int i = 0; i < 10; i++) {
        if (!want[i]) continue;
        char line[600];
        snprintf(line, sizeof line, "%s:%d: error: %s", __FILE__, BAD_FIRST + i, want[i]);
        CHECK_CONTAINS(l.out.text, line);
    }
    unload(&l);
}

int main(void)
{
    test_declarations();
    test_defaults();
    test_checks();
    test_set();
    test_none();
    test_misread();
    test_bad_declarations();
    return CHECK_DONE();
}
