/* simd.h -- SW26010 CPE SIMD intrinsics, dlc's emulation.
 *
 * floatv4: 4 single-precision lanes, 16 bytes in memory. Every intrinsic
 * computes the lane values on the host and reports itself to the emulation
 * library, which counts it (per CPE) for the performance model and checks
 * every memory access: simd_load/simd_store need a 16-byte aligned address,
 * simd_loadu/simd_storeu none, simd_loade 4 bytes; all addresses must lie in
 * the calling CPE's LDM (CPEs have no data cache). Misuse stops the spawn
 * with an error.
 *
 * Only these intrinsics are counted: plain C operators on floatv4 values
 * (a + b) compute correctly but are invisible to the performance model.
 *
 * Comparisons (simd_vfcmp*) return 2.0f in a true lane and 0.0f in a false
 * lane, the SW26010 floating-point "true" value.
 */
#ifndef DLC_SUNWAY_SIMD_H
#define DLC_SUNWAY_SIMD_H

#ifdef __cplusplus
extern "C" {
#endif

typedef float floatv4 __attribute__((vector_size(16)));

enum {
  DLC_EMU_OP_FP = 0,     /* one vector floating-point instruction */
  DLC_EMU_OP_FP_DIV = 1, /* vector divide or square root */
  DLC_EMU_OP_LANE = 2,   /* lane extract / insert */
  DLC_EMU_OP_SET = 3     /* simd_set_floatv4: four lane inserts */
};
enum {
  DLC_EMU_LOAD = 0,    /* simd_load: 16-byte aligned */
  DLC_EMU_LOADU = 1,   /* simd_loadu */
  DLC_EMU_STORE = 2,   /* simd_store: 16-byte aligned */
  DLC_EMU_STOREU = 3,  /* simd_storeu */
  DLC_EMU_LOADE = 4    /* simd_loade: one float, broadcast */
};

void dlc_emu_count(int op);
void dlc_emu_ldm_access(const void *addr, int kind);
void dlc_emu_putr(const void *v16, int dest_col);
void dlc_emu_putc(const void *v16, int dest_row);
void dlc_emu_getr(void *out16);
void dlc_emu_getc(void *out16);

/* ---- memory ---------------------------------------------------------- */
static inline floatv4 dlc_emu_vload_(const void *p, int kind) {
  floatv4 v;
  dlc_emu_ldm_access(p, kind);
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
static inline void dlc_emu_vstore_(floatv4 v, void *p, int kind) {
  dlc_emu_ldm_access(p, kind);
  __builtin_memcpy(p, &v, sizeof v);
}
static inline floatv4 dlc_emu_vloade_(const void *p) {
  float f;
  floatv4 v;
  dlc_emu_ldm_access(p, DLC_EMU_LOADE);
  __builtin_memcpy(&f, p, sizeof f);
  v[0] = f; v[1] = f; v[2] = f; v[3] = f;
  return v;
}

#define simd_load(dest, src) ((dest) = dlc_emu_vload_((src), DLC_EMU_LOAD))
#define simd_loadu(dest, src) ((dest) = dlc_emu_vload_((src), DLC_EMU_LOADU))
#define simd_loade(dest, src) ((dest) = dlc_emu_vloade_((src)))
#define simd_store(src, dest) dlc_emu_vstore_((src), (dest), DLC_EMU_STORE)
#define simd_storeu(src, dest) dlc_emu_vstore_((src), (dest), DLC_EMU_STOREU)

/* ---- construction and lanes --------------------------------------------- */
static inline floatv4 simd_set_floatv4(float a, float b, float c, float d) {
  floatv4 v;
  dlc_emu_count(DLC_EMU_OP_SET);
  v[0] = a; v[1] = b; v[2] = c; v[3] = d;
  return v;
}

#define DLC_EMU_LANE_FNS_(n)                                                   \
  static inline float simd_vextfs##n(floatv4 v) {                             \
    dlc_emu_count(DLC_EMU_OP_LANE);                                           \
    return v[n];                                                              \
  }                                                                           \
  static inline floatv4 simd_vinsfs##n(float f, floatv4 v) {                  \
    dlc_emu_count(DLC_EMU_OP_LANE);                                           \
    v[n] = f;                                                                 \
    return v;                                                                 \
  }
DLC_EMU_LANE_FNS_(0)
DLC_EMU_LANE_FNS_(1)
DLC_EMU_LANE_FNS_(2)
DLC_EMU_LANE_FNS_(3)
#undef DLC_EMU_LANE_FNS_

