/* The DAP requests that look at the system (dap_int.h): threads, frames, variables by display
 * name, memory by address, disassembly. All of it from the model's declaration and the loader's
 * symbols and line table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm/disasm.h"
#include "asm/loaded.h"
#include "base/num.h"
#include "cli/dap_int.h"
#include "isekit/desc.h"

static isk_inst *cur_inst(struct cli_dap *d)
{
    if (d->cur_thread > 0) return d->threads.data[d->cur_thread - 1].inst;
    return isk_instance_at(d->r->sys, 0);
}

/* variablesReference: kind (1 registers, 2 memories, 3 a storage's cells), the storage (for
 * registers: the context whose registers, -1 all of the instance's) and the instance, packed. */
#define REF(kind, inst, storage) ((int64_t)(kind) + 4 * ((int64_t)(storage) + 1) + 4096 * (int64_t)(inst))
#define INLINE_CELLS 64

#define MAX_CONTEXTS_SHOWN 256
static bool is_register(const isk_storage_info *s) { return s->kind == ISK_REGISTER || s->kind == ISK_REGFILE; }

/* Which registers are a context's: models declare none of it, but name banked registers by a
 * context prefix ("r0" and "t1.r0": DPU tasklets 0 and 1; "$m0" and "w0.$m0": the IPU's
 * supervisor and worker 0). A prefix is a name's text before its first dot (none: ""). The
 * first register file whose distinct prefixes, in order, number the instance's contexts gives
 * context k's prefix, prefixes[k]; a named cell whose prefix is another context's belongs to
 * that one, every other cell (unnamed, or a prefix no context has) to all. */
static size_t prefix_len(const char *name)
{
    const char *dot = strchr(name, '.');
    return dot ? (size_t)(dot - name) : 0;
}

static bool same_prefix(const char *name, const char *other)
{
    size_t n = prefix_len(name);
    return n == prefix_len(other) && strncmp(name, other, n) == 0;
}

/* prefixes[k] for each context k of inst (an element name standing for its prefix); their
 * number, 0 if no register file says (then every register is every context's). */
static int context_prefixes(isk_inst *inst, const char **prefixes)
{
    int ncontexts = 0;
    while (isk_context_of(inst, ncontexts)) ncontexts++;
    const isk_model *m = isk_inst_model(inst);
    for (int si = 0; ncontexts > 1 && ncontexts <= MAX_CONTEXTS_SHOWN && si < isk_model_storage_count(m); si++) {
        const isk_storage_info *s = isk_model_storage(m, si);
        if (!is_register(s) || !s->element_names) continue;
        int n = 0;
        bool fits = true;
        for (uint64_t c = 0; c < s->count && fits; c++) {
            const char *e = s->element_names[c];
            int j = 0;
            while (e && j < n && !same_prefix(prefixes[j], e)) j++;
            if (e && j == n && n == ncontexts) fits = false;
            else if (e && j == n) prefixes[n++] = e;
        }
        if (fits && n == ncontexts) return n;
    }
    return 0;
}

/* Cell c of register storage s is context k's: its prefix is k's or no context's. */
static bool context_cell(const isk_storage_info *s, uint64_t c, const char *const *prefixes, int n, int k)
{
    const char *e = s->element_names ? s->element_names[c] : NULL;
    if (!e || n == 0 || same_prefix(e, prefixes[k])) return true;
    for (int j = 0; j < n; j++)
        if (same_prefix(e, prefixes[j])) return false;
    return true;
}

static void cell_name(const isk_storage_info *s, uint64_t i, char *out, size_t cap)
{
    if (s->element_names && s->element_names[i]) snprintf(out, cap, "%s", s->element_names[i]);
    else if (s->count == 1) snprintf(out, cap, "%s", s->name);
    else snprintf(out, cap, "%s[%" PRIu64 "]", s->name, i);
}

static void variable_cell(jbuf *b, isk_inst *inst, int si, uint64_t i)
{
    const isk_storage_info *s = isk_model_storage(isk_inst_model(inst), si);
    char name[160], val[96];
    cell_name(s, i, name, sizeof name);
    isk_ref ref = { inst, si, i };
    isk_format_cell(s, isk_ref_read(&ref), val, sizeof val);
    jb_add(b, "%s{", b->p[b->len - 1] == '[' ? "" : ",");
    jb_kstr(b, "name", name);
    jb_kstr(b, "value", val);
    jb_kint(b, "variablesReference", 0);
    jb_add(b, "}");
}

