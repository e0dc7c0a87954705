/* dlc's SW26010 athread emulation: spawn/join, LDM discovery, errors,
 * parameters and the launch records. Rules: docs/Targets/Sunway.md. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "athread.h"
#include "emu_internal.h"

/* glibc's TLS resolver (x86-64 and aarch64 ld.so export it): allocates the
 * calling thread's block of a module lazily, like any TLS access would. */
struct emu_tls_index {
  unsigned long ti_module, ti_offset;
};
extern void *__tls_get_addr(struct emu_tls_index *);

static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_key_t g_key;
static struct dlc_emu_params g_params;
static int g_params_set;
static int g_init;
static struct emu_spawn *g_current;
static int g_spawn_failed_early; /* spawn refused: join must fail */

static pthread_mutex_t g_err_mu = PTHREAD_MUTEX_INITIALIZER;
static char g_error[2048];
static int g_has_error;

struct emu_launch_rec {
  struct dlc_emu_launch l;
  char *name;
  unsigned long long *hb, *hn;
};
static struct emu_launch_rec **g_launches;
static int g_nlaunches, g_caplaunches;

static void emu_once(void) { pthread_key_create(&g_key, NULL); }

/* ---- parameters -------------------------------------------------------- */

void dlc_emu_default_params(struct dlc_emu_params *p) {
  /* swCandle STREAM triad, one core group, 64 CPEs (TARGETS.md). */
  static const double blocks[] = {64, 256, 1024, 2048, 8192, 16384, 24576};
  static const double gbs[] = {2.4, 8.3, 14.8, 18.0, 21.3, 22.1, 22.3};
  int i;
  memset(p, 0, sizeof *p);
  p->clock_hz = 1.45e9;
  p->cpes = 64;
  p->ldm_bytes = 65536;
  p->stack_reserve_bytes = 8192;
  p->regcomm_fifo_depth = 4;
  p->regcomm_latency_cycles = 10;
  p->barrier_cycles = 100;
  p->spawn_overhead_cycles = 14500; /* 10 us */
  p->divide_cycles = 32;
  p->bandwidth_points = 7;
  for (i = 0; i < 7; ++i) {
    p->bandwidth_block_bytes[i] = blocks[i];
    p->bandwidth_bytes_per_second[i] = gbs[i] * 1e9;
  }
  p->dma_alignment_bytes = 4;
  p->main_memory_access_cycles = 278;
}

static void ensure_params(void) {
  if (!g_params_set) {
    dlc_emu_default_params(&g_params);
    g_params_set = 1;
  }
}

int dlc_emu_configure(const struct dlc_emu_params *p) {
  int i, rc = 0;
  if (!p)
    return -1;
  if (!(p->clock_hz > 0) || p->cpes != 64 || p->ldm_bytes <= 0 ||
      p->stack_reserve_bytes < 0 || p->regcomm_fifo_depth < 1 ||
      p->regcomm_fifo_depth > 4096 || p->regcomm_latency_cycles < 0 ||
      p->barrier_cycles < 0 || p->spawn_overhead_cycles < 0 ||
      p->divide_cycles < 1 || p->bandwidth_points < 1 ||
      p->main_memory_access_cycles < 0 ||
      p->bandwidth_points > DLC_EMU_MAX_BANDWIDTH_POINTS)
    return -1;
  for (i = 0; i < p->bandwidth_points; ++i) {
    if (!(p->bandwidth_block_bytes[i] > 0) ||
        !(p->bandwidth_bytes_per_second[i] > 0))
      return -1;
    if (i > 0 && !(p->bandwidth_block_bytes[i] > p->bandwidth_block_bytes[i - 1]))
      return -1;
  }
  if (p->dma_alignment_bytes < 1 ||
      (p->dma_alignment_bytes & (p->dma_alignment_bytes - 1)))
    return -1;
  pthread_mutex_lock(&g_mu);
  if (g_current)
    rc = -1;
  else {
    g_params = *p;
    g_params_set = 1;
  }
  pthread_mutex_unlock(&g_mu);
  return rc;
}

