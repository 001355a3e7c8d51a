package main

/*
#include <stdlib.h>
#define ISOJSON_ENGINE_NO_PROTOTYPES
#include "isojson_engine.h"
*/
import "C"

import (
	"strings"
	"sync"

	"github.com/isojson/isojson/backend"
)

// The backends compiled in, numbered in rank order. Their names are C strings
// made once and never freed: the ABI promises static strings.
var (
	catalogOnce sync.Once
	parsers     []backend.Parser
	cNames      []*C.char
	cNameList   *C.char
)

func catalog() {
	catalogOnce.Do(func() {
		names := backend.Names()
		for _, n := range names {
			b, _ := backend.Lookup(n)
			if b == nil {
				// Registered but unsupported on this CPU: keep its index so
				// that names and indexes agree; choosing it reports why.
				parsers = append(parsers, nil)
			} else {
				parsers = append(parsers, b.Parser)
			}
			cNames = append(cNames, C.CString(n))
		}
		cNameList = C.CString(strings.Join(names, ","))
	})
}

//export isojson_engine_abi
func isojson_engine_abi() C.int { return C.ISOJSON_ENGINE_ABI }

// engineVersion is isojson's version, set by the build from pyproject.toml, its one source
// (-ldflags "-X main.engineVersion=..." in build_backend/isojson_build/objects.py).
var engineVersion = "unknown (built without the isojson build backend)"

// cVersion is engineVersion as a C string, made once and never freed: the ABI promises a static string.
var cVersion = sync.OnceValue(func() *C.char { return C.CString(engineVersion) })

//export isojson_engine_version
func isojson_engine_version() *C.char { return cVersion() }

//export isojson_engine_backends
func isojson_engine_backends() *C.char {
	catalog()
	return cNameList
}

//export isojson_engine_backend
func isojson_engine_backend(name *C.char, err *C.isojson_error) C.int {
	catalog()
	var b *backend.Backend
	if name == nil || *name == 0 {
		b = backend.Default()
		if b == nil {
			setMsg(err, "no JSON backend compiled into the isojson engine can run on this CPU")
			return -1
		}
	} else {
		var e error
		b, e = backend.Lookup(C.GoString(name))
		if e != nil {
			setMsg(err, e.Error())
			return -1
		}
	}
	for i, n := range backend.Names() {
		if n == b.Name {
			return C.int(i)
		}
	}
	setMsg(err, "backend "+b.Name+" is not in the registry")
	return -1
}

//export isojson_engine_backend_name
func isojson_engine_backend_name(i C.int) *C.char {
	catalog()
	if i < 0 || int(i) >= len(cNames) {
		return nil
	}
	return cNames[i]
}
