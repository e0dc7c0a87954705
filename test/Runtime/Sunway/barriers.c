// athread_syn in its three scopes: functional (every participant's write
// is visible after the barrier, no one else is waited for) and modeled
// (participants leave at max(clock) + 100 barrier cycles).
// RUN: %cc %sunway_cflags %s %sunway_libs -o %t
// RUN: %t | FileCheck %s
// CHECK: row: join 0 violations 0 clocks cpe0 1100 cpe7 1100 cpe8 100 barriers 1
// CHECK-NEXT: col: join 0 violations 0 clocks cpe0 1100 cpe56 1100 cpe1 100 barriers 1
// CHECK-NEXT: array: join 0 violations 0 clocks cpe0 1100 cpe63 1100 cpe9 1100 barriers 1
// CHECK-NEXT: repeated: join 0 violations 0 clock 3000
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <stdio.h>

volatile int flag[64];
volatile int violations;

static void work(int n) {
  floatv4 v = {1, 1, 1, 1};
  int i;
  for (i = 0; i < n; ++i)
    v = simd_vmuls(v, v);
}

/* CPE 0 is slow (1000 fp instructions); everyone writes its flag, syncs,
 * then checks the flags of the scope it synchronised with. */
static void phase(athread_scope scope, int mask, int round) {
  int me = _MYID, i;
  if (me == 0)
    work(1000);
  flag[me] = round;
  athread_syn(scope, mask);
  for (i = 0; i < 64; ++i) {
    int same = scope == ARRAY_SCOPE || (scope == ROW_SCOPE && i / 8 == me / 8) ||
               (scope == COL_SCOPE && i % 8 == me % 8);
    if (same && flag[i] < round)
      __atomic_add_fetch(&violations, 1, __ATOMIC_SEQ_CST);
  }
}

void row_k(void *p) { phase(ROW_SCOPE, 0xff, *(int *)p); }
void col_k(void *p) { phase(COL_SCOPE, 0xff, *(int *)p); }
void array_k(void *p) { phase(ARRAY_SCOPE, 0xffff, *(int *)p); }
void repeated_k(void *p) {
  int r;
  (void)p;
  for (r = 0; r < 10; ++r) {
    work(_MYID == r ? 200 : 0);
    athread_syn(ARRAY_SCOPE, 0xffff);
  }
}

int main(void) {
  int round = 1, rc, ok = 1;
  const struct dlc_emu_launch *l;
  athread_init();
  athread_spawn(row_k, &round);
  rc = athread_join();
  l = dlc_emu_launch(0);
  printf("row: join %d violations %d clocks cpe0 %llu cpe7 %llu cpe8 %llu barriers %llu\n",
         rc, violations, l->cpe[0].clock_cycles, l->cpe[7].clock_cycles,
         l->cpe[8].clock_cycles, l->cpe[8].barriers);
  ok &= rc == 0;
  round = 2;
  athread_spawn(col_k, &round);
  rc = athread_join();
  l = dlc_emu_launch(1);
  printf("col: join %d violations %d clocks cpe0 %llu cpe56 %llu cpe1 %llu barriers %llu\n",
         rc, violations, l->cpe[0].clock_cycles, l->cpe[56].clock_cycles,
         l->cpe[1].clock_cycles, l->cpe[1].barriers);
  ok &= rc == 0;
  round = 3;
  athread_spawn(array_k, &round);
  rc = athread_join();
  l = dlc_emu_launch(2);
  printf("array: join %d violations %d clocks cpe0 %llu cpe63 %llu cpe9 %llu barriers %llu\n",
         rc, violations, l->cpe[0].clock_cycles, l->cpe[63].clock_cycles,
         l->cpe[9].clock_cycles, l->cpe[9].barriers);
  ok &= rc == 0;
  athread_spawn(repeated_k, 0);
  rc = athread_join();
  l = dlc_emu_launch(3);
  printf("repeated: join %d violations %d clock %llu\n", rc, violations,
         l->cpe[33].clock_cycles);
  ok &= rc == 0;
  return !ok || violations;
}
