/* The model ABI: ISK_ABI_VERSION names one layout of everything a model and the engine share
 * through memory (a model compiled into a shared object calls no isekit symbol: it reaches the
 * engine only through these structures). A change of any of them without a new version fails
 * here, and a model built for another version is refused when it loads. */
#define ISK_BUILTIN_MODEL 1
#include <stddef.h>

#include "check.h"
#include "isekit/model.h"
#include "isekit/sim.h"
#include "loaded_model.h"

/* The layout as numbers: each structure's size, then each member's offset, and the constants
 * and enumerations a model compiles in. */
static uint64_t fingerprint(void)
{
#define S(T) sizeof(T)
#define O(T, m) offsetof(T, m)
    static const size_t layout[] = {
        S(isk_context), O(isk_context, pc), O(isk_context, ready_at), O(isk_context, last_issue),
        O(isk_context, insns), O(isk_context, blocked), O(isk_context, state), O(isk_context, user),
        O(isk_context, iset), O(isk_context, wake_lines), O(isk_context, exit_status), O(isk_context, spare),
        S(isk_scheduler), O(isk_scheduler, name), O(isk_scheduler, pick), O(isk_scheduler, issued),
        O(isk_scheduler, next), O(isk_scheduler, changed), O(isk_scheduler, idle_counts),
        O(isk_scheduler, run),
        S(isk_sched), O(isk_sched, policy), O(isk_sched, h), O(isk_sched, contexts), O(isk_sched, ncontexts),
        O(isk_sched, cursor), O(isk_sched, gap), O(isk_sched, running), O(isk_sched, word),
        O(isk_sched, next_pick),
        S(struct isk_engine_ops), O(struct isk_engine_ops, boundary), O(struct isk_engine_ops, write),
        O(struct isk_engine_ops, use_resources), O(struct isk_engine_ops, interrupt),
        O(struct isk_engine_ops, fault), O(struct isk_engine_ops, index_fault), O(struct isk_engine_ops, launch),
        O(struct isk_engine_ops, invalidate_code), O(struct isk_engine_ops, port_write),
        O(struct isk_engine_ops, port_read), O(struct isk_engine_ops, trace), O(struct isk_engine_ops, param),
        O(struct isk_engine_ops, param_number), O(struct isk_engine_ops, schedule),
        O(struct isk_engine_ops, exception), O(struct isk_engine_ops, exit_context),
        O(struct isk_engine_ops, breakpoint), O(struct isk_engine_ops, dma),
        O(struct isk_engine_ops, bus_read), O(struct isk_engine_ops, bus_write),
        O(struct isk_engine_ops, read),
        S(struct isk_hdr), O(struct isk_hdr, trap), O(struct isk_hdr, checking), O(struct isk_hdr, clock),
        O(struct isk_hdr, pc), O(struct isk_hdr, next_pc), O(struct isk_hdr, context), O(struct isk_hdr, ncontexts),
        O(struct isk_hdr, contexts), O(struct isk_hdr, ops), O(struct isk_hdr, engine), O(struct isk_hdr, user),
        O(struct isk_hdr, attention), O(struct isk_hdr, lines), O(struct isk_hdr, issued), O(struct isk_hdr, wlog),
        O(struct isk_hdr, inline_entry), O(struct isk_hdr, issued_per_clock),
        S(isk_write_entry), O(isk_write_entry, cell), O(isk_write_entry, value), O(isk_write_entry, inst),
        O(isk_write_entry, slot), O(isk_write_entry, how), S(isk_write_log), O(isk_write_log, data),
        O(isk_write_log, len), O(isk_write_log, cap),
        S(isk_behaviour_info), O(isk_behaviour_info, name), O(isk_behaviour_info, params),
        O(isk_behaviour_info, nparams), O(isk_behaviour_info, fn),
        S(isk_storage_decl), O(isk_storage_decl, name), O(isk_storage_decl, title), O(isk_storage_decl, kind),
        O(isk_storage_decl, sign), O(isk_storage_decl, width), O(isk_storage_decl, latency),
        O(isk_storage_decl, frac), O(isk_storage_decl, cell_bytes), O(isk_storage_decl, count),
        O(isk_storage_decl, offset), O(isk_storage_decl, shared), O(isk_storage_decl, seq), O(isk_storage_decl, line),
        O(isk_storage_decl, display), O(isk_storage_decl, private_storage),
        S(isk_kind_decl), O(isk_kind_decl, name), O(isk_kind_decl, type), O(isk_kind_decl, names),
        O(isk_kind_decl, exact_case), O(isk_kind_decl, scale), O(isk_kind_decl, min), O(isk_kind_decl, max),
        O(isk_kind_decl, hex), O(isk_kind_decl, pc_bias), O(isk_kind_decl, reloc),
        S(isk_insn_decl), O(isk_insn_decl, format), O(isk_insn_decl, behaviour), O(isk_insn_decl, syntax),
        O(isk_insn_decl, fields), O(isk_insn_decl, priority), O(isk_insn_decl, alias), O(isk_insn_decl, iset),
        O(isk_insn_decl, relocs), O(isk_insn_decl, solo), O(isk_insn_decl, group_slot), O(isk_insn_decl, flow),
        O(isk_insn_decl, inert),
        S(isk_processor_decl), O(isk_processor_decl, code), O(isk_processor_decl, contexts),
        O(isk_processor_decl, issue), O(isk_processor_decl, cpi), O(isk_processor_decl, distance),
        O(isk_processor_decl, reset_pc), O(isk_processor_decl, code_bytes), O(isk_processor_decl, pc_unit_bytes),
        O(isk_processor_decl, scheduler), O(isk_processor_decl, isets), O(isk_processor_decl, group_bit),
        O(isk_processor_decl, group_words), O(isk_processor_decl, group_all), O(isk_processor_decl, group_align),
        O(isk_processor_decl, burst), O(isk_processor_decl, entry_spare), O(isk_processor_decl, round),
        S(isk_round), O(isk_round, contexts), O(isk_round, after), O(isk_round, after_ctx), O(isk_round, limit),
        O(isk_round, id), O(isk_round, end), S(isk_decoded), O(isk_decoded, fn), O(isk_decoded, pattern), O(isk_decoded, op),
        S(isk_elf_decl), O(isk_elf_decl, machine), O(isk_elf_decl, elfclass), O(isk_elf_decl, big_endian),
        O(isk_elf_decl, flags), O(isk_elf_decl, abi_mask), O(isk_elf_decl, abi_shift),
        S(isk_gdb_decl), O(isk_gdb_decl, arch), O(isk_gdb_decl, registers), O(isk_gdb_decl, feature), O(isk_gdb_decl, context_stride),
        S(isk_region_decl), O(isk_region_decl, name), O(isk_region_decl, base), O(isk_region_decl, size),
        O(isk_region_decl, sections), O(isk_region_decl, storage), O(isk_region_decl, code),
        S(isk_reloc_decl), O(isk_reloc_decl, type), O(isk_reloc_decl, name), O(isk_reloc_decl, bytes),
        O(isk_reloc_decl, fields), O(isk_reloc_decl, pcrel), O(isk_reloc_decl, shift), O(isk_reloc_decl, min),
        O(isk_reloc_decl, max), O(isk_reloc_decl, convert),
        S(isk_param_decl), O(isk_param_decl, name), O(isk_param_decl, type), O(isk_param_decl, text),
        O(isk_param_decl, value), O(isk_param_decl, min), O(isk_param_decl, max), O(isk_param_decl, pow2),
        O(isk_param_decl, hex), O(isk_param_decl, words), O(isk_param_decl, help),
        S(struct isk_builder_ops), O(struct isk_builder_ops, model), O(struct isk_builder_ops, word_bits),
        O(struct isk_builder_ops, slots), O(struct isk_builder_ops, storage), O(struct isk_builder_ops, element),
        O(struct isk_builder_ops, end_group), O(struct isk_builder_ops, resource), O(struct isk_builder_ops, kind),
        O(struct isk_builder_ops, instruction), O(struct isk_builder_ops, processor),
        O(struct isk_builder_ops, param), O(struct isk_builder_ops, init), O(struct isk_builder_ops, elf),
        O(struct isk_builder_ops, region), O(struct isk_builder_ops, reloc), O(struct isk_builder_ops, elements),
        O(struct isk_builder_ops, line), O(struct isk_builder_ops, exception_handler),
        O(struct isk_builder_ops, gdb),
        S(struct isk_builder), O(struct isk_builder, ops), O(struct isk_builder, engine),
        S(struct isk_model_entry), O(struct isk_model_entry, abi_version), O(struct isk_model_entry, name),
        O(struct isk_model_entry, state_size), O(struct isk_model_entry, describe), O(struct isk_model_entry, file),
        O(struct isk_model_entry, state_file), O(struct isk_model_entry, state_line),
        O(struct isk_model_entry, storages),
        ISK_MAX_OPS, ISK_MAX_LATENCY, ISK_WRITE_BYTES(1), ISK_WRITE_CODE,
        ISK_CTX_STOPPED, ISK_CTX_RUNNING, ISK_CTX_BLOCKED, ISK_CTX_SLEEPING, ISK_CTX_FAULTED, ISK_CTX_EXITED,
        ISK_ISSUE_CPI, ISK_ISSUE_REVOLVER, ISK_ISSUE_BARREL, ISK_ISSUE_MODEL,
        ISK_EXC_ILLEGAL, ISK_EXC_FETCH, ISK_EXC_GROUP, ISK_EXC_MODEL,
        ISK_KIND_INT, ISK_KIND_NAMES, ISK_KIND_PCREL, ISK_KIND_ABS,
        ISK_PARAM_TEXT, ISK_PARAM_INT, ISK_PARAM_ENUM, ISK_PARAM_BOOL,
        ISK_SOLO, ISK_SOLO_BIT_SET,
        ISK_FLOW_NONE, ISK_FLOW_CALL, ISK_FLOW_RETURN,
        ISK_DISPLAY_INT, ISK_DISPLAY_F16, ISK_DISPLAY_F32, ISK_DISPLAY_F64, ISK_DISPLAY_F16X2,
    };
#undef S
#undef O
    uint64_t h = 0xcbf29ce484222325ull;           /* FNV-1a over the numbers */
    for (size_t i = 0; i < sizeof layout / sizeof *layout; i++)
        for (int b = 0; b < 8; b++) h = (h ^ ((uint64_t)layout[i] >> (8 * b) & 0xff)) * 0x100000001b3ull;
    return h;
}

