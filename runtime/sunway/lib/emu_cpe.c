/* dlc's SW26010 athread emulation: CPE identity, SIMD counting and checks,
 * register communication, barriers and deadlock detection. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "emu_internal.h"
#include "simd.h"
#include "slave.h"

int dlc_emu_my_id(void) {
  struct emu_cpe *c = emu_self();
  return c ? c->id : -1;
}

int athread_get_id(int core) {
  struct emu_cpe *c = emu_self();
  if (core == -1)
    return c ? c->id : -1;
  return core >= 0 && core < EMU_NCPE ? core : -1;
}

/* ---- counting ---------------------------------------------------------- */

void dlc_emu_count(int op) {
  struct emu_cpe *c = emu_self();
  if (!c)
    return; /* MPE-side SIMD is not modeled */
  emu_check_abort(c);
  switch (op) {
  case DLC_EMU_OP_FP:
    c->c.fp_vector++;
    c->fp_pending += 1;
    break;
  case DLC_EMU_OP_FP_DIV:
    c->c.fp_vector++;
    c->c.fp_divide_sqrt++;
    c->fp_pending += c->sp->p.divide_cycles;
    break;
  case DLC_EMU_OP_LANE:
    c->c.lane_moves++;
    c->mem_pending += 1;
    break;
  case DLC_EMU_OP_SET:
    c->c.lane_moves += 4;
    c->mem_pending += 4;
    break;
  default:
    emu_fail(c, "internal: unknown SIMD operation %d", op);
  }
}

void dlc_emu_ldm_access(const void *addr, int kind) {
  static const char *names[] = {"simd_load", "simd_loadu", "simd_store",
                                "simd_storeu", "simd_loade"};
  struct emu_cpe *c = emu_self();
  size_t n = kind == DLC_EMU_LOADE ? 4 : 16;
  uintptr_t align = kind == DLC_EMU_LOADE ? 4 : (kind == DLC_EMU_LOAD || kind == DLC_EMU_STORE) ? 16 : 1;
  int w;
  if (!c)
    return;
  emu_check_abort(c);
  if (kind < 0 || kind > DLC_EMU_LOADE)
    emu_fail(c, "internal: unknown SIMD access kind %d", kind);
  w = emu_classify(c, addr, n);
  if (w != IN_LDM_TLS && w != IN_LDM_STACK) {
    if (w == IN_STACK_DEEP)
      emu_fail(c, "%s: address %p is a stack object deeper than the %d-byte LDM "
               "stack reserve", names[kind], addr, c->sp->p.stack_reserve_bytes);
    emu_fail(c, "%s: address %p (+%zu bytes) is not in this CPE's LDM (%s): CPEs "
             "have no data cache, vector access to main memory is invalid",
             names[kind], addr, n,
             w == IN_MAIN ? "main memory" : w == IN_OTHER_LDM ? "another CPE's LDM"
                                                              : "straddles the LDM end");
  }
  if ((uintptr_t)addr % align)
    emu_fail(c, "%s: address %p is not %d-byte aligned", names[kind], addr, (int)align);
  switch (kind) {
  case DLC_EMU_LOAD:
  case DLC_EMU_LOADU:
    c->c.ldm_vector_loads++;
    break;
  case DLC_EMU_STORE:
  case DLC_EMU_STOREU:
    c->c.ldm_vector_stores++;
    break;
  default:
    c->c.ldm_scalar_loads++;
    c->c.broadcasts++;
    break;
  }
  c->mem_pending += 1;
}

