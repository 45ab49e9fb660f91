/* The EdkDSP BCE as a system (isekit/edkdsp.h): a PicoBlaze "pb" and a DFU "dfu" on one clock,
 * joined by the glue logic of bce_ports.c; firmware slots, reset, start and the host's waits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/loaded.h"
#include "psm/psm.h"
#include "bce_int.h"
#include "isekit/picoblaze.h"

#define DEFAULT_TIMEOUT 10000000u

extern const char edk_pbbcelib_psm[];     /* generated from pbbcelib/pbbcelib.psm by CMake */

const char *edk_pbbcelib_source(void) { return edk_pbbcelib_psm; }
/* Firmware INCLUDEs it, in `isekit psm` as in edk_set_firmware_file. */
PSM_BUILTIN_FILE(pbbcelib, "pbbcelib.psm", edk_pbbcelib_psm);

const char *edk_result_name(int result)
{
    static const char *const names[] = { "OK", "null argument", "error", "not initialised", "running",
                                         "out of range", "timeout", "firmware error" };
    return result >= 0 && result < (int)(sizeof names / sizeof *names) ? names[result] : "unknown result";
}

const char *edk_dfu_op_name(int op)
{
    static const char *const names[] = { "VCOPY", "VADD", "VMUL", "VMAC", "DPROD", "VSUB", "VMSUBAC" };
    return op >= 0 && op < EDK_DFU_OPS ? names[op] : "?";
}

