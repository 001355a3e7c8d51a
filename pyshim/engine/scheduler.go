package main

import "C"

import "runtime"

// isojson_engine_yield moves the Go scheduler's tick of the calling thread's
// P, so that the runtime's monitor thread (sysmon) sees it make progress.
//
// Why: sysmon preempts a goroutine that has kept its P's scheduler tick for
// 10 ms. A call from C into Go runs on the calling thread's own goroutine
// without passing through the scheduler, so a thread that calls the engine
// in a loop never moves the tick: every 10 ms sysmon "preempts" it (a handoff
// of the P to another thread and back, two futex wake-ups) and then wakes
// every 20 µs for a millisecond before it backs off again. The extension
// calls this about every 4 ms of engine use per thread (pyshim/engine_pace.c);
// Gosched passes through the scheduler, which moves the tick, and sysmon
// stays asleep.
//
//export isojson_engine_yield
func isojson_engine_yield() { runtime.Gosched() }
