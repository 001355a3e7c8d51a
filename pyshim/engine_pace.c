/* Keeps the Go runtime's monitor thread (sysmon) asleep while a thread calls
 * the engine in a loop.
 *
 * sysmon preempts a goroutine that has kept its P's scheduler tick for 10 ms,
 * and calls from C into Go never move that tick (they do not pass through the
 * scheduler). So a thread that calls loads or dumps in a loop was "preempted"
 * every 10 ms (its P handed to another thread and back: futex wake-ups on both
 * sides), and after each preemption sysmon woke every 20 µs for a millisecond
 * before it backed off again. Measured on loads of github.json in a loop:
 * sysmon's thread used 2.8% as much CPU as the calling thread, and with a
 * yield every 4 ms 0.2%; loads took about 1.5% less CPU time per call.
 *
 * So each thread yields to the Go scheduler (isojson_engine_yield, one extra
 * call into Go) when 4 ms have passed since its last yield. The clock is read
 * for every call of 4 KiB or more and for every 16th smaller one (a small
 * call costs a counter increment). A thread that calls rarely does not yield
 * often, and needs it less: its P sits idle between calls. On the
 * free-threaded build, while two or more threads call the engine, none
 * yields (below): there a yield parks the caller, and sysmon's preemptions,
 * every 10 ms at most, cost less.
 *
 * What sysmon does when calls resume after a pause is the other half:
 * engine_loader.c starts the runtime's threads with a timer slack for it.
 */
#include "isojson.h"

#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#define YIELD_EVERY_NS 4000000u
#define WORK_ALWAYS_CHECKED 4096
#define SMALL_CALLS_PER_CHECK 16

static __thread unsigned small_calls;
static __thread uint64_t last_yield_ns;
static __thread unsigned long yields, skipped;
#ifdef Py_GIL_DISABLED
/* The thread that last reached a yield check, and when (process-wide); this
 * thread's check before last_yield_ns, and the latest check of another
 * thread it has seen. */
static _Atomic uintptr_t pace_thread;
static _Atomic uint64_t pace_ns;
static __thread uint64_t prev_check_ns, seen_other_ns;
#endif

void isojson_engine_pace(const isojson_engine_api *engine, size_t work)
{
    if (work < WORK_ALWAYS_CHECKED && ++small_calls % SMALL_CALLS_PER_CHECK != 0)
        return;
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return;
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    uint64_t prev = last_yield_ns;
    if (now - prev < YIELD_EVERY_NS)
        return;
    last_yield_ns = now;
#ifdef Py_GIL_DISABLED
    /* Another thread checked its pace within this one's last two periods:
     * threads call the engine side by side, and the yield is left out. A
     * yield from C is a handoff, whatever the load: the calling goroutine is
     * locked to its thread, so Gosched puts it on the global run queue,
     * hands the P to another M, which finds it and hands the P back
     * (startlockedm), and the caller sleeps on a futex meanwhile. With one
     * caller that M runs on an idle core and wakes it at once; with two
     * callers on two cores there is none, and each yield parked a thread
     * until a core was free: loads(dumps(citm_catalog)) in 2 threads of
     * 3.14t parked in Go 0.43-0.63 times a round trip (perf: goschedImpl
     * from the yield, exitsyscallNoP while the P was away), 0.04-0.33 with
     * the yields left out, mostly sysmon's own preemptions, every 10 ms at
     * most (docs/free-threading.md). Periods, not a fixed window: on
     * a loaded machine a call can take longer than a period. Once the other
     * threads stop calling, this one yields again two periods later. With
     * the GIL only one thread runs at a time, the others wait for it off
     * the cores, and the yield stays. The thread is named by the address of
     * its own counter; the shared slot is two relaxed atomics, and a torn
     * pair costs one yield more or less. */
    uintptr_t me = (uintptr_t)&small_calls;
    uintptr_t other = atomic_load_explicit(&pace_thread, memory_order_relaxed);
    uint64_t other_ns = atomic_load_explicit(&pace_ns, memory_order_relaxed);
    atomic_store_explicit(&pace_thread, me, memory_order_relaxed);
    atomic_store_explicit(&pace_ns, now, memory_order_relaxed);
    if (other != me && other != 0 && other_ns > seen_other_ns)
        seen_other_ns = other_ns;
    uint64_t prev2 = prev_check_ns;
    prev_check_ns = prev;
    if (seen_other_ns != 0 && seen_other_ns > prev2) {
        skipped++;
        return;
    }
#endif
    yields++;
    engine->yield();
}

void isojson_engine_pace_counts(unsigned long *y, unsigned long *s)
{
    *y = yields;
    *s = skipped;
}
