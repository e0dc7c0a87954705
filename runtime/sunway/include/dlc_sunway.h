/*===- dlc_sunway.h - the ABI of the C that dlc emits for the SW26010 ----===*
 *
 * Included by both files dlc writes (the MPE file and the CPE file), on the
 * real machine (sw5cc, with the system's athread.h and slave.h) and in dlc's
 * emulation (the system C compiler, with runtime/sunway's headers, which
 * define DLC_ATHREAD_EMULATION). The generated C itself is the same in both;
 * the two differ only in what this header maps `dlc_wait_reply` to.
 *
 * Weights file (written by `dlc compile --target sunway` as weights.bin):
 *   bytes 0-3   magic "DLCW"
 *   bytes 4-7   format version, little-endian uint32 (1)
 *   bytes 8-15  payload size in bytes, little-endian uint64
 *   bytes 16-23 FNV-1a 64-bit hash of the payload, little-endian uint64
 *   bytes 24-   the payload: every constant of the model at the 64-byte
 *               aligned offset the generated code uses
 *
 *===----------------------------------------------------------------------===*/
#ifndef DLC_SUNWAY_H
#define DLC_SUNWAY_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DLC_SUNWAY_ABI_VERSION 1

/* Status codes of dlc_model_run. */
#define DLC_OK 0
#define DLC_ERROR_WEIGHTS_OPEN 1
#define DLC_ERROR_WEIGHTS_FORMAT 2
#define DLC_ERROR_WEIGHTS_SIZE 3
#define DLC_ERROR_WEIGHTS_CHECKSUM 4
#define DLC_ERROR_OUT_OF_MEMORY 5
#define DLC_ERROR_KERNEL 6

/* Waits until the reply word `*reply` counts `count` completed transfers.
 * On the SW26010 the DMA engine increments the word: poll it. The
 * emulation completes the pending transfers in the call instead, so a wait
 * that is missing or placed too late shows up as wrong data, and a wait for
 * more transfers than were started as an error rather than a hang. */
#ifdef DLC_ATHREAD_EMULATION
#define dlc_wait_reply(reply, count) dlc_emu_wait_reply((reply), (count))
#else
#define dlc_wait_reply(reply, count)                                           \
  do {                                                                         \
    while (*(volatile int *)(reply) != (count))                                \
      ;                                                                        \
  } while (0)
#endif

/* Scalar code of the CPE kernels goes through these accessors: plain C on
 * the SW26010, counted instructions in the emulation (whose performance
 * model needs them; the SIMD intrinsics count themselves). Loop and address
 * arithmetic is not counted. */
#ifdef DLC_ATHREAD_EMULATION
#define DLC_LDM_LOAD(p)                                                        \
  (dlc_emu_scalar(DLC_EMU_SCALAR_LOAD, (p), (int)sizeof *(p)), *(p))
#define DLC_LDM_STORE(p, v)                                                    \
  ((void)dlc_emu_scalar(DLC_EMU_SCALAR_STORE, (p), (int)sizeof *(p)),          \
   (void)(*(p) = (v)))
#define DLC_GLOBAL_LOAD(p)                                                     \
  (dlc_emu_scalar(DLC_EMU_SCALAR_GLOAD, (p), (int)sizeof *(p)), *(p))
#define DLC_GLOBAL_STORE(p, v)                                                 \
  ((void)dlc_emu_scalar(DLC_EMU_SCALAR_GSTORE, (p), (int)sizeof *(p)),         \
   (void)(*(p) = (v)))
#define DLC_FOP(x) (dlc_emu_scalar(DLC_EMU_SCALAR_FP, 0, 0), (x))
#define DLC_FDIV(x) (dlc_emu_scalar(DLC_EMU_SCALAR_FP_DIV, 0, 0), (x))
#else
#define DLC_LDM_LOAD(p) (*(p))
#define DLC_LDM_STORE(p, v) ((void)(*(p) = (v)))
#define DLC_GLOBAL_LOAD(p) (*(p))
#define DLC_GLOBAL_STORE(p, v) ((void)(*(p) = (v)))
#define DLC_FOP(x) (x)
#define DLC_FDIV(x) (x)
#endif

/* The CPE file's vector code (it defines DLC_SUNWAY_CPE and includes
 * simd.h first): simd.h's intrinsics as expressions, so generated code can
 * nest them. On the SW26010 they inline to the one instruction each names;
 * dlc_vmaxs/dlc_vmins take two (a subtraction and a select on its sign). */