/* ---- arithmetic ----------------------------------------------------------- */
static inline floatv4 simd_vadds(floatv4 a, floatv4 b) {
  dlc_emu_count(DLC_EMU_OP_FP);
  return a + b;
}
static inline floatv4 simd_vsubs(floatv4 a, floatv4 b) {
  dlc_emu_count(DLC_EMU_OP_FP);
  return a - b;
}
static inline floatv4 simd_vmuls(floatv4 a, floatv4 b) {
  dlc_emu_count(DLC_EMU_OP_FP);
  return a * b;
}
static inline floatv4 simd_vdivs(floatv4 a, floatv4 b) {
  dlc_emu_count(DLC_EMU_OP_FP_DIV);
  return a / b;
}
static inline floatv4 simd_vsqrts(floatv4 a) {
  floatv4 r;
  int i;
  dlc_emu_count(DLC_EMU_OP_FP_DIV);
  for (i = 0; i < 4; ++i)
    r[i] = __builtin_sqrtf(a[i]);
  return r;
}
/* Fused multiply-add family: the product is not rounded separately. */
static inline floatv4 simd_vmas(floatv4 a, floatv4 b, floatv4 c) {
  floatv4 r;
  int i;
  dlc_emu_count(DLC_EMU_OP_FP);
  for (i = 0; i < 4; ++i)
    r[i] = __builtin_fmaf(a[i], b[i], c[i]);
  return r;
}
static inline floatv4 simd_vmss(floatv4 a, floatv4 b, floatv4 c) {
  floatv4 r;
  int i;
  dlc_emu_count(DLC_EMU_OP_FP);
  for (i = 0; i < 4; ++i)
    r[i] = __builtin_fmaf(a[i], b[i], -c[i]);
  return r;
}
static inline floatv4 simd_vnmas(floatv4 a, floatv4 b, floatv4 c) {
  floatv4 r;
  int i;
  dlc_emu_count(DLC_EMU_OP_FP);
  for (i = 0; i < 4; ++i)
    r[i] = __builtin_fmaf(-a[i], b[i], c[i]);
  return r;
}
static inline floatv4 simd_vnmss(floatv4 a, floatv4 b, floatv4 c) {
  floatv4 r;
  int i;
  dlc_emu_count(DLC_EMU_OP_FP);
  for (i = 0; i < 4; ++i)
    r[i] = -__builtin_fmaf(a[i], b[i], c[i]);
  return r;
}

/* ---- selects and comparisons ------------------------------------------------ */
#define DLC_EMU_SEL_FN_(name, cond)                                            \
  static inline floatv4 name(floatv4 a, floatv4 b, floatv4 c) {               \
    floatv4 r;                                                                \
    int i;                                                                    \
    dlc_emu_count(DLC_EMU_OP_FP);                                             \
    for (i = 0; i < 4; ++i)                                                   \
      r[i] = (a[i] cond 0.0f) ? b[i] : c[i];                                  \
    return r;                                                                 \
  }
DLC_EMU_SEL_FN_(simd_vsellts, <)
DLC_EMU_SEL_FN_(simd_vselles, <=)
DLC_EMU_SEL_FN_(simd_vseleqs, ==)
#undef DLC_EMU_SEL_FN_

#define DLC_EMU_CMP_FN_(name, cond)                                            \
  static inline floatv4 name(floatv4 a, floatv4 b) {                          \
    floatv4 r;                                                                \
    int i;                                                                    \
    dlc_emu_count(DLC_EMU_OP_FP);                                             \
    for (i = 0; i < 4; ++i)                                                   \
      r[i] = (a[i] cond b[i]) ? 2.0f : 0.0f;                                  \
    return r;                                                                 \
  }
DLC_EMU_CMP_FN_(simd_vfcmplts, <)
DLC_EMU_CMP_FN_(simd_vfcmples, <=)
DLC_EMU_CMP_FN_(simd_vfcmpeqs, ==)
#undef DLC_EMU_CMP_FN_

/* ---- register communication ------------------------------------------------- */
/* dest_col / dest_row 0..7: one CPE of the caller's row / column (not the
 * caller itself); 8: every other CPE of the row / column. */
static inline void simd_putr(floatv4 v, int dest_col) { dlc_emu_putr(&v, dest_col); }
static inline void simd_putc(floatv4 v, int dest_row) { dlc_emu_putc(&v, dest_row); }
static inline floatv4 simd_getr(floatv4 dummy) {
  floatv4 v;
  (void)dummy;
  dlc_emu_getr(&v);
  return v;
}
static inline floatv4 simd_getc(floatv4 dummy) {
  floatv4 v;
  (void)dummy;
  dlc_emu_getc(&v);
  return v;
}

#ifdef __cplusplus
}
#endif

#endif /* DLC_SUNWAY_SIMD_H */
