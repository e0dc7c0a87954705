// Misuse is an error: the spawn stops, athread_join returns non-zero and
// dlc_emu_error() names the CPE and the rule. One case per RUN line.
// RUN: %cc %sunway_cflags -DCASE=1 %s %sunway_libs -o %t.1
// RUN: not %t.1 2>&1 | FileCheck %s --check-prefix=WAIT2
// WAIT2: join returned 1
// WAIT2-NEXT: dlc_emu_error() = CPE 5: dlc_wait_reply: waiting for reply == 2, but only 1 transfers completed: this would hang on the SW26010
// RUN: %cc %sunway_cflags -DCASE=2 %s %sunway_libs -rdynamic -o %t.2
// RUN: not %t.2 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: join returned 1
// The 70000-byte array plus buf (64 bytes) and reply (4), laid out by the C
// compiler: 70080 bytes of TLS.
// OVERFLOW-NEXT: dlc_emu_error() = kernel: LDM overflow: 70080 bytes of __thread_local data + 8192 bytes stack reserve > 65536
// RUN: %cc %sunway_cflags -DCASE=3 %s %sunway_libs -o %t.3
// RUN: not %t.3 2>&1 | FileCheck %s --check-prefix=MISALIGNED
// MISALIGNED: join returned 1
// MISALIGNED-NEXT: dlc_emu_error() = CPE 5: simd_load: address 0x{{[0-9a-f]+}} is not 16-byte aligned
// RUN: %cc %sunway_cflags -DCASE=4 %s %sunway_libs -o %t.4
// RUN: not %t.4 2>&1 | FileCheck %s --check-prefix=MAINPTR
// MAINPTR: join returned 1
// MAINPTR-NEXT: dlc_emu_error() = CPE 5: athread_get: LDM destination 0x{{[0-9a-f]+}} (+64 bytes) is not inside this CPE's LDM (it is in main memory)
// RUN: %cc %sunway_cflags -DCASE=5 %s %sunway_libs -o %t.5
// RUN: not %t.5 2>&1 | FileCheck %s --check-prefix=SIMDMAIN
// SIMDMAIN: join returned 1
// SIMDMAIN-NEXT: dlc_emu_error() = CPE 5: simd_load: address 0x{{[0-9a-f]+}} (+16 bytes) is not in this CPE's LDM (main memory)
// RUN: %cc %sunway_cflags -DCASE=6 %s %sunway_libs -o %t.6
// RUN: not %t.6 2>&1 | FileCheck %s --check-prefix=DEADLOCK
// DEADLOCK: join returned 1
// DEADLOCK-NEXT: dlc_emu_error() = deadlock: all 1 running CPEs are blocked: CPE 5 in simd_getr (row receive buffer empty)
// RUN: %cc %sunway_cflags -DCASE=7 %s %sunway_libs -o %t.7
// RUN: not %t.7 2>&1 | FileCheck %s --check-prefix=ROWMODE
// ROWMODE: join returned 1
// ROWMODE-NEXT: dlc_emu_error() = CPE 5: athread_get: ROW_MODE is not modeled by the emulation
// RUN: %cc %sunway_cflags -DCASE=8 %s %sunway_libs -o %t.8
// RUN: not %t.8 2>&1 | FileCheck %s --check-prefix=UNREAD
// UNREAD: join returned 1
// UNREAD-NEXT: dlc_emu_error() = CPE 1: kernel ended with 1 unread value(s) in its row receive buffer (first sent by CPE 0)
// RUN: %cc %sunway_cflags -DCASE=9 %s %sunway_libs -o %t.9
// RUN: not %t.9 2>&1 | FileCheck %s --check-prefix=BARRIER
// BARRIER: join returned 1
// BARRIER-NEXT: dlc_emu_error() = deadlock: all 63 running CPEs are blocked: CPE 0 in athread_syn; CPE 1 in athread_syn; CPE 2 in athread_syn; CPE 3 in athread_syn ...
// RUN: %cc %sunway_cflags -DCASE=10 %s %sunway_libs -o %t.10
// RUN: not %t.10 2>&1 | FileCheck %s --check-prefix=MASK
// MASK: join returned 1
// MASK-NEXT: dlc_emu_error() = CPE 5: athread_syn: partial mask 0xf is not modeled (the row scope needs 0xff)
// RUN: %cc %sunway_cflags -DCASE=11 %s %sunway_libs -o %t.11
// RUN: not %t.11 2>&1 | FileCheck %s --check-prefix=STRIDE
// STRIDE: join returned 1
// STRIDE-NEXT: dlc_emu_error() = CPE 5: athread_get: len 64 is not a multiple of bsize 24
// RUN: %cc %sunway_cflags -DCASE=12 %s %sunway_libs -o %t.12
// RUN: not %t.12 2>&1 | FileCheck %s --check-prefix=REPLY
// REPLY: join returned 1
// REPLY-NEXT: dlc_emu_error() = CPE 5: athread_get: reply word 0x{{[0-9a-f]+}} (+4 bytes) is not inside this CPE's LDM (it is in main memory)
// RUN: %cc %sunway_cflags -DCASE=13 %s %sunway_libs -o %t.13
// RUN: not %t.13 2>&1 | FileCheck %s --check-prefix=SELF
// SELF: join returned 1
// SELF-NEXT: dlc_emu_error() = CPE 5: simd_putr: CPE 5 sends to itself (column 5)
#include <athread.h>
#include <slave.h>
#include <simd.h>
#include <dlc_athread_emu.h>
#include <stdio.h>