/* The layout of each version, as the fingerprint above computes it on LP64 Linux (x86-64 and
 * aarch64 lay these structures out alike). A change of the layout makes the check below fail:
 * bump ISK_ABI_VERSION in include/isekit/abi.h, add the new members to the list above and a row
 * for the new version. Each row was computed over the list as it stood for its version (only
 * the current version's row is checked; the older ones are its history). */
static const struct { int version; uint64_t layout; } versions[] = {
    { 2, 0xb521e1924b3bea35ull },
    { 3, 0xf604448e042ea021ull },     /* typed model parameters: isk_param_decl, the builder's param, GET_PARAM */
    { 4, 0xff446e86882b572bull },     /* the issue-loop rewrite: schedulers, instruction sets, issue groups,
                                         exceptions, exits, breakpoints, wake lines */
    { 5, 0xea75ef4371725cdbull },     /* typed events: the dma operation (DMA_EVENT) */
    { 6, 0x1ea1ca4399a4e767ull },     /* solo instructions (INSTRUCTION .solo), PROCESSOR .group_all */
    { 7, 0xea8e08086f1e500full },     /* PROCESSOR .group_align: where an issue group may start */
    { 8, 0x191c21a949249613ull },     /* INSTRUCTION .group_slot: the member of a group an instruction must be */
    { 9, 0x9f684bf88ff73650ull },     /* INSTRUCTION .solo = ISK_SOLO_BIT_SET: the group bit a fixed 1 */
    { 10, 0x1ff6bac4430be73bull },    /* INSTRUCTION .flow: calls and returns, for the debugger's call stack */
    { 11, 0x7a27dd3fdfa56a7bull },    /* isk_storage_decl .display: FLOAT display formats */
    { 12, 0x806768a246d29a43ull },    /* the bus: bus_read, bus_write (BUS_READ, BUS_WRITE) */
    { 13, 0xf6600377a087a57bull },    /* GDB_TARGET: isk_gdb_decl, the builder's gdb */
    { 14, 0x075d7a6867400333ull },    /* ops->read, ISK_TRAP_READS: reads the engine sees (isk_watch_reads) */
    { 15, 0xbcee037b56308bdbull },    /* PROCESSOR .burst: a model's own fast loop over isk_decoded entries */
    { 16, 0x3e0accbd9390d267ull },    /* isk_hdr.wlog: SET appends a command's first latency-1 write itself */
    { 17, 0x7de77728726917b3ull },    /* PRIVATE_* storages, INSTRUCTION .inert: a processor ahead of inert commands */
    { 18, 0x27276c401abcdc4bull },    /* isk_sched.next_pick: a model scheduler's issued leaves its next pick */
    { 19, 0x3e4614a26e3e824bull },    /* INSTRUCTION .interrupts_at_end, ops->promise_end (PromiseEnd) */
    { 20, 0x5cd24b2a3f2c4593ull },    /* isk_scheduler.run: a model scheduler's own stretch of issues */
    { 21, 0x011d795922fc265bull },    /* isk_hdr.inline_entry: SET's first latency-1 write, its writer filled in by the engine */
    { 22, 0x8fdb385345fa918bull },    /* isk_hdr.issued_per_clock: a steady round counts its issues by the clock (isk_issued) */
    { 23, 0x163d0707530e5173ull },    /* PROCESSOR .entry_spare: a decoded entry's spare word, computed when the engine decodes it */
    { 24, 0x9f71b63c1d1a0effull },    /* PROCESSOR .round: a processor's own steady round (isk_round) */
};

