/* What loading refuses in a model description, and how it says so: a declared storage the
 * description never names, two things with one display name, two resources on one bit, storage
 * too large for an instance or whose size overflows, declarations built by hand that break
 * what the macros guarantee. */
#define ISK_BUILTIN_MODEL 1
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/model_desc.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

/* A, B and C on consecutive lines: the check can then name B's line exactly. */
STATE_BEGIN
    DECLARE_MEMORY(INT(16), 16) A;
    DECLARE_REGISTERS_FILE(INT(16), 4) B;
    DECLARE_REGISTER(UINT(8)) C;
    DECLARE_MEMORY(INT(16), 1LL << 40) HUGE;    /* 2 TiB: more than the default bound */
    DECLARE_MEMORY(INT(64), 8) D;
STATE_END

ACC_FUNCTION(Nop) {}

static int resource_line, title_line;

MODEL_BEGIN(good, "everything named once")
    WORD_BITS(8);
    MEMORY(A, "Memory A");
    REGFILE_BEGIN(B, "Registers") REGISTERS("b%u"); REGFILE_END()
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
    MEMORY(D, "Data");
    RESOURCE(1, "adder");
    RESOURCE(2, "multiplier");
    INSTRUCTION("0000-0000", Nop, "nop");
MODEL_END

MODEL_BEGIN(unnamed_middle, "B is never named")
    MEMORY(A, "Memory A");
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
    MEMORY(D, "Data");
MODEL_END

MODEL_BEGIN(unnamed_first_last, "A and D are never named")
    REGFILE_BEGIN(B, "Registers") REGFILE_END()
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
MODEL_END

MODEL_BEGIN(same_title, "two storages with one display name")
    MEMORY(A, "Memory");
    REGFILE_BEGIN(B, "Registers") REGFILE_END()
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
    title_line = __LINE__; MEMORY(D, "memory");
MODEL_END

MODEL_BEGIN(title_is_name, "a title that is another storage's name")
    MEMORY(A, "Memory A");
    REGFILE_BEGIN(B, "Registers") REGFILE_END()
    REG(C, "D");
    MEMORY(HUGE, "Huge");
    MEMORY(D, "Data");
MODEL_END

MODEL_BEGIN(same_register, "a register named like a storage, two registers with one name")
    MEMORY(A, "Memory A");
    REGFILE_BEGIN(B, "Registers") REGISTER(0, "Counter"); REGISTER(1, "x"); REGISTER(2, "X"); REGFILE_END()
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
    MEMORY(D, "Data");
MODEL_END

MODEL_BEGIN(own_names, "a storage's name, title and single register may agree")
    MEMORY(A, "a");
    REGFILE_BEGIN(B, "B") REGISTER(0, "b"); REGFILE_END()
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
    MEMORY(D, "Data");
MODEL_END

MODEL_BEGIN(same_bit, "two resources on one bit")
    MEMORY(A, "Memory A");
    REGFILE_BEGIN(B, "Registers") REGFILE_END()
    REG(C, "Counter");
    MEMORY(HUGE, "Huge");
    MEMORY(D, "Data");
    RESOURCE(4, "adder");
    RESOURCE(8, "shifter");
    resource_line = __LINE__; RESOURCE(4, "multiplier");
MODEL_END

/* Declarations as a program building a description by hand might pass them. */
static void describe_by_hand(isk_builder *B, uint64_t count, int cell_bytes, size_t offset)
{
    B->ops->model(B, "by_hand", "declarations built by hand");
    isk_storage_decl d = *ISK_STORAGE_DECL(D, "Data", 0);
    d.count = count;
    d.cell_bytes = cell_bytes;
    d.offset = offset;
    B->ops->storage(B, &d);
}
static void describe_overflow(isk_builder *B) { describe_by_hand(B, UINT64_C(1) << 62, 8, offsetof(struct isk_state, D)); }
static void describe_wrong_cells(isk_builder *B) { describe_by_hand(B, 8, 2, offsetof(struct isk_state, D)); }
static void describe_outside(isk_builder *B) { describe_by_hand(B, 8, 8, sizeof(struct isk_state)); }
static void describe_in_header(isk_builder *B) { describe_by_hand(B, 8, 8, 0); }
static const struct isk_model_entry overflow_entry = { ISK_ABI_VERSION, "by_hand", sizeof(struct isk_state),
                                                       describe_overflow, NULL, NULL, 0, 0 };
static const struct isk_model_entry wrong_cells_entry = { ISK_ABI_VERSION, "by_hand", sizeof(struct isk_state),
                                                          describe_wrong_cells, NULL, NULL, 0, 0 };
static const struct isk_model_entry outside_entry = { ISK_ABI_VERSION, "by_hand", sizeof(struct isk_state),
                                                      describe_outside, NULL, NULL, 0, 0 };
static const struct isk_model_entry in_header_entry = { ISK_ABI_VERSION, "by_hand", sizeof(struct isk_state),
                                                        describe_in_header, NULL, NULL, 0, 0 };

/* ---- helpers --------------------------------------------------------------------------------- */