float mem[64][16] __attribute__((aligned(16)));
volatile int mem_reply;
__thread_local float buf[16] __attribute__((aligned(16)));
__thread_local volatile int reply;
#if CASE == 2
__thread_local float big[17500]; /* 70000 bytes */
#endif

void kernel(void *p) {
  floatv4 v = {0, 0, 0, 0};
  int me = _MYID;
  (void)p;
  (void)v;
  reply = 0;
#if CASE == 1
  athread_get(PE_MODE, mem[me], buf, sizeof buf, (void *)&reply, 0, 0, 0);
  dlc_emu_wait_reply(&reply, me == 5 ? 2 : 1);
#elif CASE == 2
  big[me] = 1;
#elif CASE == 3
  if (me == 5)
    simd_load(v, &buf[1]);
#elif CASE == 4
  if (me == 5)
    athread_get(PE_MODE, mem[me], mem[6], sizeof buf, (void *)&reply, 0, 0, 0);
#elif CASE == 5
  if (me == 5)
    simd_load(v, mem[me]);
#elif CASE == 6
  if (me == 5)
    v = simd_getr(v);
#elif CASE == 7
  if (me == 5)
    athread_get(ROW_MODE, mem[me], buf, sizeof buf, (void *)&reply, 0, 0, 0);
#elif CASE == 8
  if (me == 0)
    simd_putr(v, 1);
#elif CASE == 9
  if (me != 63)
    athread_syn(ARRAY_SCOPE, 0xffff);
#elif CASE == 10
  athread_syn(ROW_SCOPE, me == 5 ? 0xf : 0xff);
#elif CASE == 11
  if (me == 5)
    athread_get(PE_MODE, mem[me], buf, sizeof buf, (void *)&reply, 0, 8, 24);
#elif CASE == 12
  if (me == 5)
    athread_get(PE_MODE, mem[me], buf, sizeof buf, (void *)&mem_reply, 0, 0, 0);
#elif CASE == 13
  if (me == 5)
    simd_putr(v, 5);
#endif
}

int main(void) {
  int rc;
  athread_init();
  athread_spawn(kernel, 0);
  rc = athread_join();
  athread_halt();
  printf("join returned %d\n", rc);
  printf("dlc_emu_error() = %s\n", dlc_emu_error());
  return rc != 0;
}