double emu_bw(const struct dlc_emu_params *p, double block) {
  int n = p->bandwidth_points, i;
  const double *x = p->bandwidth_block_bytes, *y = p->bandwidth_bytes_per_second;
  if (block <= x[0])
    return y[0];
  if (block >= x[n - 1])
    return y[n - 1];
  for (i = 1; i < n; ++i)
    if (block <= x[i])
      return y[i - 1] + (y[i] - y[i - 1]) * (block - x[i - 1]) / (x[i] - x[i - 1]);
  return y[n - 1];
}

double dlc_emu_bandwidth(double block_bytes) {
  double r;
  pthread_mutex_lock(&g_mu);
  ensure_params();
  r = emu_bw(&g_params, block_bytes);
  pthread_mutex_unlock(&g_mu);
  return r;
}

/* ---- errors -------------------------------------------------------------- */

void emu_record_error(const char *msg) {
  pthread_mutex_lock(&g_err_mu);
  if (!g_has_error) {
    snprintf(g_error, sizeof g_error, "%s", msg);
    g_has_error = 1;
    fprintf(stderr, "dlc athread emulation: error: %s\n", msg);
  }
  pthread_mutex_unlock(&g_err_mu);
}

const char *dlc_emu_error(void) {
  const char *r;
  pthread_mutex_lock(&g_err_mu);
  r = g_has_error ? g_error : NULL;
  pthread_mutex_unlock(&g_err_mu);
  return r;
}

static void record_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record_errorf(const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  emu_record_error(buf);
}

void emu_wake_all(struct emu_spawn *sp) {
  int i;
  for (i = 0; i < EMU_NCPE; ++i)
    pthread_cond_signal(&sp->cpe[i].cv);
}

/* Leaves the kernel of CPE c (longjmp to its worker frame). */
_Noreturn void emu_leave(struct emu_cpe *c, int locked) {
  c->wait_kind = W_NONE;
  if (locked)
    pthread_mutex_unlock(&c->sp->mu);
  longjmp(c->jb, 1);
}

static void vfail_locked(struct emu_cpe *c, const char *fmt, va_list ap) {
  char msg[1024];
  Dl_info di;
  /* The kernel's name (k<N>, as host.c spawns it) locates the layer. */
  int n = (dladdr(c->sp->fn_addr, &di) && di.dli_sname)
              ? snprintf(msg, sizeof msg, "CPE %d in %s: ", c->id, di.dli_sname)
              : snprintf(msg, sizeof msg, "CPE %d: ", c->id);
  vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
  emu_record_error(msg);
  c->sp->failed = 1;
  atomic_store(&c->sp->abort, 1);
  emu_wake_all(c->sp);
}

_Noreturn void emu_fail_locked(struct emu_cpe *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail_locked(c, fmt, ap);
  va_end(ap);
  emu_leave(c, 1);
}

_Noreturn void emu_fail(struct emu_cpe *c, const char *fmt, ...) {
  va_list ap;
  pthread_mutex_lock(&c->sp->mu);
  va_start(ap, fmt);
  vfail_locked(c, fmt, ap);
  va_end(ap);
  emu_leave(c, 1);
}

void emu_check_abort(struct emu_cpe *c) {
  if (atomic_load_explicit(&c->sp->abort, memory_order_relaxed))
    emu_leave(c, 0);
}

struct emu_cpe *emu_self(void) {
  pthread_once(&g_once, emu_once);
  return (struct emu_cpe *)pthread_getspecific(g_key);
}

struct emu_cpe *emu_self_or_error(const char *what) {
  struct emu_cpe *c = emu_self();
  if (!c) {
    record_errorf("%s called outside a CPE kernel (from the MPE)", what);
    return NULL;
  }
  emu_check_abort(c);
  return c;
}

/* ---- clock --------------------------------------------------------------- */

/* Closes the current compute interval: the CPE dual-issues one
 * floating-point-pipeline and one memory-pipeline instruction per cycle. */
void emu_flush(struct emu_cpe *c) {
  double d = c->fp_pending > c->mem_pending ? c->fp_pending : c->mem_pending;
  c->clock += d;
  c->c.compute_cycles += (unsigned long long)llround(d);
  c->fp_pending = c->mem_pending = 0;
}

