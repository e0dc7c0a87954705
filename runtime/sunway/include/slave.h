/* slave.h -- CPE side of the athread API, dlc's SW26010 emulation.
 *
 * Each CPE is a host thread; its LDM is the thread's copy of the kernel
 * module's __thread_local data (plus a bounded stack reserve). Every DMA
 * and every SIMD memory access is checked against that LDM, and misuse
 * stops the whole spawn with an error (athread_join returns non-zero).
 *
 * DMA completion: real code polls `while (reply != n);`. dlc's generated
 * code waits through dlc_wait_reply(&reply, n), which dlc's ABI header maps
 * to dlc_emu_wait_reply when DLC_ATHREAD_EMULATION is defined. A get fills
 * its LDM destination with 0xFF bytes (NaN for floats) when issued; the
 * data arrives only at the wait that covers it.
 */
#ifndef DLC_SUNWAY_SLAVE_H
#define DLC_SUNWAY_SLAVE_H

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_ATHREAD_EMULATION 1

/* LDM-resident data: one copy per CPE (host thread). */
#define __thread_local __thread

typedef enum { PE_MODE, BCAST_MODE, ROW_MODE, BROW_MODE, RANK_MODE } dma_mode;
typedef enum { ROW_SCOPE, COL_SCOPE, ARRAY_SCOPE } athread_scope;

int dlc_emu_my_id(void);
#define _MYID (dlc_emu_my_id())
#define _ROW (dlc_emu_my_id() / 8)
#define _COL (dlc_emu_my_id() % 8)

/* core == -1: the calling CPE's id (0..63). */
int athread_get_id(int core);

/* Main memory -> LDM. len: total bytes. stride != 0: main-memory side is
 * bsize bytes taken, stride bytes skipped, until len bytes moved; the LDM
 * side is contiguous. reply: a volatile int in LDM, incremented by one
 * when the transfer completes. */
int athread_get(dma_mode mode, void *src, void *dest, int len, void *reply,
                char mask, int stride, int bsize);
/* LDM -> main memory; same conventions (dest is strided). */
int athread_put(dma_mode mode, void *src, void *dest, int len, void *reply,
                int stride, int bsize);

/* Barrier of the caller's row (mask 0xff), column (0xff) or whole array
 * (0xffff). Partial masks are rejected. */
void athread_syn(athread_scope scope, int mask);

/* Completes every pending transfer of this CPE whose reply word is
 * `reply`, adds one to *reply per transfer, then requires *reply == count. */
void dlc_emu_wait_reply(volatile int *reply, int count);

/* Counting hooks of scalar code (dlc_sunway.h's DLC_* accessors). */
enum {
  DLC_EMU_SCALAR_FP = 0,       /* one scalar floating-point instruction */
  DLC_EMU_SCALAR_FP_DIV = 1,   /* divide, square root, math function */
  DLC_EMU_SCALAR_LOAD = 2,     /* LDM load */
  DLC_EMU_SCALAR_STORE = 3,    /* LDM store */
  DLC_EMU_SCALAR_GLOAD = 4,    /* main-memory load (gld) */
  DLC_EMU_SCALAR_GSTORE = 5    /* main-memory store (gst) */
};
void dlc_emu_scalar(int kind, const void *addr, int bytes);

#ifdef __cplusplus
}
#endif

#endif /* DLC_SUNWAY_SLAVE_H */
