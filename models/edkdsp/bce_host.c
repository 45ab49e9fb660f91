/* The host's side of the BCE (isekit/edkdsp.h): the byte rendezvous with the firmware, the
 * control memory, the data memories and the WAL queries built on them.
 *
 * Rendezvous (mbpb_exchange_data, dfu.md 8.1): each party arrives with a byte and waits for the
 * other. The PicoBlaze arrives by writing its byte to port 0x10, polls port 0x11 until the host
 * has arrived, and completes the exchange by reading the host's byte from port 0x10; the host's
 * call returns once that read has happened, with the PicoBlaze's byte. */
#include <string.h>

#include "bce_int.h"
#include "dfu_arith.h"

static bool exchanged(edk_bce *bce, const void *arg)
{
    return bce->mb.exchanges >= *(const uint64_t *)arg;
}

static int rendezvous(edk_bce *bce, uint8_t host_byte, uint32_t *received)
{
    if (!isk_context_of(bce->pb, 0) || isk_context_of(bce->pb, 0)->state == ISK_CTX_STOPPED) {
        isk_error(bce->diag, NULL, "clock %llu: the firmware is not running (edk_start first)",
                  (unsigned long long)isk_clock(bce->sys));
        return EDK_ERR_NOINIT;
    }
    if (bce->mb.host_arrived) return EDK_ERR_RUNNING;
    bce->mb.host_arrived = true;
    bce->mb.host_byte = host_byte;
    uint64_t target = bce->mb.exchanges + 1;
    int rc = bce_wait(bce, exchanged, &target, false);
    if (rc != EDK_OK) {
        bce->mb.host_arrived = false;         /* the host leaves the barrier */
        return rc;
    }
    if (received) *received = bce->mb.delivered;
    return EDK_OK;
}

int edk_mb2pb(edk_bce *bce, uint32_t value)
{
    if (!bce) return EDK_ERR_NULL;
    return rendezvous(bce, (uint8_t)value, NULL);
}

int edk_pb2mb(edk_bce *bce, uint32_t *value)
{
    if (!bce) return EDK_ERR_NULL;
    return rendezvous(bce, 0, value);
}

/* ---- memories ---------------------------------------------------------------------------------- */

static int range_error(edk_bce *bce, const char *what, unsigned first, size_t n, size_t size)
{
    isk_error(bce->diag, NULL, "%s: words %u..%zu are outside its %zu words", what, first, first + n - 1, size);
    return EDK_ERR_RANGE;
}

int edk_write_cmem(edk_bce *bce, unsigned word, const uint32_t *src, size_t n)
{
    if (!bce || !src) return EDK_ERR_NULL;
    if ((size_t)word + n > EDK_CMEM_OUTPUT) return range_error(bce, "the host's region of CMEM", word, n, EDK_CMEM_OUTPUT);
    isk_ref r = bce->r.cmem;
    for (size_t i = 0; i < n; i++) {
        r.index = word + i;
        isk_ref_write(&r, src[i]);
    }
    return EDK_OK;
}

int edk_read_cmem(edk_bce *bce, unsigned word, uint32_t *dst, size_t n)
{
    if (!bce || !dst) return EDK_ERR_NULL;
    if ((size_t)word + n > EDK_CMEM_WORDS) return range_error(bce, "CMEM", word, n, EDK_CMEM_WORDS);
    isk_ref r = bce->r.cmem;
    for (size_t i = 0; i < n; i++) {
        r.index = word + i;
        dst[i] = (uint32_t)isk_ref_read(&r);
    }
    return EDK_OK;
}

static int check_dmem(edk_bce *bce, int mem, unsigned pos, size_t n)
{
    static const char *const names[] = { "data memory A", "data memory B", "data memory C", "data memory D" };
    if (mem < 0 || mem > 3) {
        isk_error(bce->diag, NULL, "data memory %d does not exist (EDK_MEM_A..EDK_MEM_D)", mem);
        return EDK_ERR_RANGE;
    }
    if ((size_t)pos + n > bce->dmem_words) return range_error(bce, names[mem], pos, n, bce->dmem_words);
    return EDK_OK;
}

int edk_write_dmem(edk_bce *bce, int mem, unsigned pos, const uint32_t *src, size_t n)
{
    if (!bce || !src) return EDK_ERR_NULL;
    int rc = check_dmem(bce, mem, pos, n);
    if (rc != EDK_OK) return rc;
    isk_ref r = bce->r.mem[mem];
    for (size_t i = 0; i < n; i++) {
        r.index = pos + i;
        isk_ref_write(&r, src[i]);
    }
    return EDK_OK;
}

int edk_read_dmem(edk_bce *bce, int mem, unsigned pos, uint32_t *dst, size_t n)
{
    if (!bce || !dst) return EDK_ERR_NULL;
    int rc = check_dmem(bce, mem, pos, n);
    if (rc != EDK_OK) return rc;
    isk_ref r = bce->r.mem[mem];
    for (size_t i = 0; i < n; i++) {
        r.index = pos + i;
        dst[i] = (uint32_t)isk_ref_read(&r);
    }
    return EDK_OK;
}

int edk_write_dmem_f32(edk_bce *bce, int mem, unsigned pos, const float *src, size_t n)
{
    if (!bce || !src) return EDK_ERR_NULL;
    int rc = check_dmem(bce, mem, pos, n);
    for (size_t i = 0; i < n && rc == EDK_OK; i++) {
        uint32_t w = dfu_w32(src[i]);
        rc = edk_write_dmem(bce, mem, pos + (unsigned)i, &w, 1);
    }
    return rc;
}

int edk_read_dmem_f32(edk_bce *bce, int mem, unsigned pos, float *dst, size_t n)
{
    if (!bce || !dst) return EDK_ERR_NULL;
    int rc = check_dmem(bce, mem, pos, n);
    for (size_t i = 0; i < n && rc == EDK_OK; i++) {
        uint32_t w;
        rc = edk_read_dmem(bce, mem, pos + (unsigned)i, &w, 1);
        dst[i] = dfu_f32(w);
    }
    return rc;
}

/* ---- WAL queries ------------------------------------------------------------------------------- */

/* Send an op byte, receive the firmware's return code. */
static int request(edk_bce *bce, uint32_t op)
{
    uint32_t rc = 0;
    int r = edk_mb2pb(bce, op);
    if (r == EDK_OK) r = edk_pb2mb(bce, &rc);
    if (r == EDK_OK && rc != 0) {
        isk_error(bce->diag, NULL, "clock %llu: the firmware answered op 0x%02X with return code 0x%02X",
                  (unsigned long long)isk_clock(bce->sys), op, rc);
        return EDK_ERR_FIRMWARE;
    }
    return r;
}

int edk_get_capability(edk_bce *bce, uint32_t caps[8])
{
    if (!bce || !caps) return EDK_ERR_NULL;
    int rc = request(bce, WAL_OP_GETCAP);
    return rc == EDK_OK ? edk_read_cmem(bce, EDK_CMEM_CAPS, caps, 8) : rc;
}

int edk_get_id(edk_bce *bce, uint32_t *id)
{
    if (!bce || !id) return EDK_ERR_NULL;
    int rc = request(bce, WAL_OP_GETID);
    return rc == EDK_OK ? edk_read_cmem(bce, EDK_CMEM_BCE_ID, id, 1) : rc;
}
