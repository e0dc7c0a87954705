/* dlc's SW26010 athread emulation: DMA (athread_get/put, reply waits). */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "emu_internal.h"
#include "slave.h"

static const char *mode_name(int m) {
  switch (m) {
  case PE_MODE: return "PE_MODE";
  case BCAST_MODE: return "BCAST_MODE";
  case ROW_MODE: return "ROW_MODE";
  case BROW_MODE: return "BROW_MODE";
  case RANK_MODE: return "RANK_MODE";
  default: return "an unknown mode";
  }
}

static const char *where_name(int w) {
  switch (w) {
  case IN_MAIN: return "main memory";
  case IN_LDM_TLS: return "this CPE's LDM";
  case IN_LDM_STACK: return "this CPE's LDM stack";
  case IN_STACK_DEEP: return "this CPE's stack beyond the LDM stack reserve";
  case IN_OTHER_LDM: return "another CPE's LDM";
  default: return "memory straddling the end of this CPE's LDM";
  }
}

static void hist_add(struct emu_cpe *c, unsigned long long block) {
  int i;
  for (i = 0; i < c->nhist; ++i)
    if (c->hist[i].block == block) {
      c->hist[i].n++;
      return;
    }
  if (c->nhist == c->caphist) {
    c->caphist = c->caphist ? 2 * c->caphist : 8;
    c->hist = (struct emu_hist *)realloc(c->hist, sizeof *c->hist * (size_t)c->caphist);
  }
  c->hist[c->nhist].block = block;
  c->hist[c->nhist].n = 1;
  c->nhist++;
}

static void check_ldm(struct emu_cpe *c, const char *fn, const char *what,
                      const void *p, size_t n, int tls_only) {
  int w = emu_classify(c, p, n);
  if (w == IN_LDM_TLS || (w == IN_LDM_STACK && !tls_only))
    return;
  if (w == IN_LDM_STACK)
    emu_fail(c, "%s: %s %p is on the CPE stack; broadcast modes need a "
             "__thread_local buffer (same LDM address on every CPE)", fn, what, p);
  if (w == IN_STACK_DEEP)
    emu_fail(c, "%s: %s %p (+%zu bytes) is a stack object deeper than the %d-byte "
             "LDM stack reserve", fn, what, p, n, c->sp->p.stack_reserve_bytes);
  emu_fail(c, "%s: %s %p (+%zu bytes) is not inside this CPE's LDM (it is in %s)",
           fn, what, p, n, where_name(w));
}

/* Common part of athread_get / athread_put. */
static int issue(int is_get, dma_mode mode, void *mainp, void *ldmp, int len,
                 void *reply, unsigned char mask, int stride, int bsize) {
  const char *fn = is_get ? "athread_get" : "athread_put";
  struct emu_cpe *c = emu_self_or_error(fn);
  struct emu_spawn *sp;
  struct emu_xfer x;
  int align, strided, span, w, i;
  double block, dur, start;
  if (!c)
    return -1;
  sp = c->sp;
  align = sp->p.dma_alignment_bytes;
  if (mode == ROW_MODE || mode == RANK_MODE)
    emu_fail(c, "%s: %s is not modeled by the emulation (its data distribution "
             "across the CPEs is not publicly documented); use PE_MODE",
             fn, mode_name(mode));
  if (mode != PE_MODE && mode != BCAST_MODE && mode != BROW_MODE)
    emu_fail(c, "%s: invalid DMA mode %d", fn, (int)mode);
  if (!is_get && mode != PE_MODE)
    emu_fail(c, "athread_put: %s is a get-only (broadcast) mode", mode_name(mode));
  if (len <= 0)
    emu_fail(c, "%s: len must be > 0 (got %d)", fn, len);
  strided = stride != 0;
  if (stride < 0)
    emu_fail(c, "%s: negative stride %d", fn, stride);
  if (strided && bsize <= 0)
    emu_fail(c, "%s: strided transfer (stride %d) needs bsize > 0 (got %d)", fn,
             stride, bsize);
  if (strided && len % bsize != 0)
    emu_fail(c, "%s: len %d is not a multiple of bsize %d", fn, len, bsize);
  if (len % align || (strided && (bsize % align || stride % align)))
    emu_fail(c, "%s: len %d, bsize %d and stride %d must be multiples of %d bytes",
             fn, len, strided ? bsize : 0, stride, align);
  if ((uintptr_t)mainp % (uintptr_t)align || (uintptr_t)ldmp % (uintptr_t)align)
    emu_fail(c, "%s: main-memory address %p and LDM address %p must be %d-byte aligned",
             fn, mainp, ldmp, align);
  if (!reply)
    emu_fail(c, "%s: null reply word", fn);
  if ((uintptr_t)reply % 4)
    emu_fail(c, "%s: reply word %p is not 4-byte aligned", fn, reply);
  check_ldm(c, fn, "reply word", reply, sizeof(int), 0);
  check_ldm(c, fn, is_get ? "LDM destination" : "LDM source", ldmp, (size_t)len,
            mode != PE_MODE);
  span = strided ? (len / bsize) * (bsize + stride) - stride : len;
  w = emu_classify(c, mainp, (size_t)span);
  if (w != IN_MAIN)
    emu_fail(c, "%s: main-memory %s %p (+%d bytes) is in %s, not main memory", fn,
             is_get ? "source" : "destination", mainp, span, where_name(w));
  if ((mode == BCAST_MODE || mode == BROW_MODE) && mask != 0xff)
    emu_fail(c, "%s: %s with partial mask 0x%02x is not modeled (only 0xff)", fn,
             mode_name(mode), mask);

  memset(&x, 0, sizeof x);
  x.is_get = is_get;
  x.mode = mode;
  x.main = (char *)mainp;
  x.ldm = (char *)ldmp;
  x.len = len;
  x.stride = stride;
  x.bsize = strided ? bsize : len;
  x.reply = (volatile int *)reply;
  if (mode == BCAST_MODE)
    x.targets = ~(uint64_t)0;
  else if (mode == BROW_MODE)
    x.targets = (uint64_t)0xff << (8 * c->row);
  else
    x.targets = (uint64_t)1 << c->id;

  /* Time: one DMA queue per CPE; the CG's bandwidth at this block size is
   * shared evenly by the 64 CPEs. */
  emu_flush(c);
  block = (double)x.bsize;
  start = c->clock > c->dma_free ? c->clock : c->dma_free;
  dur = (double)len / (emu_bw(&sp->p, block) / EMU_NCPE) * sp->p.clock_hz;
  x.end = start + dur;
  c->dma_free = x.end;
  if (is_get) {
    c->c.dma_gets++;
    c->c.dma_get_bytes += (unsigned long long)len;
  } else {
    c->c.dma_puts++;
    c->c.dma_put_bytes += (unsigned long long)len;
  }
  hist_add(c, (unsigned long long)x.bsize);
  c->blocks += (unsigned long long)(len / x.bsize);

  /* A get's destination holds poison (0xFF bytes: NaN) until its wait. */
  if (is_get)
    for (i = 0; i < EMU_NCPE; ++i)
      if (x.targets & ((uint64_t)1 << i)) {
        struct emu_cpe *t = &sp->cpe[i];
        char *dst = t == c ? x.ldm : t->ldm_lo + (x.ldm - c->ldm_lo);
        memset(dst, 0xFF, (size_t)len);
      }

  if (c->npend == c->cappend) {
    c->cappend = c->cappend ? 2 * c->cappend : 16;
    c->pend = (struct emu_xfer *)realloc(c->pend, sizeof *c->pend * (size_t)c->cappend);
  }
  c->pend[c->npend++] = x;
  return 0;
}