static bool lookup_refs(edk_bce *bce, char *why, size_t cap)
{
    dfu_refs *r = &bce->r;
    struct { isk_ref *ref; const char *name; } table[] = {
        { &r->ag_bank, "AG_BANK" }, { &r->ag_addr, "AG_ADDR" }, { &r->ag_inc, "AG_INC" }, { &r->ag_lo, "AG_LO" },
        { &r->ag_hi, "AG_HI" }, { &r->ag_flags, "AG_FLAGS" }, { &r->cnt, "CNT" }, { &r->rep, "REP" },
        { &r->status, "STATUS" }, { &r->error, "ERROR" }, { &r->dfutime, "DFUTIME" }, { &r->started, "STARTED" },
        { &r->ops, "OPS" }, { &r->caps, "CAPS" }, { &r->cmem, "CMEM" },
        { &r->mem[0], "DMA" }, { &r->mem[1], "DMB" }, { &r->mem[2], "DMC" }, { &r->mem[3], "DMD" },
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (isk_resolve(bce->dfu, table[i].name, table[i].ref, why, cap) != ISK_OK) return false;
    return true;
}

/* The glue between bce->pb and bce->dfu: the DFU's storages, its memory size, the ports. */
static bool connect(edk_bce *bce, char *why, size_t cap)
{
    if (!lookup_refs(bce, why, cap)) return false;
    int64_t words;
    if (!isk_get_param_number(bce->dfu, "memory_words", &words)) {
        snprintf(why, cap, "%s has no parameter 'memory_words'", isk_inst_name(bce->dfu));
        return false;
    }
    bce->dmem_words = (size_t)words;
    isk_set_ports(bce->pb, bce_port_read, bce_port_write, bce);
    return true;
}

/* The glue's registers, the mailbox and the program-time counter after a reset. */
static void reset_glue(edk_bce *bce)
{
    memset(&bce->mb, 0, sizeof bce->mb);
    bce->host_status = 0;
    bce->ag_select = bce->cmem_addr = bce->cmem_byte = 0;
    bce->prg_base = isk_clock(bce->sys);
    bce->prg_latch = 0;
    bce_reset_dfu_registers(bce);
}

edk_bce *edk_bce_attach(isk_system *sys, isk_inst *pb, isk_inst *dfu, char *why, size_t cap)
{
    edk_bce *bce = isk_xcalloc(1, sizeof *bce);
    isk_diag_init(&bce->own_diag);
    bce->diag = &bce->own_diag;
    bce->timeout = DEFAULT_TIMEOUT;
    bce->sys = sys;
    bce->pb = pb;
    bce->dfu = dfu;
    if (!connect(bce, why, cap)) {
        edk_close(bce);
        return NULL;
    }
    reset_glue(bce);
    return bce;
}

/* "name=value" sets a DFU parameter, "pb.name=value" one of the PicoBlaze. */
static bool apply_params(edk_bce *bce, const char *const *params)
{
    for (size_t i = 0; params && params[i]; i++) {
        bool to_pb = strncmp(params[i], "pb.", 3) == 0;
        if (isk_set_param_text(to_pb ? bce->pb : bce->dfu, params[i] + (to_pb ? 3 : 0)) != ISK_OK) return false;
    }
    return true;
}

edk_bce *edk_open(const edk_config *cfg)
{
    edk_config defaults = { 0 };
    if (!cfg) cfg = &defaults;
    edk_bce *bce = isk_xcalloc(1, sizeof *bce);
    isk_diag_init(&bce->own_diag);
    bce->diag = cfg->diag ? cfg->diag : &bce->own_diag;
    bce->timeout = cfg->timeout_clocks ? cfg->timeout_clocks : DEFAULT_TIMEOUT;
    bce->pb_model = isk_model_load(cfg->core ? cfg->core : "kcpsm3", bce->diag);
    bce->dfu_model = isk_model_load("edkdsp_dfu", bce->diag);
    if (!bce->pb_model || !bce->dfu_model) goto fail;
    isk_system_options o = cfg->system ? *cfg->system : (isk_system_options){ 0 };
    o.diag = bce->diag;
    bce->sys = isk_system_new(&o);
    bce->owns_system = true;
    bce->pb = isk_system_add(bce->sys, bce->pb_model, "pb");
    bce->dfu = isk_system_add(bce->sys, bce->dfu_model, "dfu");
    if (!bce->pb || !bce->dfu || isk_attach(bce->sys, bce->dfu, 0) != ISK_OK) goto fail;
    char why[256];
    if (!apply_params(bce, cfg->params)) goto fail;
    if (!connect(bce, why, sizeof why)) {
        isk_error(bce->diag, NULL, "%s", why);
        goto fail;
    }
    if (edk_reset(bce) != EDK_OK) goto fail;
    return bce;
fail:
    edk_close(bce);
    return NULL;
}

void edk_close(edk_bce *bce)
{
    if (!bce) return;
    if (bce->owns_system) isk_system_free(bce->sys);
    if (bce->pb_model) isk_model_release(bce->pb_model);
    if (bce->dfu_model) isk_model_release(bce->dfu_model);
    for (int i = 0; i < EDK_SLOTS; i++) free(bce->slots[i].words), isk_obj_free(bce->slots[i].symbols);
    VEC_FREE(&bce->log);
    free(bce);
}

const char *edk_last_error(const edk_bce *bce)
{
    const char *e = bce->sys ? isk_last_error(bce->sys) : "";
    return *e ? e : bce->diag->last;
}

isk_system *edk_system(edk_bce *bce) { return bce->sys; }

void edk_bce_group(edk_bce *const *bces, size_t n)
{
    for (size_t i = 0; i < n; i++) bces[i]->group = bces, bces[i]->ngroup = n;
}

size_t edk_bce_count(const edk_bce *bce) { return !bce ? 0 : bce->group ? bce->ngroup : 1; }

edk_bce *edk_bce_at(const edk_bce *bce, size_t i)
{
    if (!bce || i >= edk_bce_count(bce)) return NULL;
    return bce->group ? bce->group[i] : (edk_bce *)bce;
}
uint64_t edk_clock(const edk_bce *bce) { return isk_clock(bce->sys); }
unsigned edk_status(const edk_bce *bce) { return bce->host_status; }
size_t edk_dmem_words(const edk_bce *bce) { return bce->dmem_words; }

/* ---- time ------------------------------------------------------------------------------------ */

/* Every clock the host's calls run: through a debugger's stepper if one is set (edk_set_step). */
static isk_status advance(edk_bce *bce, uint64_t clocks)
{
    return bce->step ? bce->step(bce->step_user, clocks) : isk_step(bce->sys, clocks);
}

int bce_wait(edk_bce *bce, bool (*cond)(edk_bce *bce, const void *arg), const void *arg, bool polled)
{
    const uint64_t deadline = isk_clock(bce->sys) + bce->timeout;
    int rc = EDK_OK;
    bce->waiting = true;
    while (rc == EDK_OK && !cond(bce, arg)) {
        uint64_t now = isk_clock(bce->sys);
        if (now >= deadline) {
            isk_error(bce->diag, NULL, "clock %llu: the host waited %llu clocks in vain (timeout)",
                      (unsigned long long)now, (unsigned long long)bce->timeout);
            rc = EDK_ERR_TIMEOUT;
        } else if (advance(bce, polled ? 1 : deadline - now) != ISK_OK) {
            rc = EDK_ERR;
        }
    }
    bce->waiting = false;
    return rc;
}

/* Only a waiting host call cuts the run short: in a system description's run nobody waits. */
void bce_event(edk_bce *bce)
{
    if (bce->waiting) isk_stop_after_clock(bce->sys);
}

void edk_set_step(edk_bce *bce, isk_status (*step)(void *user, uint64_t clocks), void *user)
{
    if (!bce) return;
    bce->step = step;
    bce->step_user = user;
}

int edk_run(edk_bce *bce, uint64_t clocks)
{
    if (!bce) return EDK_ERR_NULL;
    return advance(bce, clocks) == ISK_OK ? EDK_OK : EDK_ERR;
}

static bool dfu_idle(edk_bce *bce, const void *arg)
{
    (void)arg;
    return isk_busy_slots(bce->dfu) == 0;
}

int edk_wait_dfu(edk_bce *bce)
{
    if (!bce) return EDK_ERR_NULL;
    return bce_wait(bce, dfu_idle, NULL, true);
}

const edk_dfu_record *edk_dfu_log(edk_bce *bce, size_t *n)
{
    bce_update_log(bce);
    *n = bce->log.len;
    return bce->log.data;
}

/* ---- firmware, reset, start -------------------------------------------------------------------- */

static size_t program_words(const edk_bce *bce)
{
    isk_ref irom;
    return isk_resolve(bce->pb, "IROM", &irom, (char[80]){ 0 }, 80) == ISK_OK
               ? (size_t)isk_model_storage(bce->pb_model, irom.storage)->count : 0;
}

int edk_set_firmware(edk_bce *bce, int slot, const uint32_t *words, size_t n)
{
    if (!bce || !words) return EDK_ERR_NULL;
    if (slot < 0 || slot >= EDK_SLOTS || n > program_words(bce)) {
        isk_error(bce->diag, NULL, "firmware slot %d: %zu words (slots 0..%d, at most %zu words)", slot, n,
                  EDK_SLOTS - 1, program_words(bce));
        return EDK_ERR_RANGE;
    }
    for (size_t i = 0; i < n; i++)
        if (words[i] > 0x3FFFF) {
            isk_error(bce->diag, NULL, "firmware word %zu is 0x%X, wider than 18 bits", i, words[i]);
            return EDK_ERR_RANGE;
        }
    firmware_slot *s = &bce->slots[slot];
    free(s->words);
    isk_obj_free(s->symbols);
    s->symbols = NULL;
    s->words = isk_xcalloc(n ? n : 1, sizeof *s->words);
    memcpy(s->words, words, n * sizeof *words);
    s->n = n;
    return EDK_OK;
}

int edk_set_firmware_file(edk_bce *bce, int slot, const char *path)
{
    if (!bce || !path) return EDK_ERR_NULL;
    size_t len = strlen(path);
    if (len > 4 && strcmp(path + len - 4, ".psm") == 0) {
        psm_options o;
        psm_options_init(&o, bce->pb_model);
        psm_program *p = psm_assemble_file(path, &o, bce->diag);
        if (!p) return EDK_ERR;
        int rc = edk_set_firmware(bce, slot, p->words, p->has_default_jump ? p->size : p->end);
        if (rc == EDK_OK) bce->slots[slot].symbols = psm_program_obj(p, bce->pb_model, path);
        psm_program_free(p);
        return rc;
    }
    size_t cap = program_words(bce), n = 0;
    uint32_t *words = isk_xcalloc(cap, sizeof *words);
    int rc = psm_read_image(path, words, cap, &n, bce->diag) == 0 ? edk_set_firmware(bce, slot, words, n) : EDK_ERR;
    free(words);
    return rc;
}

int edk_reset(edk_bce *bce)
{
    if (!bce) return EDK_ERR_NULL;
    /* An operation in flight finishes first: the model cannot cut a pipeline in half. */
    if (isk_busy_slots(bce->dfu) && edk_wait_dfu(bce) != EDK_OK) return EDK_ERR;
    bce_update_log(bce);
    if (pb_reset(bce->pb, 0) != ISK_OK) return EDK_ERR;
    reset_glue(bce);
    return EDK_OK;
}

static bool firmware_running(edk_bce *bce, const void *arg)
{
    (void)arg;
    return bce->host_status & EDK_STATUS_RUNNING;
}

int edk_start(edk_bce *bce, int slot)
{
    int rc = edk_launch(bce, slot);
    return rc == EDK_OK ? bce_wait(bce, firmware_running, NULL, false) : rc;
}

int edk_launch(edk_bce *bce, int slot)
{
    if (!bce) return EDK_ERR_NULL;
    if (slot < 0 || slot >= EDK_SLOTS || !bce->slots[slot].words) {
        isk_error(bce->diag, NULL, "no firmware in slot %d", slot);
        return EDK_ERR_NOINIT;
    }
    int rc = edk_reset(bce);
    if (rc != EDK_OK) return rc;
    isk_ref irom;
    if (isk_lookup(bce->pb, "IROM", &irom) != ISK_OK) return EDK_ERR;
    size_t size = program_words(bce);
    const firmware_slot *s = &bce->slots[slot];
    for (size_t i = 0; i < size; i++) {
        irom.index = i;
        isk_ref_write(&irom, i < s->n ? s->words[i] : 0);
    }
    if (s->symbols) isk_loaded_keep(bce->pb, s->symbols, bce->diag);
    return pb_reset(bce->pb, 1) == ISK_OK ? EDK_OK : EDK_ERR;
}

int edk_end(edk_bce *bce)
{
    if (!bce) return EDK_ERR_NULL;
    return pb_reset(bce->pb, 0) == ISK_OK ? EDK_OK : EDK_ERR;
}
