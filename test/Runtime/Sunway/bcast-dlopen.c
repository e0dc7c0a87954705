// The executor's setting: the kernel and the emulation library live in a
// shared object that is dlopen'ed, so every CPE's __thread_local block
// (its LDM) is allocated lazily by glibc. BCAST_MODE writes the same data
// into every CPE's LDM, BROW_MODE into the issuer's row; the query API is
// reached through dlsym.
// RUN: %cc %sunway_cflags -fPIC -shared -DPART_KERNEL %s %sunway_libs -o %t.so
// RUN: %cc %sunway_cflags -fPIC -shared -DPART_KERNEL -DWITH_HUGE %s %sunway_libs -o %t.huge.so
// RUN: %cc %sunway_cflags %s -ldl -o %t
// RUN: %t %t.so %t.huge.so | FileCheck %s
// CHECK: run 0
// CHECK-NEXT: kernel bcast_kernel, error (null)
// CHECK-NEXT: bcast mismatches 0, brow mismatches 0
// CHECK-NEXT: cpe0 gets 2 bytes 4352; cpe8 gets 1 bytes 256; cpe1 gets 0
// All __thread_local data of the module is LDM (as the slave file's LDM
// segment on the machine): 60000 + 4096 + 256 + 8 + 4 bytes, aligned.
// CHECK-NEXT: overflow run 1: overflow_kernel: LDM overflow: 64368 bytes of __thread_local data + 8192 bytes stack reserve > 65536
#ifdef PART_KERNEL
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>

float table[1024] __attribute__((aligned(16)));
float rowdata[8][64] __attribute__((aligned(16)));
float out[64][2];
__thread_local float bt[1024] __attribute__((aligned(16)));
__thread_local float rt[64] __attribute__((aligned(16)));
__thread_local float o[2];
__thread_local volatile int reply;

void bcast_kernel(void *p) {
  int me = _MYID, i;
  float s = 0, r = 0;
  (void)p;
  reply = 0;
  if (me == 0) {
    athread_get(BCAST_MODE, table, bt, sizeof bt, (void *)&reply, (char)0xff, 0, 0);
    dlc_emu_wait_reply(&reply, 1);
  }
  if (_COL == 0) {
    reply = 0;
    athread_get(BROW_MODE, rowdata[_ROW], rt, sizeof rt, (void *)&reply, (char)0xff, 0, 0);
    dlc_emu_wait_reply(&reply, 1);
  }
  athread_syn(ARRAY_SCOPE, 0xffff);
  for (i = 0; i < 1024; ++i)
    s += bt[i];
  for (i = 0; i < 64; ++i)
    r += rt[i];
  o[0] = s;
  o[1] = r;
  reply = 0;
  athread_put(PE_MODE, o, out[me], sizeof o, (void *)&reply, 0, 0);
  dlc_emu_wait_reply(&reply, 1);
}

#ifdef WITH_HUGE
__thread_local float huge[15000] __attribute__((aligned(16)));
#endif
void overflow_kernel(void *p) {
  (void)p;
#ifdef WITH_HUGE
  huge[_MYID] = 1;
#endif
}

int run(int which) {
  int i, j;
  athread_init();
  for (i = 0; i < 1024; ++i)
    table[i] = (float)i;
  for (i = 0; i < 8; ++i)
    for (j = 0; j < 64; ++j)
      rowdata[i][j] = (float)(i * 100);
  if (which == 0)
    athread_spawn(bcast_kernel, 0);
  else
    athread_spawn(overflow_kernel, 0);
  return athread_join();
}

int check(void) {
  int i, bad_b = 0, bad_r = 0;
  for (i = 0; i < 64; ++i) {
    bad_b += out[i][0] != 523776.0f;                          /* 0 + ... + 1023 */
    bad_r += out[i][1] != (float)(64 * 100 * (i / 8));
  }
  return bad_b * 1000 + bad_r;
}
#else
#include <dlc_athread_emu.h>
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  void *h, *h2;
  int (*run)(int), (*check)(void), bad;
  const struct dlc_emu_launch *(*launch)(int);
  const char *(*err)(void);
  void (*reset)(void);
  const struct dlc_emu_launch *l;
  int rc;
  if (argc < 3 || !(h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL))) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  *(void **)&run = dlsym(h, "run");
  *(void **)&check = dlsym(h, "check");
  *(void **)&launch = dlsym(h, "dlc_emu_launch");
  *(void **)&err = dlsym(h, "dlc_emu_error");
  *(void **)&reset = dlsym(h, "dlc_emu_reset");
  rc = run(0);
  printf("run %d\n", rc);
  l = launch(0);
  printf("kernel %s, error %s\n", l->kernel, err() ? err() : "(null)");
  bad = check();
  printf("bcast mismatches %d, brow mismatches %d\n", bad / 1000, bad % 1000);
  printf("cpe0 gets %llu bytes %llu; cpe8 gets %llu bytes %llu; cpe1 gets %llu\n",
         l->cpe[0].dma_gets, l->cpe[0].dma_get_bytes, l->cpe[8].dma_gets,
         l->cpe[8].dma_get_bytes, l->cpe[1].dma_gets);
  reset();
  /* A second module with its own copy of the library. */
  if (!(h2 = dlopen(argv[2], RTLD_NOW | RTLD_LOCAL))) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  *(void **)&run = dlsym(h2, "run");
  *(void **)&err = dlsym(h2, "dlc_emu_error");
  rc = run(1);
  printf("overflow run %d: %s\n", rc, err());
  return 0;
}
#endif