/* ---- address classification ------------------------------------------------ */

static int inside(const char *p, size_t n, const char *lo, const char *hi) {
  return p >= lo && p <= hi && n <= (size_t)(hi - p);
}
static int overlaps(const char *p, size_t n, const char *lo, const char *hi) {
  return lo < hi && p < hi && p + n > lo;
}

int emu_classify(struct emu_cpe *c, const void *vp, size_t n) {
  const char *p = (const char *)vp;
  struct emu_spawn *sp = c->sp;
  const char *win_lo = c->entry_sp - sp->p.stack_reserve_bytes;
  int i;
  if (n == 0)
    n = 1;
  if (c->ldm_lo && inside(p, n, c->ldm_lo, c->ldm_hi))
    return IN_LDM_TLS;
  if (c->ldm_lo && overlaps(p, n, c->ldm_lo, c->ldm_hi))
    return IN_PARTIAL;
  if (inside(p, n, c->stk_lo, c->stk_hi)) {
    if (p >= win_lo)
      return IN_LDM_STACK;
    return IN_STACK_DEEP;
  }
  if (overlaps(p, n, c->stk_lo, c->stk_hi))
    return IN_PARTIAL;
  for (i = 0; i < EMU_NCPE; ++i) {
    struct emu_cpe *o = &sp->cpe[i];
    if (o == c)
      continue;
    if (o->ldm_lo && overlaps(p, n, o->ldm_lo, o->ldm_hi))
      return IN_OTHER_LDM;
    if (o->stk_lo && overlaps(p, n, o->stk_lo, o->stk_hi))
      return IN_OTHER_LDM;
  }
  return IN_MAIN;
}

/* ---- module and TLS discovery --------------------------------------------------- */

struct find_ctx {
  uintptr_t addr;
  int found;
  size_t tls_size, modid;
  void *tls_data;
};

static int find_cb(struct dl_phdr_info *info, size_t size, void *data) {
  struct find_ctx *f = (struct find_ctx *)data;
  int i, hit = 0;
  (void)size;
  for (i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_LOAD) {
      uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
      if (f->addr >= lo && f->addr < lo + ph->p_memsz)
        hit = 1;
    }
  }
  if (!hit)
    return 0;
  f->found = 1;
  for (i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_TLS) {
      f->tls_size = info->dlpi_phdr[i].p_memsz;
      f->modid = info->dlpi_tls_modid;
      f->tls_data = info->dlpi_tls_data;
    }
  return 1;
}

static void resolve_ldm(struct emu_cpe *c) {
  struct find_ctx f;
  pthread_attr_t a;
  void *stk = NULL;
  size_t stksz = 0;
  memset(&f, 0, sizeof f);
  f.addr = (uintptr_t)c->sp->fn_addr;
  dl_iterate_phdr(find_cb, &f);
  if (!f.found) {
    c->resolve_error = "cannot find the module containing the kernel";
    return;
  }
  if (f.tls_size > 0) {
    if (!f.tls_data) {
      struct emu_tls_index ti;
      ti.ti_module = f.modid;
      ti.ti_offset = 0;
      f.tls_data = __tls_get_addr(&ti);
    }
    if (!f.tls_data) {
      c->resolve_error = "cannot locate this CPE's __thread_local block";
      return;
    }
    c->ldm_lo = (char *)f.tls_data;
    c->ldm_hi = c->ldm_lo + f.tls_size;
  }
  if (pthread_getattr_np(pthread_self(), &a) == 0) {
    pthread_attr_getstack(&a, &stk, &stksz);
    pthread_attr_destroy(&a);
  }
  c->stk_lo = (char *)stk;
  c->stk_hi = (char *)stk + stksz;
}

/* ---- spawn / join ------------------------------------------------------------------ */

static void check_pending_at_end(struct emu_cpe *c) {
  if (c->npend > 0) {
    struct emu_xfer *x = &c->pend[0];
    emu_fail(c,
             "kernel returned with %d DMA transfer(s) never waited for (first: "
             "athread_%s of %d bytes, reply word %p): the data would never be "
             "known to have arrived",
             c->npend, x->is_get ? "get" : "put", x->len, (void *)(uintptr_t)x->reply);
  }
}