#ifdef DLC_SUNWAY_CPE
static inline floatv4 dlc_vload(float *p) {
  floatv4 v;
  simd_load(v, p);
  return v;
}
static inline floatv4 dlc_vloadu(float *p) {
  floatv4 v;
  simd_loadu(v, p);
  return v;
}
static inline floatv4 dlc_vloade(float *p) {
  floatv4 v;
  simd_loade(v, p);
  return v;
}
static inline void dlc_vstore(floatv4 v, float *p) { simd_store(v, p); }
static inline void dlc_vstoreu(floatv4 v, float *p) { simd_storeu(v, p); }
static inline floatv4 dlc_vsplat(float x) {
  return simd_set_floatv4(x, x, x, x);
}
static inline floatv4 dlc_vmaxs(floatv4 a, floatv4 b) {
  return simd_vsellts(simd_vsubs(a, b), b, a);
}
static inline floatv4 dlc_vmins(floatv4 a, floatv4 b) {
  return simd_vsellts(simd_vsubs(a, b), a, b);
}
#endif

/* A parameter the model does not read (Shape reads only its input's type). */
#define DLC_UNUSED(x) ((void)(x))

/* arith.maximumf / minimumf: NaN in, NaN out (fmaxf would drop it). */
static inline float dlc_maximumf(float a, float b) {
  return (a != a || b != b) ? (a + b) : (a > b ? a : b);
}
static inline float dlc_minimumf(float a, float b) {
  return (a != a || b != b) ? (a + b) : (a < b ? a : b);
}
static inline double dlc_maximum(double a, double b) {
  return (a != a || b != b) ? (a + b) : (a > b ? a : b);
}
static inline double dlc_minimum(double a, double b) {
  return (a != a || b != b) ? (a + b) : (a < b ? a : b);
}

/* Kernel failures seen by the MPE (athread_join's result). */
static inline int *dlc_kernel_failures(void) {
  static int failures;
  return &failures;
}
/* The start of dlc_model_compute (`weights` is the blob its constants point
 * into). */
static inline void dlc_model_begin(const unsigned char *weights) {
  (void)weights;
  *dlc_kernel_failures() = 0;
}
static inline void dlc_record_join(int status) {
  if (status != 0)
    ++*dlc_kernel_failures();
}
static inline int dlc_kernel_status(void) {
  return *dlc_kernel_failures() ? DLC_ERROR_KERNEL : DLC_OK;
}

static inline uint64_t dlc_read_u64(const unsigned char *bytes) {
  uint64_t value = 0;
  int i;
  for (i = 7; i >= 0; --i)
    value = (value << 8) | bytes[i];
  return value;
}

/* Reads and checks the weights file; on success *payload holds
 * `expected_size` bytes (64-byte aligned) the caller frees. */
static inline int dlc_load_weights(const char *path, uint64_t expected_size,
                            uint64_t expected_hash, void **payload) {
  unsigned char header[24];
  unsigned char *data;
  uint64_t size, hash = 14695981039346656037ull, i;
  FILE *file = fopen(path, "rb");
  *payload = NULL;
  if (!file) {
    fprintf(stderr, "dlc: cannot open the weights file %s\n", path);
    return DLC_ERROR_WEIGHTS_OPEN;
  }
  if (fread(header, 1, sizeof header, file) != sizeof header ||
      memcmp(header, "DLCW", 4) != 0 || header[4] != 1 || header[5] != 0 ||
      header[6] != 0 || header[7] != 0) {
    fprintf(stderr, "dlc: %s is not a version-1 dlc weights file\n", path);
    fclose(file);
    return DLC_ERROR_WEIGHTS_FORMAT;
  }
  size = dlc_read_u64(header + 8);
  if (size != expected_size) {
    fprintf(stderr,
            "dlc: %s holds %llu bytes of weights, the model needs %llu\n",
            path, (unsigned long long)size,
            (unsigned long long)expected_size);
    fclose(file);
    return DLC_ERROR_WEIGHTS_SIZE;
  }
  data = (unsigned char *)malloc(size + 64);
  if (!data) {
    fclose(file);
    return DLC_ERROR_OUT_OF_MEMORY;
  }
  if (fread(data, 1, size, file) != size || fgetc(file) != EOF) {
    fprintf(stderr, "dlc: %s does not hold exactly %llu bytes of weights\n",
            path, (unsigned long long)size);
    free(data);
    fclose(file);
    return DLC_ERROR_WEIGHTS_SIZE;
  }
  fclose(file);
  for (i = 0; i < size; ++i)
    hash = (hash ^ data[i]) * 1099511628211ull;
  if (hash != expected_hash || dlc_read_u64(header + 16) != expected_hash) {
    fprintf(stderr, "dlc: the weights in %s do not match the model "
                    "(checksum)\n",
            path);
    free(data);
    return DLC_ERROR_WEIGHTS_CHECKSUM;
  }
  *payload = data;
  return DLC_OK;
}

#endif /* DLC_SUNWAY_H */
