// PE_MODE get -> SIMD compute -> put, with strided blocks on the
// main-memory side, checked element by element on the MPE.
// RUN: %cc %sunway_cflags %s %sunway_libs -o %t
// RUN: %t | FileCheck %s
// CHECK: join 0
// CHECK-NEXT: mismatches 0
// CHECK-NEXT: gets 1 puts 1 get_bytes 2048 put_bytes 2048
// CHECK-NEXT: vector loads 128 stores 128 fp 128
// CHECK-NEXT: histogram 32:128
// The CPE stack lives in LDM too: a stack buffer and reply word work.
// CHECK-NEXT: stack buffers: join 0 sums 0 wrong
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <stdio.h>

#define ROWS 64
#define COLS 512 /* 64 CPEs x 8 columns */

struct args { float *in, *out; };
static float A[ROWS][COLS], B[ROWS][COLS];

__thread_local float tile[ROWS * 8] __attribute__((aligned(16)));
__thread_local volatile int reply;

/* CPE k owns columns 8k..8k+7 of every row: 64 blocks of 32 bytes, 2016
 * bytes apart. */
void kernel(void *p) {
  struct args *a = (struct args *)p;
  int id = athread_get_id(-1), i;
  floatv4 two = simd_set_floatv4(2, 2, 2, 2), one, v;
  one = simd_set_floatv4(1, 1, 1, 1);
  reply = 0;
  athread_get(PE_MODE, a->in + 8 * id, tile, sizeof tile, (void *)&reply, 0,
              (COLS - 8) * 4, 32);
  dlc_emu_wait_reply(&reply, 1);
  for (i = 0; i < ROWS * 8; i += 4) {
    simd_load(v, &tile[i]);
    v = simd_vmas(v, two, one);
    simd_store(v, &tile[i]);
  }
  athread_put(PE_MODE, tile, a->out + 8 * id, sizeof tile, (void *)&reply,
              (COLS - 8) * 4, 32);
  dlc_emu_wait_reply(&reply, 2);
}

float sums[64];
void stack_kernel(void *p) {
  struct args *a = (struct args *)p;
  float t[16] __attribute__((aligned(16)));
  volatile int r = 0;
  int i;
  float s = 0;
  athread_get(PE_MODE, a->in + COLS * _MYID, t, sizeof t, (void *)&r, 0, 0, 0);
  dlc_emu_wait_reply(&r, 1);
  for (i = 0; i < 16; ++i)
    s += t[i];
  sums[_MYID] = s;
}

int main(void) {
  struct args a = {&A[0][0], &B[0][0]};
  const struct dlc_emu_launch *l;
  int r, c, bad = 0, rc;
  for (r = 0; r < ROWS; ++r)
    for (c = 0; c < COLS; ++c)
      A[r][c] = (float)(r * COLS + c) * 0.25f;
  athread_init();
  athread_spawn(kernel, &a);
  rc = athread_join();
  printf("join %d\n", rc);
  for (r = 0; r < ROWS; ++r)
    for (c = 0; c < COLS; ++c)
      if (B[r][c] != 2 * A[r][c] + 1)
        bad++;
  printf("mismatches %d\n", bad);
  l = dlc_emu_launch(0);
  printf("gets %llu puts %llu get_bytes %llu put_bytes %llu\n", l->cpe[7].dma_gets,
         l->cpe[7].dma_puts, l->cpe[7].dma_get_bytes, l->cpe[7].dma_put_bytes);
  printf("vector loads %llu stores %llu fp %llu\n", l->cpe[63].ldm_vector_loads,
         l->cpe[63].ldm_vector_stores, l->cpe[63].fp_vector);
  printf("histogram");
  for (r = 0; r < l->histogram_size; ++r)
    printf(" %llu:%llu", l->histogram_block_bytes[r], l->histogram_transfers[r]);
  printf("\n");
  athread_spawn(stack_kernel, &a);
  c = athread_join();
  athread_halt();
  for (r = 0; r < 64; ++r) {
    float want = 0;
    int j;
    for (j = 0; j < 16; ++j)
      want += A[r][j];
    bad += sums[r] != want;
  }
  printf("stack buffers: join %d sums %d wrong\n", c, bad);
  return rc || bad || c;
}