STATE_BEGIN
    DECLARE_REGISTER(INT(8)) R;
STATE_END

MODEL_BEGIN(abi_test, "a model of the current ABI")
    WORD_BITS(8);
    SLOTS(1);
    REG(R, "R");
MODEL_END

int main(void)
{
    uint64_t now = fingerprint();
    int found = 0;
    for (size_t i = 0; i < sizeof versions / sizeof *versions; i++)
        if (versions[i].version == ISK_ABI_VERSION) {
            found = 1;
            if (versions[i].layout != now)
                fprintf(stderr, "the model ABI's layout changed (fingerprint 0x%016llx, version %d recorded "
                        "0x%016llx): bump ISK_ABI_VERSION and record the new layout in %s\n",
                        (unsigned long long)now, ISK_ABI_VERSION, (unsigned long long)versions[i].layout, __FILE__);
            CHECK(versions[i].layout == now);
        }
    CHECK(found);

    /* the current version loads; the one before it and the one after are refused */
    loaded l;
    load(&l, &isk_model_abi_test);
    CHECK(l.m != NULL);
    unload(&l);
    for (int delta = -1; delta <= 1; delta += 2) {
        struct isk_model_entry other = isk_model_abi_test;
        other.abi_version = ISK_ABI_VERSION + delta;
        load(&l, &other);
        CHECK(l.m == NULL);
        char want[160];
        snprintf(want, sizeof want, "test: error: model built for isekit model ABI %d, but this isekit uses ABI %d",
                 ISK_ABI_VERSION + delta, ISK_ABI_VERSION);
        CHECK_CONTAINS(l.out.text, want);
        unload(&l);
    }
    return CHECK_DONE();
}