static void variable_storage(jbuf *b, int ii, int si, const isk_storage_info *s)
{
    char val[96];
    snprintf(val, sizeof val, "[%" PRIu64 " x %d bits]", s->count, s->width);
    jb_add(b, "%s{", b->p[b->len - 1] == '[' ? "" : ",");
    jb_kstr(b, "name", s->title && *s->title ? s->title : s->name);
    jb_kstr(b, "value", val);
    jb_kint(b, "variablesReference", REF(3, ii, si));
    jb_kint(b, "indexedVariables", (int64_t)s->count);
    jb_add(b, "}");
}


const char *dap_req_threads(struct cli_dap *d, const dj *a, jbuf *b)
{
    (void)a;
    jb_key(b, "threads");
    jb_add(b, "[");
    for (size_t i = 0; i < d->threads.len; i++) {
        char name[160];
        const dap_thread *t = &d->threads.data[i];
        if (t->ctx < 0) snprintf(name, sizeof name, "%s", isk_inst_name(t->inst));
        else snprintf(name, sizeof name, "%s ctx %d", isk_inst_name(t->inst), t->ctx);
        jb_add(b, "%s{", i ? "," : "");
        jb_kint(b, "id", (int64_t)i + 1);
        jb_kstr(b, "name", name);
        jb_add(b, "}");
    }
    jb_add(b, "]");
    return NULL;
}

static const dap_thread *thread_by_id(struct cli_dap *d, int64_t id)
{
    if (id < 1 || (uint64_t)id > d->threads.len) {
        snprintf(d->msg, sizeof d->msg, "no thread %lld (threads are 1 to %zu)", (long long)id, d->threads.len);
        return NULL;
    }
    return &d->threads.data[id - 1];
}

const dap_thread *dap_thread_arg(struct cli_dap *d, const dj *a) { return thread_by_id(d, dj_int(a, "threadId", -1)); }

/* The thread of the frame `frameId` names: frame k of thread i is i + k * threads
 * (dap_req_stack_trace), so a caller's frame has its thread's registers. */
static const dap_thread *frame_thread(struct cli_dap *d, const dj *a)
{
    int64_t id = dj_int(a, "frameId", -1);
    if (id > (int64_t)d->threads.len && d->threads.len) id = (id - 1) % (int64_t)d->threads.len + 1;
    return thread_by_id(d, id);
}

static void source_json(jbuf *b, const char *file)
{
    char *abs = file[0] == '/' ? NULL : realpath(file, NULL);
    jb_key(b, "source");
    jb_add(b, "{");
    const char *base = strrchr(file, '/');
    jb_kstr(b, "name", base ? base + 1 : file);
    jb_kstr(b, "path", abs ? abs : file);
    jb_add(b, "}");
    free(abs);
}

/* One stack frame of a processor thread at pc: its routine, source line and address. */
static void frame_json(jbuf *b, const dap_thread *t, int64_t id, uint64_t pc)
{
    uint64_t addr = pc;
    const isk_model *m = isk_inst_model(t->inst);
    isk_pc_to_addr(m, pc, &addr);
    const isk_loaded *l = isk_loaded_of(t->inst);
    const isk_loaded_sym *fn = isk_loaded_code_at(l, pc);
    const isk_line_row *row = l ? isk_loaded_line_at(l, pc) : NULL;
    char name[200], ref[32];
    if (fn && fn->pc != pc) snprintf(name, sizeof name, "%s+%" PRIu64, fn->name, pc - fn->pc);
    else snprintf(name, sizeof name, "%s", fn ? fn->name : "??");
    snprintf(ref, sizeof ref, "0x%" PRIx64, addr);
    jb_add(b, "{");
    jb_kint(b, "id", id);
    jb_kstr(b, "name", name);
    jb_kstr(b, "instructionPointerReference", ref);
    if (row && row->file < l->files.len) {
        source_json(b, l->files.data[row->file]);
        jb_kint(b, "line", row->line);
        jb_kint(b, "column", row->column ? row->column : 1);
    } else {
        jb_kint(b, "line", 0);
        jb_kint(b, "column", 0);
    }
    jb_add(b, "}");
}