static void *worker(void *arg) {
  struct emu_cpe *c = (struct emu_cpe *)arg;
  struct emu_spawn *sp = c->sp;
  char mark;
  pthread_setspecific(g_key, c);
  resolve_ldm(c);
  pthread_mutex_lock(&sp->mu);
  sp->nstarted++;
  pthread_cond_broadcast(&sp->gate);
  while (!sp->go)
    pthread_cond_wait(&sp->gate, &sp->mu);
  pthread_mutex_unlock(&sp->mu);

  c->entry_sp = &mark;
  if (setjmp(c->jb) == 0) {
    if (c->resolve_error)
      emu_fail(c, "%s", c->resolve_error);
    emu_check_abort(c);
    sp->fn(sp->arg);
    emu_flush(c);
    check_pending_at_end(c);
  }
  pthread_mutex_lock(&sp->mu);
  c->live = 0;
  if (!atomic_load(&sp->abort)) {
    char why[768];
    if (emu_all_stuck(sp, why, sizeof why)) {
      emu_record_error(why);
      sp->failed = 1;
      atomic_store(&sp->abort, 1);
      emu_wake_all(sp);
    }
  }
  pthread_mutex_unlock(&sp->mu);
  pthread_setspecific(g_key, NULL);
  return NULL;
}

int athread_init(void) {
  pthread_once(&g_once, emu_once);
  pthread_mutex_lock(&g_mu);
  ensure_params();
  g_init = 1;
  pthread_mutex_unlock(&g_mu);
  return 0;
}

int athread_halt(void) {
  int rc = 0;
  pthread_mutex_lock(&g_mu);
  if (g_current) {
    rc = -1;
    pthread_mutex_unlock(&g_mu);
    record_errorf("athread_halt: a spawned kernel was never joined");
    return rc;
  }
  g_init = 0;
  pthread_mutex_unlock(&g_mu);
  return rc;
}

static void free_spawn(struct emu_spawn *sp) {
  int i;
  for (i = 0; i < EMU_NCPE; ++i) {
    struct emu_cpe *c = &sp->cpe[i];
    pthread_cond_destroy(&c->cv);
    free(c->pend);
    free(c->rowq.e);
    free(c->colq.e);
    free(c->hist);
  }
  pthread_cond_destroy(&sp->gate);
  pthread_mutex_destroy(&sp->mu);
  free(sp);
}

