/* athread.h -- MPE (host) side of the athread API, dlc's SW26010 emulation.
 *
 * The generated MPE file includes this header unchanged from the real
 * machine. On the SW26010, athread_spawn(f, arg) expands to
 * __real_athread_spawn((void *)slave_f, arg) and the slave compiler prefixes
 * "slave_" to every CPE symbol; in the emulation nothing renames symbols, so
 * SLAVE_FUN(x) is x and the kernel is passed as it is.
 *
 * Each spawn runs the kernel on 64 host threads (the 64 CPEs of one core
 * group). athread_join returns 0 when the kernel ran without a detected
 * error, non-zero otherwise (the message is dlc_emu_error(), see
 * dlc_athread_emu.h). No function of this library calls abort() or exit().
 */
#ifndef DLC_SUNWAY_ATHREAD_H
#define DLC_SUNWAY_ATHREAD_H

#ifdef __cplusplus
extern "C" {
#endif

#define SLAVE_FUN(x) x

int athread_init(void);
int athread_halt(void);
int athread_join(void);
int __real_athread_spawn(void *fn, void *arg);

#define athread_spawn(f, arg) __real_athread_spawn((void *)(f), (arg))

#ifdef __cplusplus
}
#endif

#endif /* DLC_SUNWAY_ATHREAD_H */
