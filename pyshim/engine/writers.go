package main

/*
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
*/
import "C"

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/isojson/isojson/backend"
	"github.com/isojson/isojson/writer"
)

// The writers compiled in, numbered in rank order, with their names as C
// strings made once and never freed (the ABI promises static strings).
var (
	writerCatalogOnce sync.Once
	writerBackends    []*backend.WriterBackend // nil where unsupported on this CPU
	writerCNames      []*C.char
	writerCNameList   *C.char
)

func writerCatalog() {
	writerCatalogOnce.Do(func() {
		names := backend.WriterNames()
		for _, n := range names {
			w, _ := backend.LookupWriter(n)
			writerBackends = append(writerBackends, w)
			writerCNames = append(writerCNames, C.CString(n))
		}
		writerCNameList = C.CString(strings.Join(names, ","))
	})
}

// writerChoice is a writer other than the fast one, or a failed choice.
type writerChoice struct {
	w   backend.Writer // nil: the choice failed
	why string         // then: the message of every write
}

// chosenWriter is what isojson_engine_write(_into) write with: nil (the
// default) is the fast writer, which they call directly, so that the
// default costs one load and one predicted branch per call over a build
// that knows no other writer.
var chosenWriter atomic.Pointer[writerChoice]

//export isojson_engine_writers
func isojson_engine_writers() *C.char {
	writerCatalog()
	return writerCNameList
}

//export isojson_engine_writer
func isojson_engine_writer(name *C.char, err *C.isojson_error) C.int {
	writerCatalog()
	var w *backend.WriterBackend
	if name == nil || *name == 0 {
		if w = backend.DefaultWriter(); w == nil {
			setMsg(err, "no JSON writer compiled into the isojson engine can run on this CPU")
			return -1
		}
	} else {
		var e error
		if w, e = backend.LookupWriter(C.GoString(name)); e != nil {
			setMsg(err, e.Error())
			return -1
		}
	}
	for i, b := range writerBackends {
		if b != nil && b.Name == w.Name {
			return C.int(i)
		}
	}
	setMsg(err, "writer "+w.Name+" is not in the registry")
	return -1
}

//export isojson_engine_writer_name
func isojson_engine_writer_name(i C.int) *C.char {
	writerCatalog()
	if i < 0 || int(i) >= len(writerCNames) {
		return nil
	}
	return writerCNames[i]
}

//export isojson_engine_use_writer
func isojson_engine_use_writer(i C.int, why *C.char) C.int {
	writerCatalog()
	if i == -1 {
		msg := "no usable JSON writer was chosen"
		if why != nil && *why != 0 {
			msg = C.GoString(why)
		}
		chosenWriter.Store(&writerChoice{why: msg})
		return 0
	}
	if i < 0 || int(i) >= len(writerBackends) || writerBackends[i] == nil {
		return -1
	}
	if w := writerBackends[i]; w.Name == writer.Name {
		chosenWriter.Store(nil)
	} else {
		chosenWriter.Store(&writerChoice{w: w.Writer})
	}
	return 0
}