/* The model is refused with exactly `errors` errors, the first containing `message`. */
static void refused(const struct isk_model_entry *e, int errors, const char *message)
{
    loaded l;
    load(&l, e);
    CHECK(l.m == NULL);
    CHECK_EQ(l.d.errors, errors);
    CHECK_CONTAINS(l.out.text ? l.out.text : "", message);
    unload(&l);
}

static char *text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *text(const char *fmt, ...)
{
    static char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

/* ---- tests ------------------------------------------------------------------------------------ */

static void test_good_model_loads(void)
{
    loaded l;
    load(&l, &isk_model_good);
    CHECK(l.m != NULL);
    CHECK_EQ(l.d.errors, 0);
    CHECK_EQ(isk_model_storage_count(l.m), 5);
    unload(&l);
    load(&l, &isk_model_own_names);
    CHECK(l.m != NULL);
    unload(&l);
}

static void test_unnamed_storage(void)
{
    int b = ISK_LINE_OF(struct isk_state, B);
    refused(&isk_model_unnamed_middle, 1,
            text("%s:%d: error: model 'unnamed_middle': storage number 2 of STATE_BEGIN..STATE_END, after 'A' "
                 "(line %d) and before 'C' (line %d), is not named in the description (%s: MEMORY, SHARED_MEMORY, "
                 "REG or REGFILE_BEGIN)",
                 __FILE__, b, b - 1, b + 1, __FILE__));
    refused(&isk_model_unnamed_first_last, 2,
            text("storage number 1 of STATE_BEGIN..STATE_END, after STATE_BEGIN (line %d) and before 'B' (line %d)",
                 ISK_LINE_OF(struct isk_state, A) - 1, b));
    refused(&isk_model_unnamed_first_last, 2,
            text("storage number 5 of STATE_BEGIN..STATE_END, after 'HUGE' (line %d), is not named",
                 ISK_LINE_OF(struct isk_state, HUGE)));
}

static void test_display_names(void)
{
    refused(&isk_model_same_title, 1, "");     /* sets title_line */
    refused(&isk_model_same_title, 1,
            text("%s:%d: error: model 'same_title': the display name 'memory' is both the title of 'A' (line %d) "
                 "and the title of 'D' (line %d)",
                 __FILE__, title_line, title_line - 4, title_line));
    refused(&isk_model_title_is_name, 1, "the display name 'D' is both the title of 'C'");
    refused(&isk_model_same_register, 2, "the display name 'Counter' is both register 0 of 'B'");
    refused(&isk_model_same_register, 2, "the display name 'X' is both register 1 of 'B'");
    refused(&isk_model_same_register, 2, "and register 2 of 'B'");
}

static void test_resource_bits(void)
{
    refused(&isk_model_same_bit, 1, "");       /* sets resource_line */
    refused(&isk_model_same_bit, 1,
            text("%s:%d: error: model 'same_bit': resources 'adder' (line %d) and 'multiplier' (line %d) are both "
                 "bit 2 (0x4)",
                 __FILE__, resource_line, resource_line - 2, resource_line));
}

static void test_storage_bounds(void)
{
    unsetenv("ISEKIT_MAX_STORAGE");
    refused(&isk_model_good, 1,
            "storage 'HUGE' declares 1099511627776 cells of 2 bytes = 2199023255552 bytes (2 TiB), more than "
            "the 1 GiB an instance may hold (raise it with ISEKIT_MAX_STORAGE, e.g. ISEKIT_MAX_STORAGE=2049G)");
    /* HUGE alone fits 2 TiB; with the others before it, it does not. */
    setenv("ISEKIT_MAX_STORAGE", "2048G", 1);
    refused(&isk_model_good, 1, "storage 'HUGE' (2 TiB) brings an instance's storage to 2199023255593 bytes "
                                "(2.0 TiB), more than the 2 TiB it may hold");
    setenv("ISEKIT_MAX_STORAGE", "abc", 1);
    refused(&isk_model_good, 1, "ISEKIT_MAX_STORAGE=abc: 'abc' is not a number");
    setenv("ISEKIT_MAX_STORAGE", "3072G", 1);
    loaded l;
    load(&l, &isk_model_good);
    CHECK(l.m != NULL);
    unload(&l);
    refused(&overflow_entry, 1,
            "model 'by_hand': storage 'D' declares 4611686018427387904 cells of 8 bytes: more than 2^64 bytes");
    unsetenv("ISEKIT_MAX_STORAGE");
}

static void test_hand_built_declarations(void)
{
    refused(&wrong_cells_entry, 1, "storage 'D' has cells of the wrong size for its width");
    refused(&outside_entry, 1, "storage 'D' lies outside the model's state");
    refused(&in_header_entry, 1, "storage 'D' lies outside the model's state");
}

int main(void)
{
    setenv("ISEKIT_MAX_STORAGE", "4096G", 1);
    test_good_model_loads();
    test_unnamed_storage();
    test_display_names();
    test_resource_bits();
    test_storage_bounds();
    setenv("ISEKIT_MAX_STORAGE", "4096G", 1);
    test_hand_built_declarations();
    return CHECK_DONE();
}
