package main

/*
#include <stdlib.h>
*/
import "C"

import "unsafe"

// cAllocator grows tape words, arena bytes and output buffers with the C
// library's realloc, so that the memory stays the caller's (C) after the call
// and the caller frees it with free(). It is a zero-size value: storing it in
// a backend.Allocator interface does not allocate.
type cAllocator struct{}

// errNoMemory is panicked when realloc fails and recovered into ISOJSON_NOMEM.
type errNoMemory struct{}

func (errNoMemory) Error() string { return "out of memory" }

// growCap is the capacity, in elements, that a buffer of old capacity c
// needing need elements grows to: doubling keeps appends amortised O(1).
func growCap(c, need, minimum int) int {
	return max(2*c, need, minimum)
}

func (cAllocator) GrowWords(old []uint64, need int) []uint64 {
	if need <= cap(old) {
		return old
	}
	n := growCap(cap(old), need, 256)
	p := C.realloc(unsafe.Pointer(unsafe.SliceData(old)), C.size_t(n)*8)
	if p == nil {
		panic(errNoMemory{})
	}
	return unsafe.Slice((*uint64)(p), n)[:len(old)]
}

func (cAllocator) GrowBytes(old []byte, need int) []byte {
	if need <= cap(old) {
		return old
	}
	n := growCap(cap(old), need, 1024)
	p := C.realloc(unsafe.Pointer(unsafe.SliceData(old)), C.size_t(n))
	if p == nil {
		panic(errNoMemory{})
	}
	return unsafe.Slice((*byte)(p), n)[:len(old)]
}

// wordsOf wraps C memory of cap words, len in use, as a Go slice.
func wordsOf(p unsafe.Pointer, n, c int) []uint64 {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*uint64)(p), c)[:n]
}

// bytesOf wraps C memory of cap bytes, len in use, as a Go slice.
func bytesOf(p unsafe.Pointer, n, c int) []byte {
	if p == nil {
		return nil
	}
	return unsafe.Slice((*byte)(p), c)[:n]
}
