// Register communication: broadcast along a row (the CPE of column 0 puts
// with dest 8), broadcast down a column (the CPE of row 0), and a
// point-to-point ring in every row, values checked; counters and the
// modeled latency (put time + 10 cycles).
// RUN: %cc %sunway_cflags %s %sunway_libs -o %t
// RUN: %t | FileCheck %s
// CHECK: join 0
// CHECK-NEXT: row broadcast mismatches 0
// CHECK-NEXT: column broadcast mismatches 0
// CHECK-NEXT: ring mismatches 0
// CHECK-NEXT: cpe0 row puts 2 col puts 1 row gets 1 col gets 0
// CHECK-NEXT: cpe9 row puts 1 col puts 0 row gets 2 col gets 1
// CHECK-NEXT: latency: sender clock 499, receiver clock 509
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <stdio.h>

float out[64][12] __attribute__((aligned(16)));
__thread_local float res[12] __attribute__((aligned(16)));
__thread_local volatile int reply;

void kernel(void *p) {
  int me = _MYID, row = _ROW, col = _COL;
  floatv4 v = {0, 0, 0, 0}, r, c, ring;
  (void)p;
  /* Row broadcast from column 0: (row, 1, 2, 3). */
  if (col == 0) {
    r = simd_set_floatv4((float)row, 1, 2, 3);
    simd_putr(r, 8);
  } else
    r = simd_getr(v);
  /* Column broadcast from row 0: (col, 10, 20, 30). */
  if (row == 0) {
    c = simd_set_floatv4((float)col, 10, 20, 30);
    simd_putc(c, 8);
  } else
    c = simd_getc(v);
  /* Ring: send my id to the next column, receive from the previous. */
  ring = simd_set_floatv4((float)me, (float)me, (float)me, (float)me);
  simd_putr(ring, (col + 1) % 8);
  ring = simd_getr(v);
  simd_store(r, &res[0]);
  simd_store(c, &res[4]);
  simd_store(ring, &res[8]);
  reply = 0;
  athread_put(PE_MODE, res, out[me], sizeof res, (void *)&reply, 0, 0);
  dlc_emu_wait_reply(&reply, 1);
}

void latency(void *p) {
  floatv4 v = {1, 1, 1, 1};
  int i;
  (void)p;
  if (_ROW != 0)
    return;
  if (_COL == 0) {
    for (i = 0; i < 499; ++i)
      v = simd_vadds(v, v);
    simd_putr(v, 1); /* 499 fp + 1 put dual-issued: clock max(499, 1) = 499 */
  } else if (_COL == 1)
    v = simd_getr(v); /* completes at the put's 499 + 10 latency = 509 */
}

int main(void) {
  int i, rc, br = 0, bc = 0, bring = 0;
  const struct dlc_emu_launch *l;
  athread_init();
  athread_spawn(kernel, 0);
  rc = athread_join();
  printf("join %d\n", rc);
  for (i = 0; i < 64; ++i) {
    int row = i / 8, col = i % 8, prev = row * 8 + (col + 7) % 8;
    br += out[i][0] != row || out[i][1] != 1 || out[i][2] != 2 || out[i][3] != 3;
    bc += out[i][4] != col || out[i][5] != 10 || out[i][6] != 20 || out[i][7] != 30;
    bring += out[i][8] != prev || out[i][11] != prev;
  }
  printf("row broadcast mismatches %d\ncolumn broadcast mismatches %d\nring mismatches %d\n",
         br, bc, bring);
  l = dlc_emu_launch(0);
  printf("cpe0 row puts %llu col puts %llu row gets %llu col gets %llu\n",
         l->cpe[0].regcomm_row_puts, l->cpe[0].regcomm_col_puts,
         l->cpe[0].regcomm_row_gets, l->cpe[0].regcomm_col_gets);
  printf("cpe9 row puts %llu col puts %llu row gets %llu col gets %llu\n",
         l->cpe[9].regcomm_row_puts, l->cpe[9].regcomm_col_puts,
         l->cpe[9].regcomm_row_gets, l->cpe[9].regcomm_col_gets);
  athread_spawn(latency, 0);
  rc |= athread_join();
  l = dlc_emu_launch(1);
  printf("latency: sender clock %llu, receiver clock %llu\n", l->cpe[0].clock_cycles,
         l->cpe[1].clock_cycles);
  return rc || br || bc || bring;
}