int __real_athread_spawn(void *fn, void *arg) {
  struct emu_spawn *sp;
  struct find_ctx f;
  pthread_attr_t attr;
  int i, depth;
  pthread_once(&g_once, emu_once);
  pthread_mutex_lock(&g_mu);
  ensure_params();
  if (!g_init) {
    g_spawn_failed_early = 1;
    pthread_mutex_unlock(&g_mu);
    record_errorf("athread_spawn called before athread_init");
    return -1;
  }
  if (g_current) {
    g_spawn_failed_early = 1;
    pthread_mutex_unlock(&g_mu);
    record_errorf("athread_spawn: the previous kernel was never joined");
    return -1;
  }
  if (!fn) {
    g_spawn_failed_early = 1;
    pthread_mutex_unlock(&g_mu);
    record_errorf("athread_spawn: null kernel");
    return -1;
  }
  memset(&f, 0, sizeof f);
  f.addr = (uintptr_t)fn;
  dl_iterate_phdr(find_cb, &f);
  if (!f.found) {
    g_spawn_failed_early = 1;
    pthread_mutex_unlock(&g_mu);
    record_errorf("athread_spawn: %p is not inside any loaded module", fn);
    return -1;
  }
  sp = (struct emu_spawn *)calloc(1, sizeof *sp);
  if (!sp) {
    g_spawn_failed_early = 1;
    pthread_mutex_unlock(&g_mu);
    record_errorf("athread_spawn: out of memory");
    return -1;
  }
  sp->fn = (void (*)(void *))fn;
  sp->fn_addr = fn;
  sp->arg = arg;
  sp->p = g_params;
  sp->tls_size = f.tls_size;
  sp->tls_modid = f.modid;
  pthread_mutex_init(&sp->mu, NULL);
  pthread_cond_init(&sp->gate, NULL);
  atomic_init(&sp->abort, 0);
  for (i = 0; i < EMU_ROWS; ++i)
    sp->rowb[i].needed = EMU_COLS;
  for (i = 0; i < EMU_COLS; ++i)
    sp->colb[i].needed = EMU_ROWS;
  sp->arrb.needed = EMU_NCPE;
  depth = sp->p.regcomm_fifo_depth;
  for (i = 0; i < EMU_NCPE; ++i) {
    struct emu_cpe *c = &sp->cpe[i];
    c->id = i;
    c->row = i / EMU_COLS;
    c->col = i % EMU_COLS;
    c->sp = sp;
    c->live = 1;
    pthread_cond_init(&c->cv, NULL);
    c->rowq.e = (struct emu_fifo_entry *)calloc((size_t)depth, sizeof *c->rowq.e);
    c->colq.e = (struct emu_fifo_entry *)calloc((size_t)depth, sizeof *c->colq.e);
  }
  g_current = sp;
  pthread_mutex_unlock(&g_mu);

  if ((double)sp->tls_size + sp->p.stack_reserve_bytes > sp->p.ldm_bytes) {
    char msg[512];
    Dl_info di;
    const char *name = (dladdr(fn, &di) && di.dli_sname) ? di.dli_sname : "kernel";
    snprintf(msg, sizeof msg,
             "%s: LDM overflow: %zu bytes of __thread_local data + %d bytes stack "
             "reserve > %d",
             name, sp->tls_size, sp->p.stack_reserve_bytes, sp->p.ldm_bytes);
    emu_record_error(msg);
    sp->failed = 1;
    return -1;
  }

  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, (size_t)4 << 20);
  for (i = 0; i < EMU_NCPE; ++i) {
    if (pthread_create(&sp->cpe[i].th, &attr, worker, &sp->cpe[i]) != 0) {
      record_errorf("athread_spawn: cannot create the thread of CPE %d", i);
      sp->failed = 1;
      atomic_store(&sp->abort, 1);
      break;
    }
    sp->created++;
  }
  pthread_attr_destroy(&attr);
  pthread_mutex_lock(&sp->mu);
  while (sp->nstarted < sp->created)
    pthread_cond_wait(&sp->gate, &sp->mu);
  sp->go = 1;
  pthread_cond_broadcast(&sp->gate);
  pthread_mutex_unlock(&sp->mu);
  return sp->failed ? -1 : 0;
}

static void hist_merge(struct emu_launch_rec *r, const struct emu_hist *h, int n) {
  int i, j;
  for (i = 0; i < n; ++i) {
    for (j = 0; j < r->l.histogram_size; ++j)
      if (r->hb[j] == h[i].block)
        break;
    if (j == r->l.histogram_size) {
      /* insert sorted */
      int k = r->l.histogram_size++;
      r->hb = (unsigned long long *)realloc(r->hb, sizeof *r->hb * (size_t)(k + 1));
      r->hn = (unsigned long long *)realloc(r->hn, sizeof *r->hn * (size_t)(k + 1));
      while (k > 0 && r->hb[k - 1] > h[i].block) {
        r->hb[k] = r->hb[k - 1];
        r->hn[k] = r->hn[k - 1];
        --k;
      }
      r->hb[k] = h[i].block;
      r->hn[k] = 0;
      j = k;
    }
    r->hn[j] += h[i].n;
  }
}

