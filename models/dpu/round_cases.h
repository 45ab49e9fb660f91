/* The DPU's case list (round.h): every instruction of isa_instructions.inc by its kind
 * (DPU_ROUND_KIND_<form>), expanded inside a loop's function. With DPU_ROUND_TABLE defined, the
 * threaded dispatch's table of labels, case_of (nothing for the switch); else one
 * case per inlined instruction, which runs the behaviour's own body (name##_isk_run, model.h)
 * between the loop's DPU_LOOP_BEFORE(kind, family) and DPU_LOOP_AFTER(kind). No include guard:
 * each loop includes it twice. */
#ifdef DPU_ROUND_TABLE
#if DPU_THREADED
    static const void *const cases[1 + DPU_PATTERNS] = {
        &&call,
#define DPU_ROUND_LABEL_PLAIN(name) &&case_##name,
#define DPU_ROUND_LABEL_FRAMED(name) &&case_##name,
#define DPU_ROUND_LABEL_BRANCH(name) &&case_##name,
#define DPU_ROUND_LABEL_LINKS(name) &&case_##name,
#define DPU_ROUND_LABEL_CALL(name) &&call,
#define DPU_INSTRUCTION(name, family, form, ...) DPU_ROUND_CAT(DPU_ROUND_LABEL_, DPU_ROUND_KIND_##form)(name)
#define DPU_ALIAS(...) &&call,
#include DPU_ISA_INSTRUCTIONS
#undef DPU_INSTRUCTION
#undef DPU_ALIAS
#undef DPU_ROUND_LABEL_PLAIN
#undef DPU_ROUND_LABEL_FRAMED
#undef DPU_ROUND_LABEL_BRANCH
#undef DPU_ROUND_LABEL_LINKS
#undef DPU_ROUND_LABEL_CALL
    };
    const void *const *const case_of = cases + 1;   /* indexed by the pattern, -1 included */
#endif
#else
#define DPU_ROUND_CASE_INLINE(name, family, kind) \
    DPU_CASE(DPU_PATTERN_##name, case_##name) \
        assert(d->fn == name); \
        DPU_LOOP_BEFORE(kind, family) \
        name##_isk_run(h, d->op); \
        DPU_LOOP_AFTER(kind)
#define DPU_ROUND_CASE_PLAIN(name, family) DPU_ROUND_CASE_INLINE(name, family, PLAIN)
#define DPU_ROUND_CASE_FRAMED(name, family) DPU_ROUND_CASE_INLINE(name, family, FRAMED)
#define DPU_ROUND_CASE_BRANCH(name, family) DPU_ROUND_CASE_INLINE(name, family, BRANCH)
#define DPU_ROUND_CASE_LINKS(name, family) DPU_ROUND_CASE_INLINE(name, family, LINKS)
#define DPU_ROUND_CASE_CALL(name, family)
#define DPU_INSTRUCTION(name, family, form, ...) DPU_ROUND_CAT(DPU_ROUND_CASE_, DPU_ROUND_KIND_##form)(name, family)
#define DPU_ALIAS(...)
#include DPU_ISA_INSTRUCTIONS
#undef DPU_INSTRUCTION
#undef DPU_ALIAS
#undef DPU_ROUND_CASE_INLINE
#undef DPU_ROUND_CASE_PLAIN
#undef DPU_ROUND_CASE_FRAMED
#undef DPU_ROUND_CASE_BRANCH
#undef DPU_ROUND_CASE_LINKS
#undef DPU_ROUND_CASE_CALL
#endif