const char *dap_req_stack_trace(struct cli_dap *d, const dj *a, jbuf *b)
{
    const dap_thread *t = dap_thread_arg(d, a);
    if (!t) return d->msg;
    if (t->ctx < 0) {      /* an accelerator: a frame for its storages, at no PC */
        jb_key(b, "stackFrames");
        jb_add(b, "[{");
        jb_kint(b, "id", (int64_t)(t - d->threads.data) + 1);
        jb_kstr(b, "name", isk_inst_name(t->inst));
        jb_kint(b, "line", 0);
        jb_kint(b, "column", 0);
        jb_add(b, "}]");
        jb_kint(b, "totalFrames", 1);
        return NULL;
    }
    /* #0 the context's pc, then each call site of the shadow call stack (debug_core.h) */
    enum { MAX_FRAMES = 256 };
    dbg_frame f[MAX_FRAMES];
    int n = dbg_calls_frames(&d->calls, t->inst, (uint32_t)t->ctx, f, MAX_FRAMES, NULL);
    int64_t start = dj_int(a, "startFrame", 0), levels = dj_int(a, "levels", 0);
    int64_t total = (n < MAX_FRAMES ? n : MAX_FRAMES) + 1;
    if (start < 0) start = 0;
    int64_t stop = levels > 0 && start + levels < total ? start + levels : total;
    jb_key(b, "stackFrames");
    jb_add(b, "[");
    for (int64_t k = start; k < stop; k++) {
        if (k > start) jb_add(b, ",");
        uint64_t pc = k ? f[k - 1].site : isk_context_of(t->inst, t->ctx)->pc;
        frame_json(b, t, (int64_t)(t - d->threads.data) + 1 + k * (int64_t)d->threads.len, pc);
    }
    jb_add(b, "]");
    jb_kint(b, "totalFrames", total);
    return NULL;
}

const char *dap_req_scopes(struct cli_dap *d, const dj *a, jbuf *b)
{
    const dap_thread *t = frame_thread(d, a);
    if (!t) return d->msg;
    jb_key(b, "scopes");
    jb_add(b, "[{");
    jb_kstr(b, "name", "Registers");
    jb_kstr(b, "presentationHint", "registers");
    jb_kint(b, "variablesReference", REF(1, t->inst_index, t->ctx));
    jb_kbool(b, "expensive", false);
    jb_add(b, "},{");
    jb_kstr(b, "name", "Memories");
    jb_kint(b, "variablesReference", REF(2, t->inst_index, -1));
    jb_kbool(b, "expensive", true);
    jb_add(b, "}]");
    return NULL;
}

/* The instance and storage of a variablesReference; false (d->msg says why) if it is none. */
static bool decode_ref(struct cli_dap *d, int64_t ref, int *kind, isk_inst **inst, int *si)
{
    *kind = (int)(ref % 4);
    *si = (int)(ref / 4 % 1024) - 1;
    *inst = ref > 0 ? isk_instance_at(d->r->sys, (int)(ref / 4096)) : NULL;
    bool bad = *kind == 3 ? *si >= isk_model_storage_count(isk_inst_model(*inst)) || *si < 0
             : *kind == 1 ? *si >= 0 && !isk_context_of(*inst, *si) : *si >= 0;
    if (!*inst || *kind == 0 || bad) {
        snprintf(d->msg, sizeof d->msg, "no variables with reference %lld", (long long)ref);
        return false;
    }
    return true;
}

const char *dap_req_variables(struct cli_dap *d, const dj *a, jbuf *b)
{
    int kind, si, ii = (int)(dj_int(a, "variablesReference", 0) / 4096);
    isk_inst *inst;
    if (!decode_ref(d, dj_int(a, "variablesReference", 0), &kind, &inst, &si)) return d->msg;
    const isk_model *m = isk_inst_model(inst);
    jb_key(b, "variables");
    jb_add(b, "[");
    if (kind == 3) {
        const isk_storage_info *s = isk_model_storage(m, si);
        int64_t start = dj_int(a, "start", 0), count = dj_int(a, "count", 0);
        if (start < 0 || (uint64_t)start > s->count) start = (int64_t)s->count;
        uint64_t n = s->count - (uint64_t)start;
        if (count > 0 && (uint64_t)count < n) n = (uint64_t)count;
        if (n > 4096) n = 4096;     /* clients page through large memories */
        for (uint64_t i = 0; i < n; i++) variable_cell(b, inst, si, (uint64_t)start + i);
    } else {
        /* registers: those of the thread's context (si), with the instance's shared ones */
        const char *prefixes[MAX_CONTEXTS_SHOWN];
        int n = kind == 1 && si >= 0 ? context_prefixes(inst, prefixes) : 0;
        for (int i = 0; i < isk_model_storage_count(m); i++) {
            const isk_storage_info *s = isk_model_storage(m, i);
            if (is_register(s) != (kind == 1) || s->kind == ISK_CODE_MEMORY) continue;
            uint64_t shown = 0;
            for (uint64_t c = 0; kind == 1 && c < s->count && shown <= INLINE_CELLS; c++)
                shown += context_cell(s, c, prefixes, n, si);
            if (kind == 1 && shown <= INLINE_CELLS) {
                for (uint64_t c = 0; c < s->count; c++)
                    if (context_cell(s, c, prefixes, n, si)) variable_cell(b, inst, i, c);
            } else {
                variable_storage(b, ii, i, s);
            }
        }
    }
    jb_add(b, "]");
    return NULL;
}