static void finalize(struct emu_spawn *sp) {
  struct emu_launch_rec *r = (struct emu_launch_rec *)calloc(1, sizeof *r);
  Dl_info di;
  unsigned long long bytes = 0, transfers = 0, blocks = 0;
  double maxc = 0;
  int i;
  char buf[64];
  if (!r)
    return;
  if (dladdr(sp->fn_addr, &di) && di.dli_sname)
    r->name = strdup(di.dli_sname);
  else {
    snprintf(buf, sizeof buf, "kernel@%p", sp->fn_addr);
    r->name = strdup(buf);
  }
  r->l.kernel = r->name;
  for (i = 0; i < EMU_NCPE; ++i) {
    struct emu_cpe *c = &sp->cpe[i];
    c->c.clock_cycles = (unsigned long long)llround(c->clock);
    r->l.cpe[i] = c->c;
    if (c->clock > maxc)
      maxc = c->clock;
    bytes += c->c.dma_get_bytes + c->c.dma_put_bytes;
    transfers += c->c.dma_gets + c->c.dma_puts;
    blocks += c->blocks;
    hist_merge(r, c->hist, c->nhist);
  }
  r->l.histogram_block_bytes = r->hb;
  r->l.histogram_transfers = r->hn;
  r->l.dma_bytes = bytes;
  r->l.dma_transfers = transfers;
  r->l.max_cpe_cycles = maxc;
  r->l.dma_bound_cycles =
      bytes ? (double)bytes / emu_bw(&sp->p, (double)bytes / (double)blocks) * sp->p.clock_hz
            : 0.0;
  r->l.cycles = (maxc > r->l.dma_bound_cycles ? maxc : r->l.dma_bound_cycles) +
                sp->p.spawn_overhead_cycles;
  r->l.seconds = r->l.cycles / sp->p.clock_hz;
  r->l.failed = sp->failed;
  pthread_mutex_lock(&g_mu);
  if (g_nlaunches == g_caplaunches) {
    g_caplaunches = g_caplaunches ? 2 * g_caplaunches : 16;
    g_launches = (struct emu_launch_rec **)realloc(
        g_launches, sizeof *g_launches * (size_t)g_caplaunches);
  }
  g_launches[g_nlaunches++] = r;
  pthread_mutex_unlock(&g_mu);
}

int athread_join(void) {
  struct emu_spawn *sp;
  int i, failed;
  pthread_mutex_lock(&g_mu);
  sp = g_current;
  if (!sp) {
    int early = g_spawn_failed_early;
    g_spawn_failed_early = 0;
    pthread_mutex_unlock(&g_mu);
    if (!early)
      record_errorf("athread_join without a spawned kernel");
    return -1;
  }
  pthread_mutex_unlock(&g_mu);
  for (i = 0; i < sp->created; ++i)
    pthread_join(sp->cpe[i].th, NULL);
  /* Unread register-communication data. */
  if (!sp->failed)
    for (i = 0; i < EMU_NCPE; ++i) {
      struct emu_cpe *c = &sp->cpe[i];
      struct emu_fifo *q = c->rowq.count ? &c->rowq : c->colq.count ? &c->colq : NULL;
      if (q) {
        record_errorf("CPE %d: kernel ended with %d unread value(s) in its %s "
                      "receive buffer (first sent by CPE %d)",
                      i, q->count, q == &c->rowq ? "row" : "column",
                      q->e[q->head].sender);
        sp->failed = 1;
        break;
      }
    }
  finalize(sp);
  failed = sp->failed;
  pthread_mutex_lock(&g_mu);
  g_current = NULL;
  g_spawn_failed_early = 0;
  pthread_mutex_unlock(&g_mu);
  free_spawn(sp);
  return failed ? 1 : 0;
}

/* ---- query API -------------------------------------------------------------------------- */

void dlc_emu_reset(void) {
  int i;
  pthread_mutex_lock(&g_mu);
  for (i = 0; i < g_nlaunches; ++i) {
    free(g_launches[i]->name);
    free(g_launches[i]->hb);
    free(g_launches[i]->hn);
    free(g_launches[i]);
  }
  g_nlaunches = 0;
  pthread_mutex_unlock(&g_mu);
  pthread_mutex_lock(&g_err_mu);
  g_has_error = 0;
  g_error[0] = 0;
  pthread_mutex_unlock(&g_err_mu);
}

int dlc_emu_launch_count(void) {
  int n;
  pthread_mutex_lock(&g_mu);
  n = g_nlaunches;
  pthread_mutex_unlock(&g_mu);
  return n;
}

const struct dlc_emu_launch *dlc_emu_launch(int index) {
  const struct dlc_emu_launch *l = NULL;
  pthread_mutex_lock(&g_mu);
  if (index >= 0 && index < g_nlaunches)
    l = &g_launches[index]->l;
  pthread_mutex_unlock(&g_mu);
  return l;
}