void dlc_emu_scalar(int kind, const void *addr, int bytes) {
  static const char *names[] = {"", "", "scalar LDM load", "scalar LDM store",
                                "main-memory load", "main-memory store"};
  struct emu_cpe *c = emu_self();
  int w;
  if (!c)
    return; /* the MPE's code is not modeled */
  emu_check_abort(c);
  if (kind < DLC_EMU_SCALAR_FP || kind > DLC_EMU_SCALAR_GSTORE)
    emu_fail(c, "internal: unknown scalar operation %d", kind);
  if (kind >= DLC_EMU_SCALAR_LOAD) {
    w = emu_classify(c, addr, bytes > 0 ? (size_t)bytes : 1);
    if (kind <= DLC_EMU_SCALAR_STORE && w != IN_LDM_TLS && w != IN_LDM_STACK)
      emu_fail(c, "%s: address %p is not in this CPE's LDM", names[kind], addr);
    if (kind >= DLC_EMU_SCALAR_GLOAD && w != IN_MAIN)
      emu_fail(c, "%s: address %p is not in main memory", names[kind], addr);
    if ((uintptr_t)addr % (bytes > 0 ? (uintptr_t)bytes : 1))
      emu_fail(c, "%s: address %p is not %d-byte aligned", names[kind], addr,
               bytes);
  }
  switch (kind) {
  case DLC_EMU_SCALAR_FP:
    c->c.fp_scalar++;
    c->fp_pending += 1;
    break;
  case DLC_EMU_SCALAR_FP_DIV:
    c->c.fp_scalar++;
    c->c.fp_divide_sqrt++;
    c->fp_pending += c->sp->p.divide_cycles;
    break;
  case DLC_EMU_SCALAR_LOAD:
    c->c.ldm_scalar_loads++;
    c->mem_pending += 1;
    break;
  case DLC_EMU_SCALAR_STORE:
    c->c.ldm_scalar_stores++;
    c->mem_pending += 1;
    break;
  case DLC_EMU_SCALAR_GLOAD:
    c->c.main_memory_loads++;
    c->mem_pending += c->sp->p.main_memory_access_cycles;
    break;
  default:
    c->c.main_memory_stores++;
    c->mem_pending += c->sp->p.main_memory_access_cycles;
    break;
  }
}

/* ---- blocking and deadlock ------------------------------------------------ */

static struct emu_cpe *target(struct emu_cpe *c, int row_net, int idx) {
  return row_net ? &c->sp->cpe[c->row * EMU_COLS + idx]
                 : &c->sp->cpe[idx * EMU_COLS + c->col];
}

static int put_ready(struct emu_cpe *c, int row_net, int dest) {
  int depth = c->sp->p.regcomm_fifo_depth, i;
  int self = row_net ? c->col : c->row;
  for (i = 0; i < 8; ++i) {
    struct emu_cpe *t;
    if (dest != 8 && i != dest)
      continue;
    if (i == self)
      continue;
    t = target(c, row_net, i);
    if ((row_net ? t->rowq.count : t->colq.count) >= depth)
      return 0;
  }
  return 1;
}

static int ready(struct emu_cpe *c) {
  switch (c->wait_kind) {
  case W_GETR: return c->rowq.count > 0;
  case W_GETC: return c->colq.count > 0;
  case W_PUTR: return put_ready(c, 1, c->wait_arg);
  case W_PUTC: return put_ready(c, 0, c->wait_arg);
  case W_BARRIER: return c->wait_bar->gen != c->wait_gen;
  default: return 1;
  }
}

static const char *wait_desc(int k) {
  switch (k) {
  case W_GETR: return "simd_getr (row receive buffer empty)";
  case W_GETC: return "simd_getc (column receive buffer empty)";
  case W_PUTR: return "simd_putr (receiver's row buffer full)";
  case W_PUTC: return "simd_putc (receiver's column buffer full)";
  case W_BARRIER: return "athread_syn";
  default: return "?";
  }
}

/* With sp->mu held: true when every live CPE is blocked on an unsatisfied
 * condition (and at least one is live); `why` then describes them. */