const char *dap_req_set_variable(struct cli_dap *d, const dj *a, jbuf *b)
{
    int kind, si;
    isk_inst *inst;
    if (!decode_ref(d, dj_int(a, "variablesReference", 0), &kind, &inst, &si)) return d->msg;
    const char *name = dj_str(a, "name", ""), *text = dj_str(a, "value", "");
    isk_ref ref;
    if (kind == 3) {
        uint64_t i;
        const char *open = strrchr(name, '[');
        char digits[32];
        snprintf(digits, sizeof digits, "%.*s", open ? (int)strcspn(open + 1, "]") : 0, open ? open + 1 : "");
        const isk_storage_info *s = isk_model_storage(isk_inst_model(inst), si);
        if (open && isk_parse_u64(digits, 0, s->count - 1, ISK_UNIT_NONE, &i, d->msg, sizeof d->msg)) {
            ref = (isk_ref){ inst, si, i };
        } else {
            /* an element name of this storage (the same name may stand for cells of other
             * storages, or of other contexts further on) */
            for (i = 0; s->element_names && i < s->count; i++)
                if (s->element_names[i] && strcasecmp(s->element_names[i], name) == 0) break;
            if (!s->element_names || i == s->count) {
                snprintf(d->msg, sizeof d->msg, "%s has no cell '%s'", s->name, name);
                return d->msg;
            }
            ref = (isk_ref){ inst, si, i };
        }
    } else if (isk_resolve(inst, name, &ref, d->msg, sizeof d->msg) != ISK_OK) {
        return d->msg;
    }
    const isk_storage_info *s = isk_model_storage(isk_inst_model(inst), ref.storage);
    /* what the user typed, or an edit of the shown "VALUE (0xBITS)" */
    char first[96], why[160];
    const char *hex = strstr(text, " (0x");
    snprintf(first, sizeof first, "%.*s", (int)(hex ? (size_t)(hex - text) : strlen(text)), text);
    int64_t v;
    if (!isk_parse_cell(s, first, &v, why, sizeof why)) {
        snprintf(d->msg, sizeof d->msg, "%s: %s", name, why);
        return d->msg;
    }
    isk_ref_write(&ref, v);
    char val[96];
    isk_format_cell(s, isk_ref_read(&ref), val, sizeof val);
    jb_kstr(b, "value", val);
    return NULL;
}

/* The byte at addr of inst's address map, false where the simulator holds none. */
static bool mem_byte(isk_inst *inst, uint64_t addr, uint8_t *out, const uint8_t *write)
{
    const isk_model *m = isk_inst_model(inst);
    isk_addr_cell c;
    if (!isk_addr_to_cell(m, addr, &c) || c.storage < 0) return false;
    int bytes = m->map.regions.data[c.region].cell_bytes;
    int shift = 8 * (m->has_elf && m->elf.big_endian ? bytes - 1 - c.byte : c.byte);
    isk_ref ref = { inst, c.storage, c.index };
    uint64_t v = (uint64_t)isk_ref_read(&ref);
    if (write) isk_ref_write(&ref, (int64_t)((v & ~(0xffull << shift)) | (uint64_t)*write << shift));
    else *out = (uint8_t)(v >> shift);
    return true;
}

static bool mem_address(struct cli_dap *d, const dj *a, uint64_t *addr)
{
    const char *ref = dj_str(a, "memoryReference", "");
    char why[128];
    if (!isk_parse_u64(ref, 0, UINT64_MAX, ISK_UNIT_NONE, addr, why, sizeof why)) {
        snprintf(d->msg, sizeof d->msg, "memoryReference: %s", why);
        return false;
    }
    *addr += (uint64_t)dj_int(a, "offset", 0);
    return true;
}

