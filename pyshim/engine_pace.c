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
 * often, and needs it less: its P sits idle between calls.
 *
 * What sysmon does when calls resume after a pause is the other half:
 * engine_loader.c starts the runtime's threads with a timer slack for it.
 */
#include "isojson.h"

#include <time.h>

#define YIELD_EVERY_NS 4000000u
#define WORK_ALWAYS_CHECKED 4096
#define SMALL_CALLS_PER_CHECK 16

static __thread unsigned small_calls;
static __thread uint64_t last_yield_ns;

void isojson_engine_pace(const isojson_engine_api *engine, size_t work)
{
    if (work < WORK_ALWAYS_CHECKED && ++small_calls % SMALL_CALLS_PER_CHECK != 0)
        return;
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
        return;
    uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    if (now - last_yield_ns < YIELD_EVERY_NS)
        return;
    last_yield_ns = now;
    engine->yield();
}