int emu_all_stuck(struct emu_spawn *sp, char *why, size_t whylen) {
  int i, live = 0, shown = 0;
  size_t n;
  for (i = 0; i < EMU_NCPE; ++i) {
    struct emu_cpe *c = &sp->cpe[i];
    if (!c->live)
      continue;
    live++;
    if (c->wait_kind == W_NONE || ready(c))
      return 0;
  }
  if (!live)
    return 0;
  n = (size_t)snprintf(why, whylen, "deadlock: all %d running CPEs are blocked:", live);
  for (i = 0; i < EMU_NCPE && n < whylen; ++i) {
    struct emu_cpe *c = &sp->cpe[i];
    if (!c->live)
      continue;
    if (shown == 4) {
      n += (size_t)snprintf(why + n, whylen - n, " ...");
      break;
    }
    n += (size_t)snprintf(why + n, whylen - n, "%s CPE %d in %s", shown ? ";" : "",
                          c->id, wait_desc(c->wait_kind));
    shown++;
  }
  return 1;
}

/* With sp->mu held and c->wait_kind set: waits until ready(c). */
void emu_block_until_ready(struct emu_cpe *c) {
  struct emu_spawn *sp = c->sp;
  char why[768];
  while (!ready(c)) {
    if (atomic_load(&sp->abort))
      emu_leave(c, 1);
    if (emu_all_stuck(sp, why, sizeof why)) {
      emu_record_error(why);
      sp->failed = 1;
      atomic_store(&sp->abort, 1);
      emu_wake_all(sp);
      emu_leave(c, 1);
    }
    pthread_cond_wait(&c->cv, &sp->mu);
  }
  c->wait_kind = W_NONE;
}

/* ---- register communication ------------------------------------------------ */

static void reg_put(const void *v16, int dest, int row_net) {
  const char *fn = row_net ? "simd_putr" : "simd_putc";
  struct emu_cpe *c = emu_self_or_error(fn);
  struct emu_spawn *sp;
  int self, depth, i, blocked;
  double t;
  if (!c)
    return;
  sp = c->sp;
  self = row_net ? c->col : c->row;
  if (dest < 0 || dest > 8)
    emu_fail(c, "%s: destination %s %d out of range (0..7, or 8 to broadcast)", fn,
             row_net ? "column" : "row", dest);
  if (dest == self)
    emu_fail(c, "%s: CPE %d sends to itself (%s %d)", fn, c->id,
             row_net ? "column" : "row", dest);
  if (row_net)
    c->c.regcomm_row_puts++;
  else
    c->c.regcomm_col_puts++;
  c->mem_pending += 1;
  depth = sp->p.regcomm_fifo_depth;
  pthread_mutex_lock(&sp->mu);
  if (atomic_load(&sp->abort))
    emu_leave(c, 1);
  emu_flush(c);
  blocked = !put_ready(c, row_net, dest);
  if (blocked) {
    c->wait_kind = row_net ? W_PUTR : W_PUTC;
    c->wait_arg = dest;
    emu_block_until_ready(c);
  }
  t = c->clock;
  for (i = 0; i < 8; ++i) {
    struct emu_cpe *tc;
    struct emu_fifo *q;
    struct emu_fifo_entry *e;
    if ((dest != 8 && i != dest) || i == self)
      continue;
    tc = target(c, row_net, i);
    q = row_net ? &tc->rowq : &tc->colq;
    /* A full buffer delays the put until the receiver's latest get. */
    if (blocked && q->last_pop > t)
      t = q->last_pop;
    e = &q->e[(q->head + q->count) % depth];
    memcpy(e->v, v16, sizeof e->v);
    e->sender = c->id;
    q->count++;
    pthread_cond_signal(&tc->cv);
  }
  if (t > c->clock) {
    c->c.regcomm_wait_cycles += (unsigned long long)(t - c->clock + 0.5);
    c->clock = t;
  }
  for (i = 0; i < 8; ++i) {
    struct emu_fifo *q;
    if ((dest != 8 && i != dest) || i == self)
      continue;
    q = row_net ? &target(c, row_net, i)->rowq : &target(c, row_net, i)->colq;
    q->e[(q->head + q->count - 1) % depth].t = c->clock;
  }
  pthread_mutex_unlock(&sp->mu);
}