const char *dap_req_read_memory(struct cli_dap *d, const dj *a, jbuf *b)
{
    uint64_t addr;
    if (!mem_address(d, a, &addr)) return d->msg;
    int64_t count = dj_int(a, "count", 0);
    if (count < 0 || count > (1 << 20)) count = 1 << 20;
    uint8_t *data = isk_xcalloc(1, (size_t)count + 1);
    int64_t n = 0;
    while (n < count && mem_byte(cur_inst(d), addr + (uint64_t)n, &data[n], NULL)) n++;
    char ref[32];
    snprintf(ref, sizeof ref, "0x%" PRIx64, addr);
    jb_kstr(b, "address", ref);
    if (n < count) jb_kint(b, "unreadableBytes", count - n);
    jb_key(b, "data");
    jb_base64(b, data, (size_t)n);
    free(data);
    return NULL;
}

const char *dap_req_write_memory(struct cli_dap *d, const dj *a, jbuf *b)
{
    uint64_t addr;
    if (!mem_address(d, a, &addr)) return d->msg;
    size_t n;
    uint8_t *data = dj_base64_decode(dj_str(a, "data", ""), &n);
    if (!data) return "writeMemory: data is not base64";
    size_t k = 0;
    while (k < n && mem_byte(cur_inst(d), addr + k, NULL, &data[k])) k++;
    free(data);
    if (k < n) {
        snprintf(d->msg, sizeof d->msg, "0x%" PRIx64 " is not in a memory of %s (%zu bytes written)", addr + k,
                 isk_inst_name(cur_inst(d)), k);
        return d->msg;
    }
    jb_kint(b, "bytesWritten", (int64_t)k);
    return NULL;
}

const char *dap_req_disassemble(struct cli_dap *d, const dj *a, jbuf *b)
{
    uint64_t addr, pc0;
    if (!mem_address(d, a, &addr)) return d->msg;
    isk_inst *inst = cur_inst(d);
    const isk_model *m = isk_inst_model(inst);
    if (!m->is_processor || !isk_addr_to_pc(m, addr, &pc0)) {
        snprintf(d->msg, sizeof d->msg, "0x%" PRIx64 " is no instruction's address", addr);
        return d->msg;
    }
    int64_t first = (int64_t)pc0 + dj_int(a, "instructionOffset", 0), count = dj_int(a, "instructionCount", 0);
    if (count < 0 || count > 100000) count = 100000;
    uint64_t ncode = isk_model_storage(m, m->code_storage)->count;
    const isk_loaded *l = isk_loaded_of(inst);
    jb_key(b, "instructions");
    jb_add(b, "[");
    for (int64_t i = 0; i < count; i++) {
        int64_t pc = first + i;
        uint64_t at;
        char ref[32], text[320] = "", bytes[40] = "";
        bool valid = pc >= 0 && (uint64_t)pc < ncode && isk_pc_to_addr(m, (uint64_t)pc, &at);
        if (valid) {
            isk_ref cell = { inst, m->code_storage, (uint64_t)pc };
            uint64_t word = (uint64_t)isk_ref_read(&cell);
            isk_disasm_word(m, word, (uint64_t)pc, text, sizeof text);
            snprintf(bytes, sizeof bytes, "%0*" PRIx64, (isk_model_word_bits(m) + 3) / 4, word);
        } else {
            /* the protocol wants exactly `count` entries: placeholders outside the code memory */
            at = (uint64_t)(pc < 0 ? 0 : pc) * (uint64_t)m->map.code_bytes;
        }
        snprintf(ref, sizeof ref, "0x%" PRIx64, at);
        jb_add(b, "%s{", i ? "," : "");
        jb_kstr(b, "address", ref);
        jb_kstr(b, "instruction", valid ? text : "");
        if (valid) jb_kstr(b, "instructionBytes", bytes);
        else jb_kstr(b, "presentationHint", "invalid");
        const isk_loaded_sym *s = valid ? isk_loaded_code_at(l, (uint64_t)pc) : NULL;
        if (s && s->pc == (uint64_t)pc) jb_kstr(b, "symbol", s->name);
        const isk_line_row *row = valid && l ? isk_loaded_line_at(l, (uint64_t)pc) : NULL;
        if (row && row->file < l->files.len) {
            source_json(b, l->files.data[row->file]);
            jb_kint(b, "line", row->line);
        }
        jb_add(b, "}");
    }
    jb_add(b, "]");
    return NULL;
}
