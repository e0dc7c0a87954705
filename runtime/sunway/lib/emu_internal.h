/* Private state of dlc's SW26010 athread emulation. */
#ifndef DLC_SUNWAY_EMU_INTERNAL_H
#define DLC_SUNWAY_EMU_INTERNAL_H

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "dlc_athread_emu.h"

#define EMU_ROWS 8
#define EMU_COLS 8
#define EMU_NCPE 64

/* One DMA transfer, pending until the wait that covers it. */
struct emu_xfer {
  int is_get;
  int mode;           /* dma_mode */
  char *main;         /* main-memory side */
  char *ldm;          /* LDM side, in the issuer's LDM */
  int len, stride, bsize;
  volatile int *reply;
  double end;         /* modeled completion time (cycles) */
  uint64_t targets;   /* CPEs whose LDM receives a get (bit per CPE) */
};

struct emu_fifo_entry {
  float v[4];
  double t; /* sender's clock at the put */
  int sender;
};

struct emu_fifo {
  struct emu_fifo_entry *e;
  int head, count;
  double last_pop; /* receiver's clock at its latest get */
};

struct emu_hist {
  unsigned long long block, n;
};

struct emu_barrier {
  int arrived, needed;
  unsigned gen;
  double maxclock, release;
};

enum { W_NONE, W_GETR, W_GETC, W_PUTR, W_PUTC, W_BARRIER };

struct emu_spawn;

struct emu_cpe {
  int id, row, col;
  struct emu_spawn *sp;
  pthread_t th;
  pthread_cond_t cv;
  /* LDM: the thread's TLS block of the kernel module, plus the part of the
   * thread stack within stack_reserve_bytes of the kernel's entry frame. */
  char *ldm_lo, *ldm_hi;
  char *stk_lo, *stk_hi, *entry_sp;
  const char *resolve_error;
  jmp_buf jb;
  struct dlc_emu_cpe_counters c;
  double clock, fp_pending, mem_pending, dma_free;
  struct emu_xfer *pend;
  int npend, cappend;
  struct emu_fifo rowq, colq;
  int live;
  int wait_kind, wait_arg;
  struct emu_barrier *wait_bar;
  unsigned wait_gen;
  struct emu_hist *hist;
  int nhist, caphist;
  unsigned long long blocks;
};

struct emu_spawn {
  void (*fn)(void *);
  void *fn_addr;
  void *arg;
  size_t tls_size, tls_modid;
  struct dlc_emu_params p;
  pthread_mutex_t mu;
  pthread_cond_t gate;
  int nstarted, go, created;
  atomic_int abort;
  int failed;
  struct emu_barrier rowb[EMU_ROWS], colb[EMU_COLS], arrb;
  struct emu_cpe cpe[EMU_NCPE];
};

/* emu_core.c */
struct emu_cpe *emu_self(void);
struct emu_cpe *emu_self_or_error(const char *what);
void emu_record_error(const char *msg);
_Noreturn void emu_fail(struct emu_cpe *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
_Noreturn void emu_fail_locked(struct emu_cpe *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
_Noreturn void emu_leave(struct emu_cpe *c, int locked);
void emu_check_abort(struct emu_cpe *c);
void emu_flush(struct emu_cpe *c);
double emu_bw(const struct dlc_emu_params *p, double block);

/* Where an address range lies, seen from CPE c. */
enum { IN_MAIN, IN_LDM_TLS, IN_LDM_STACK, IN_STACK_DEEP, IN_OTHER_LDM, IN_PARTIAL };
int emu_classify(struct emu_cpe *c, const void *p, size_t n);

/* emu_cpe.c */
void emu_block_until_ready(struct emu_cpe *c);
int emu_all_stuck(struct emu_spawn *sp, char *why, size_t whylen);
void emu_wake_all(struct emu_spawn *sp);

#endif