static void reg_get(void *out16, int row_net) {
  const char *fn = row_net ? "simd_getr" : "simd_getc";
  struct emu_cpe *c = emu_self_or_error(fn);
  struct emu_spawn *sp;
  struct emu_fifo *q;
  struct emu_fifo_entry *e;
  double arrive;
  int i;
  if (!c)
    return;
  sp = c->sp;
  if (row_net)
    c->c.regcomm_row_gets++;
  else
    c->c.regcomm_col_gets++;
  c->mem_pending += 1;
  pthread_mutex_lock(&sp->mu);
  if (atomic_load(&sp->abort))
    emu_leave(c, 1);
  emu_flush(c);
  q = row_net ? &c->rowq : &c->colq;
  if (q->count == 0) {
    c->wait_kind = row_net ? W_GETR : W_GETC;
    emu_block_until_ready(c);
  }
  e = &q->e[q->head];
  memcpy(out16, e->v, sizeof e->v);
  arrive = e->t + sp->p.regcomm_latency_cycles;
  q->head = (q->head + 1) % sp->p.regcomm_fifo_depth;
  q->count--;
  if (arrive > c->clock) {
    c->c.regcomm_wait_cycles += (unsigned long long)(arrive - c->clock + 0.5);
    c->clock = arrive;
  }
  q->last_pop = c->clock;
  /* Wake senders that may wait for room in this buffer. */
  for (i = 0; i < 8; ++i)
    pthread_cond_signal(&target(c, row_net, i)->cv);
  pthread_mutex_unlock(&sp->mu);
}

void dlc_emu_putr(const void *v16, int dest_col) { reg_put(v16, dest_col, 1); }
void dlc_emu_putc(const void *v16, int dest_row) { reg_put(v16, dest_row, 0); }
void dlc_emu_getr(void *out16) { reg_get(out16, 1); }
void dlc_emu_getc(void *out16) { reg_get(out16, 0); }

/* ---- barriers ------------------------------------------------------------------ */

void athread_syn(athread_scope scope, int mask) {
  struct emu_cpe *c = emu_self_or_error("athread_syn");
  struct emu_spawn *sp;
  struct emu_barrier *b;
  int full, i;
  double before;
  if (!c)
    return;
  sp = c->sp;
  switch (scope) {
  case ROW_SCOPE: b = &sp->rowb[c->row]; full = 0xff; break;
  case COL_SCOPE: b = &sp->colb[c->col]; full = 0xff; break;
  case ARRAY_SCOPE: b = &sp->arrb; full = 0xffff; break;
  default: emu_fail(c, "athread_syn: invalid scope %d", (int)scope);
  }
  if (mask != full)
    emu_fail(c, "athread_syn: partial mask 0x%x is not modeled (the %s scope needs "
             "0x%x)", (unsigned)mask,
             scope == ROW_SCOPE ? "row" : scope == COL_SCOPE ? "column" : "array", full);
  c->c.barriers++;
  pthread_mutex_lock(&sp->mu);
  if (atomic_load(&sp->abort))
    emu_leave(c, 1);
  emu_flush(c);
  before = c->clock;
  if (c->clock > b->maxclock)
    b->maxclock = c->clock;
  if (++b->arrived == b->needed) {
    b->release = b->maxclock + sp->p.barrier_cycles;
    b->arrived = 0;
    b->maxclock = 0;
    b->gen++;
    for (i = 0; i < EMU_NCPE; ++i) {
      struct emu_cpe *o = &sp->cpe[i];
      if (scope == ARRAY_SCOPE || (scope == ROW_SCOPE && o->row == c->row) ||
          (scope == COL_SCOPE && o->col == c->col))
        pthread_cond_signal(&o->cv);
    }
  } else {
    c->wait_kind = W_BARRIER;
    c->wait_bar = b;
    c->wait_gen = b->gen;
    emu_block_until_ready(c);
  }
  c->clock = b->release;
  c->c.barrier_wait_cycles += (unsigned long long)(c->clock - before + 0.5);
  pthread_mutex_unlock(&sp->mu);
}
