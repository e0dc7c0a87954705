// DMA time follows the core group's block-size curve (swCandle STREAM
// triad), shared evenly by the 64 CPEs: 16 KiB as one block vs 16 KiB as
// 64 strided blocks of 256 bytes.
// RUN: %cc %sunway_cflags %s %sunway_libs -o %t
// RUN: %t | FileCheck %s
// CHECK: B(64)=2.40 B(32)=2.40 B(256)=8.30 B(1536)=16.40 B(16384)=22.10 B(1048576)=22.30
// CHECK-NEXT: one 16 KiB block: wait 68798 clock 68798 bound 68798 hist 16384:64
// CHECK-NEXT: 64 x 256 B blocks: wait 183185 clock 183185 bound 183185 hist 256:64
// CHECK-NEXT: ratio 2.663 (22.1 / 8.3 = 2.663)
// CHECK-NEXT: three queued gets (2 x 8 KiB at 21.3 GB/s, 16 KiB at 22.1): clock 140180
// CHECK-NEXT: overlap: clock 68798 compute 2000
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <stdio.h>

#define N 4096 /* floats = 16 KiB per CPE */
static float M[64][2 * N];
__thread_local float buf[N] __attribute__((aligned(16)));
__thread_local volatile int reply;

void contiguous(void *p) {
  (void)p;
  reply = 0;
  athread_get(PE_MODE, &M[_MYID][0], buf, sizeof buf, (void *)&reply, 0, 0, 0);
  dlc_emu_wait_reply(&reply, 1);
}

void strided(void *p) {
  (void)p;
  reply = 0;
  athread_get(PE_MODE, &M[_MYID][0], buf, sizeof buf, (void *)&reply, 0, 256, 256);
  dlc_emu_wait_reply(&reply, 1);
}

void queued(void *p) {
  (void)p;
  reply = 0;
  athread_get(PE_MODE, &M[_MYID][0], buf, sizeof buf / 2, (void *)&reply, 0, 0, 0);
  athread_get(PE_MODE, &M[_MYID][N], buf + N / 2, sizeof buf / 2, (void *)&reply, 0, 0, 0);
  athread_get(PE_MODE, &M[_MYID][0], buf, sizeof buf, (void *)&reply, 0, 0, 0);
  dlc_emu_wait_reply(&reply, 3);
}

/* Compute issued between the get and its wait hides behind the transfer. */
void overlap(void *p) {
  floatv4 v = {1, 1, 1, 1};
  int i;
  (void)p;
  reply = 0;
  athread_get(PE_MODE, &M[_MYID][0], buf, sizeof buf, (void *)&reply, 0, 0, 0);
  for (i = 0; i < 2000; ++i)
    v = simd_vadds(v, v);
  dlc_emu_wait_reply(&reply, 1);
}

static void show(const char *what) {
  const struct dlc_emu_launch *l = dlc_emu_launch(dlc_emu_launch_count() - 1);
  printf("%s: wait %llu clock %llu bound %.0f hist %llu:%llu\n", what,
         l->cpe[9].dma_wait_cycles, l->cpe[9].clock_cycles, l->dma_bound_cycles,
         l->histogram_block_bytes[0], l->histogram_transfers[0]);
}

int main(void) {
  double a, b;
  int ok = 1;
  printf("B(64)=%.2f B(32)=%.2f B(256)=%.2f B(1536)=%.2f B(16384)=%.2f B(1048576)=%.2f\n",
         dlc_emu_bandwidth(64) / 1e9, dlc_emu_bandwidth(32) / 1e9,
         dlc_emu_bandwidth(256) / 1e9, dlc_emu_bandwidth(1536) / 1e9,
         dlc_emu_bandwidth(16384) / 1e9, dlc_emu_bandwidth(1048576) / 1e9);
  athread_init();
  athread_spawn(contiguous, 0);
  ok &= athread_join() == 0;
  show("one 16 KiB block");
  athread_spawn(strided, 0);
  ok &= athread_join() == 0;
  show("64 x 256 B blocks");
  a = dlc_emu_launch(0)->cpe[0].clock_cycles;
  b = dlc_emu_launch(1)->cpe[0].clock_cycles;
  printf("ratio %.3f (22.1 / 8.3 = %.3f)\n", b / a, 22.1 / 8.3);
  athread_spawn(queued, 0);
  ok &= athread_join() == 0;
  printf("three queued gets (2 x 8 KiB at 21.3 GB/s, 16 KiB at 22.1): clock %llu\n", dlc_emu_launch(2)->cpe[0].clock_cycles);
  athread_spawn(overlap, 0);
  ok &= athread_join() == 0;
  printf("overlap: clock %llu compute %llu\n", dlc_emu_launch(3)->cpe[0].clock_cycles,
         dlc_emu_launch(3)->cpe[0].compute_cycles);
  return !ok;
}
