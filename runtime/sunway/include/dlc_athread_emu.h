/* dlc_athread_emu.h -- query API of dlc's SW26010 athread emulation.
 *
 * Used by the dlc executor (through dlsym), never by generated code. Every
 * spawn/join pair is one recorded "launch": the kernel's symbol name, the
 * per-CPE counters and the modeled SW26010 time. The rules are documented
 * in docs/Targets/Sunway.md.
 */
#ifndef DLC_SUNWAY_ATHREAD_EMU_H
#define DLC_SUNWAY_ATHREAD_EMU_H

#ifdef __cplusplus
extern "C" {
#endif

#define DLC_EMU_CPES 64
#define DLC_EMU_MAX_BANDWIDTH_POINTS 16

struct dlc_emu_params {
  double clock_hz;              /* 1.45e9 */
  int cpes;                     /* 64 (the only supported value) */
  int ldm_bytes;                /* 65536 */
  int stack_reserve_bytes;      /* 8192 */
  int regcomm_fifo_depth;       /* 4 entries per receive buffer */
  double regcomm_latency_cycles;
  double barrier_cycles;
  double spawn_overhead_cycles;
  double divide_cycles;         /* fp-pipeline occupancy of vdivs/vsqrts */
  int bandwidth_points;
  double bandwidth_block_bytes[DLC_EMU_MAX_BANDWIDTH_POINTS];
  double bandwidth_bytes_per_second[DLC_EMU_MAX_BANDWIDTH_POINTS];
  /* extensions */
  int dma_alignment_bytes;      /* 4: addresses, len, bsize, stride */
  double main_memory_access_cycles; /* a CPE's scalar gld/gst (no cache) */
};

void dlc_emu_default_params(struct dlc_emu_params *params);
/* Before athread_init (not while a spawn is running). 0 = accepted. */
int dlc_emu_configure(const struct dlc_emu_params *params);
/* Forgets all recorded launches and the recorded error. */
void dlc_emu_reset(void);
int dlc_emu_launch_count(void);

struct dlc_emu_cpe_counters {
  unsigned long long fp_vector, fp_divide_sqrt, ldm_vector_loads,
      ldm_vector_stores, ldm_scalar_loads, broadcasts, lane_moves,
      regcomm_row_puts, regcomm_row_gets, regcomm_col_puts, regcomm_col_gets,
      barriers, dma_gets, dma_puts, dma_get_bytes, dma_put_bytes,
      clock_cycles, compute_cycles, dma_wait_cycles;
  /* extensions */
  unsigned long long regcomm_wait_cycles, barrier_wait_cycles;
  /* scalar code (dlc_sunway.h's DLC_* accessors) */
  unsigned long long fp_scalar, ldm_scalar_stores, main_memory_loads,
      main_memory_stores;
};

struct dlc_emu_launch {
  const char *kernel;
  double cycles;           /* modeled kernel time, spawn overhead included */
  double dma_bound_cycles; /* total bytes / B(mean block size) */
  unsigned long long dma_bytes, dma_transfers;
  int histogram_size;      /* distinct block sizes, ascending */
  const unsigned long long *histogram_block_bytes;
  const unsigned long long *histogram_transfers;
  struct dlc_emu_cpe_counters cpe[DLC_EMU_CPES];
  /* extensions */
  double max_cpe_cycles;   /* max over CPEs of the final clock */
  double seconds;          /* cycles / clock_hz */
  int failed;              /* the launch stopped with an error */
};

/* NULL when index is out of range. Valid until dlc_emu_reset. */
const struct dlc_emu_launch *dlc_emu_launch(int index);
/* First error recorded since the last reset ("CPE n: ..."), or NULL. */
const char *dlc_emu_error(void);

/* B(block): core-group DMA bandwidth (bytes/s) at this block size, linear
 * interpolation of the configured curve, clamped at its ends. */
double dlc_emu_bandwidth(double block_bytes);

#ifdef __cplusplus
}
#endif

#endif /* DLC_SUNWAY_ATHREAD_EMU_H */