int athread_get(dma_mode mode, void *src, void *dest, int len, void *reply,
                char mask, int stride, int bsize) {
  return issue(1, mode, src, dest, len, reply, (unsigned char)mask, stride, bsize);
}

int athread_put(dma_mode mode, void *src, void *dest, int len, void *reply,
                int stride, int bsize) {
  return issue(0, mode, dest, src, len, reply, 0, stride, bsize);
}

static void complete(struct emu_cpe *c, const struct emu_xfer *x) {
  struct emu_spawn *sp = c->sp;
  int nb = x->len / x->bsize, k, i;
  size_t step = (size_t)x->bsize + (size_t)x->stride;
  if (!x->is_get) {
    for (k = 0; k < nb; ++k)
      memcpy(x->main + (size_t)k * step, x->ldm + (size_t)k * (size_t)x->bsize,
             (size_t)x->bsize);
    return;
  }
  for (i = 0; i < EMU_NCPE; ++i)
    if (x->targets & ((uint64_t)1 << i)) {
      struct emu_cpe *t = &sp->cpe[i];
      char *dst = t == c ? x->ldm : t->ldm_lo + (x->ldm - c->ldm_lo);
      for (k = 0; k < nb; ++k)
        memcpy(dst + (size_t)k * (size_t)x->bsize, x->main + (size_t)k * step,
               (size_t)x->bsize);
    }
}

void dlc_emu_wait_reply(volatile int *reply, int count) {
  struct emu_cpe *c = emu_self_or_error("dlc_emu_wait_reply");
  int i, j, done = 0;
  double end;
  if (!c)
    return;
  if (!reply || (uintptr_t)reply % 4)
    emu_fail(c, "dlc_wait_reply: invalid reply word %p", (void *)(uintptr_t)reply);
  check_ldm(c, "dlc_wait_reply", "reply word", (const void *)(uintptr_t)reply,
            sizeof(int), 0);
  emu_flush(c);
  end = c->clock;
  for (i = 0, j = 0; i < c->npend; ++i) {
    struct emu_xfer *x = &c->pend[i];
    if (x->reply == reply) {
      complete(c, x);
      if (x->end > end)
        end = x->end;
      done++;
    } else
      c->pend[j++] = *x;
  }
  c->npend = j;
  *reply += done;
  if (end > c->clock) {
    c->c.dma_wait_cycles += (unsigned long long)llround(end - c->clock);
    c->clock = end;
  }
  if (*reply != count) {
    int k = *reply;
    if (k < count)
      emu_fail(c, "dlc_wait_reply: waiting for reply == %d, but only %d transfers "
               "completed: this would hang on the SW26010", count, k);
    emu_fail(c, "dlc_wait_reply: waiting for reply == %d, but reply reached %d "
             "(more transfers completed than waited for): this would hang on "
             "the SW26010", count, k);
  }
}
