// Counters are exact for known loops, and the modeled cycles of a
// pure-compute kernel are max(fp, mem) instructions (dual issue).
// RUN: %cc %sunway_cflags %s %sunway_libs -rdynamic -o %t
// RUN: %t | FileCheck %s
// CHECK: launches 2
// CHECK-NEXT: kernel fp_only: fp 100 div 0 loads 0 stores 0 clock 100 compute 100
// CHECK-NEXT: launch cycles 14600 (overhead 14500) dma_bound 0
// CHECK-NEXT: kernel mixed: fp 110 div 10 loads 30 stores 150 scalar 5 bcast 5 lanes 8
// CHECK-NEXT: mixed clock 420 (fp 100+10*32=420, mem 30+150+5+8=193)
// CHECK-NEXT: memory-bound clock 193
// CHECK-NEXT: ok
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <stdio.h>

__thread_local float buf[16] __attribute__((aligned(16)));

void fp_only(void *p) {
  floatv4 a = {1, 2, 3, 4}, b = {0.5f, 0.5f, 0.5f, 0.5f}, c = {0, 0, 0, 0};
  int i;
  (void)p;
  for (i = 0; i < 100; ++i)
    c = simd_vmas(a, b, c);
  if (c[0] != 50.0f || c[3] != 200.0f)
    athread_get(PE_MODE, 0, 0, -1, 0, 0, 0, 0); /* wrong value: fail loudly */
}

void mixed(void *p) {
  floatv4 v = {1, 1, 1, 1}, w;
  int i;
  float f = 0;
  (void)p;
  for (i = 0; i < 100; ++i)
    v = simd_vadds(v, v);
  for (i = 0; i < 10; ++i)
    v = simd_vdivs(v, v);
  for (i = 0; i < 30; ++i)
    simd_load(w, &buf[(i % 4) * 4]);
  for (i = 0; i < 150; ++i)
    simd_storeu(v, &buf[1]);
  for (i = 0; i < 5; ++i)
    simd_loade(w, &buf[i]);
  f += simd_vextfs0(w) + simd_vextfs1(w) + simd_vextfs2(w) + simd_vextfs3(w);
  v = simd_vinsfs0(f, v);
  v = simd_vinsfs1(f, v);
  v = simd_vinsfs2(f, v);
  v = simd_vinsfs3(f, v);
}

void memory_bound(void *p) {
  floatv4 v = {1, 1, 1, 1};
  int i;
  (void)p;
  for (i = 0; i < 193; ++i)
    simd_store(v, &buf[4]);
  for (i = 0; i < 100; ++i)
    v = simd_vmuls(v, v);
}

int main(void) {
  const struct dlc_emu_launch *l;
  const struct dlc_emu_cpe_counters *c;
  int flag = 0, ok = 1, i;
  athread_init();
  athread_spawn(fp_only, &flag);
  ok &= athread_join() == 0;
  athread_spawn(mixed, &flag);
  ok &= athread_join() == 0;
  printf("launches %d\n", dlc_emu_launch_count());
  l = dlc_emu_launch(0);
  c = &l->cpe[17];
  printf("kernel %s: fp %llu div %llu loads %llu stores %llu clock %llu compute %llu\n",
         l->kernel, c->fp_vector, c->fp_divide_sqrt, c->ldm_vector_loads,
         c->ldm_vector_stores, c->clock_cycles, c->compute_cycles);
  printf("launch cycles %.0f (overhead 14500) dma_bound %.0f\n", l->cycles,
         l->dma_bound_cycles);
  for (i = 0; i < 64; ++i)
    ok &= l->cpe[i].fp_vector == 100 && l->cpe[i].clock_cycles == 100;
  l = dlc_emu_launch(1);
  c = &l->cpe[42];
  printf("kernel %s: fp %llu div %llu loads %llu stores %llu scalar %llu bcast %llu "
         "lanes %llu\n", l->kernel, c->fp_vector, c->fp_divide_sqrt,
         c->ldm_vector_loads, c->ldm_vector_stores, c->ldm_scalar_loads,
         c->broadcasts, c->lane_moves);
  printf("mixed clock %llu (fp 100+10*32=420, mem 30+150+5+8=193)\n", c->clock_cycles);
  dlc_emu_reset();
  athread_spawn(memory_bound, &flag);
  ok &= athread_join() == 0;
  l = dlc_emu_launch(0);
  printf("memory-bound clock %llu\n", l->cpe[0].clock_cycles);
  ok &= dlc_emu_launch_count() == 1 && dlc_emu_error() == NULL;
  printf(ok ? "ok\n" : "FAILED\n");
  return !ok;
}
