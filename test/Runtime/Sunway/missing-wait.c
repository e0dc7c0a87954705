// A get whose wait is missing leaves poison (0xFF bytes, NaN) in LDM: the
// computed result is wrong, never right by luck, and the kernel fails
// because the transfer is never waited for.
// RUN: %cc %sunway_cflags %s %sunway_libs -o %t
// RUN: not %t 2>&1 | FileCheck %s
// CHECK: result: NaN, wrong
// CHECK-NEXT: join returned 1
// CHECK-NEXT: dlc_emu_error() = CPE {{[0-9]+}}: kernel returned with 1 DMA transfer(s) never waited for (first: athread_get of 64 bytes
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <math.h>
#include <stdio.h>

static float in[64][16], out[64][16];
__thread_local float buf[16] __attribute__((aligned(16)));
__thread_local volatile int rget, rput;

void kernel(void *p) {
  floatv4 v, one = {1, 1, 1, 1};
  int i;
  (void)p;
  rget = rput = 0;
  athread_get(PE_MODE, in[_MYID], buf, sizeof buf, (void *)&rget, 0, 0, 0);
  /* missing: dlc_emu_wait_reply(&rget, 1); */
  for (i = 0; i < 16; i += 4) {
    simd_load(v, &buf[i]);
    simd_store(simd_vadds(v, one), &buf[i]);
  }
  athread_put(PE_MODE, buf, out[_MYID], sizeof buf, (void *)&rput, 0, 0);
  dlc_emu_wait_reply(&rput, 1);
  /* Every CPE's put lands before any CPE reaches the end of the kernel. */
  athread_syn(ARRAY_SCOPE, 0xffff);
}

int main(void) {
  int i, j, rc, wrong = 0;
  for (i = 0; i < 64; ++i)
    for (j = 0; j < 16; ++j)
      in[i][j] = (float)j;
  athread_init();
  athread_spawn(kernel, 0);
  rc = athread_join();
  for (i = 0; i < 64; ++i)
    for (j = 0; j < 16; ++j)
      wrong += out[i][j] != in[i][j] + 1;
  printf("result: %s, %s\n", isnan(out[3][5]) ? "NaN" : "number", wrong ? "wrong" : "right");
  printf("join returned %d\n", rc);
  printf("dlc_emu_error() = %s\n", dlc_emu_error());
  return rc != 0 || wrong;
}
