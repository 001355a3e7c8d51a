"""The build half of loads (pyshim/loads/loads_build.c) on tapes a backend bug
could produce: it raises RuntimeError("isojson engine: malformed tape") or
returns objects, and never reads outside the tape, its arena or the input.

Valid JSON never makes such a tape, so the tests take real tapes apart
through two private test hooks (pyshim/loads/loads_tape.c): `_tape(data)` gives
the engine's tape of data as (words, arena) bytes, `_build_tape(words,
arena, data)` builds objects from one. The tape format is documented in
backend/tape.go: a header word per entry, its kind in the top 8 bits."""

import os
import re
import struct

import pytest

import _util
from _util import isojson

pytestmark = pytest.mark.skipif(_util.MODULE_NAME != "isojson", reason="isojson's own tape")

if _util.MODULE_NAME == "isojson":
    from isojson import _isojson as ext

MALFORMED = "isojson engine: malformed tape"


def engine_header_constants():
    """The ISOJSON_* integer constants of the engine's C header
    (pyshim/engine/isojson_engine.h): its #defines and enums. The header is
    the C mirror of backend/tape.go that the engine's build checks against
    the Go definitions (pyshim/engine/abi_check.go), so the layout used here
    is the one both sides have, never a third copy."""
    path = os.path.join(_util.REPO_DIR, "pyshim", "engine", "isojson_engine.h")
    with open(path) as f:
        text = re.sub(r"/\*.*?\*/", " ", f.read(), flags=re.S)
    consts = {}

    def value(expr):
        expr = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", expr)
        expr = re.sub(r"\bISOJSON_\w+\b", lambda m: str(consts[m.group(0)]), expr)
        assert re.fullmatch(r"[\s\d()<<>>|&+\-~x0-9a-fA-F]*", expr), expr
        return eval(expr)   # integers and operators only (checked above)

    for name, expr in re.findall(r"^#define (ISOJSON_\w+)[ \t]+([^\n]+)$", text, flags=re.M):
        try:
            consts[name] = value(expr)
        except (AssertionError, KeyError, SyntaxError):
            pass   # not an integer constant
    for body in re.findall(r"enum \w+ \{(.*?)\}", text, flags=re.S):
        nxt = 0
        for item in filter(None, (i.strip() for i in body.split(","))):
            name, _, expr = (p.strip() for p in item.partition("="))
            consts[name] = nxt = value(expr) if expr else nxt
            nxt += 1
    return consts


C = engine_header_constants()
# Kinds and their entries' sizes in words.
NULL, FALSE, TRUE, INT, UINT, FLOAT = C["ISOJSON_NULL"], C["ISOJSON_FALSE"], C["ISOJSON_TRUE"], C["ISOJSON_INT"], C["ISOJSON_UINT"], C["ISOJSON_FLOAT"]
ARRAY, OBJECT, STRING, BIGINT = C["ISOJSON_ARRAY"], C["ISOJSON_OBJECT"], C["ISOJSON_STRING"], C["ISOJSON_BIGINT"]
WORDS = {NULL: 1, FALSE: 1, TRUE: 1, INT: 2, UINT: 2, FLOAT: 2, ARRAY: 2, OBJECT: 2, STRING: 3, BIGINT: 3}
KIND_SHIFT, STORAGE_SHIFT = C["ISOJSON_KIND_SHIFT"], C["ISOJSON_STORAGE_SHIFT"]
LEN_MASK = C["ISOJSON_LEN_MASK"]
INPUT, ARENA = C["ISOJSON_INPUT"], C["ISOJSON_ARENA"]


def test_the_tape_layout_is_read_from_the_engine_header():
    # What the header reader must have found for this file to mean anything:
    # the kinds 1 to ISOJSON_KIND_LAST in order, the shifts, masks and storages.
    kinds = ["NULL", "FALSE", "TRUE", "INT", "UINT", "FLOAT", "ARRAY", "OBJECT", "STRING", "BIGINT", "RAW"]
    assert [C["ISOJSON_" + k] for k in kinds] == list(range(1, C["ISOJSON_KIND_LAST"] + 1))
    assert LEN_MASK == C["ISOJSON_CLEAN_BIT"] - 1 and C["ISOJSON_PAYLOAD_MASK"] == (1 << KIND_SHIFT) - 1
    assert KIND_SHIFT > STORAGE_SHIFT > C["ISOJSON_CLASS_SHIFT"] > C["ISOJSON_WIDTH_SHIFT"] > 0
    assert (INPUT, ARENA, C["ISOJSON_EXTERNAL"]) == (0, 1, 2)


# Every kind of entry and of text: ints at the 64-bit edges and beyond,
# floats, str of each width, from the input and (escaped) from the arena,
# nested containers, empty ones, records that shapes predict.
SMALL = (b'{"a": [null, true, false, 0, -1, 9223372036854775807, 18446744073709551615, '
         b'123456789012345678901234567890, -1.5e300, 0.1], "b\\n": "x\\ty", "\xc3\xa9": "\xe2\x82\xac\xf0\x9f\x98\x80", '
         b'"c": {}, "d": [], "e": [{"id": 1, "name": "n1", "ok": true}, {"id": 2, "name": "n2", "ok": false}, '
         b'{"id": 3, "name": "n3", "ok": null}], "f": [[[["deep"]]]], "g": "\\u00e9\\ud83d\\ude00"}')


def github():
    with open(os.path.join(_util.CORPUS_DIR, "github.json"), "rb") as f:
        return f.read()


DOCS = {"small": SMALL, "github": None}


def doc(name):
    return github() if name == "github" else DOCS[name]


def tape(data):
    words, arena = ext._tape(data)
    return list(struct.unpack(f"={len(words) // 8}Q", words)), arena


def pack(words):
    return struct.pack(f"={len(words)}Q", *words)


def entries(words):
    """The index of every entry of a valid tape."""
    out, i = [], 0
    while i < len(words):
        out.append(i)
        i += WORDS[words[i] >> KIND_SHIFT]
    return out


def build(words, arena, data):
    return ext._build_tape(pack(words), arena, data)


def malformed(words, arena, data):
    with pytest.raises(RuntimeError, match=MALFORMED):
        build(words, arena, data)


@pytest.mark.parametrize("name", DOCS)
def test_the_two_halves_give_what_loads_gives(name):
    data = doc(name)
    words, arena = tape(data)
    assert build(words, arena, data) == isojson.loads(data)


# Under ISOJSON_TEST_SAMPLE the two sweeps below take an even spread of their positions (at least
# 300, the first and the last among them): each position packs and builds a whole copy of the tape,
# which made github's sweep of every entry 20 s of make test-pydbg at load 11.
@pytest.mark.parametrize("name", DOCS)
def test_every_prefix_of_a_tape_is_malformed(name):
    data = doc(name)
    words, arena = tape(data)
    for n in _util.sampled_spread(range(len(words)), 300):
        malformed(words[:n], arena, data)


@pytest.mark.parametrize("name", DOCS)
def test_an_unknown_kind_anywhere_is_malformed(name):
    data = doc(name)
    words, arena = tape(data)
    for i in _util.sampled_spread(entries(words), 300):
        for kind in (0, 11, 12, 13, 15, 16, 255):   # 11: Raw, which only dumps makes; 12 and up: no kind
            bad = list(words)
            bad[i] = kind << KIND_SHIFT | bad[i] & ((1 << KIND_SHIFT) - 1)
            malformed(bad, arena, data)


@pytest.mark.parametrize("name", DOCS)
def test_another_valid_kind_anywhere_raises_or_builds(name):
    # The words after it are then read as other entries: objects or the
    # error, never a crash (the tape's own words are all that is read).
    data = doc(name)
    words, arena = tape(data)
    for i in entries(words)[:400]:
        for kind in WORDS:
            bad = list(words)
            bad[i] = kind << KIND_SHIFT | bad[i] & ((1 << KIND_SHIFT) - 1)
            try:
                build(bad, arena, data)
            except RuntimeError as e:
                assert str(e) == MALFORMED
            except (MemoryError, ValueError):   # a huge count; a huge int's digits
                pass


@pytest.mark.parametrize("name", DOCS)
def test_text_outside_the_input_or_the_arena_is_malformed(name):
    data = doc(name)
    words, arena = tape(data)
    refs = [i for i in entries(words) if words[i] >> KIND_SHIFT in (STRING, BIGINT)]
    assert any((words[i] >> STORAGE_SHIFT) & 0xF == ARENA for i in refs)   # both storages are covered
    for i in refs:
        storage = (words[i] >> STORAGE_SHIFT) & 0xF
        n = words[i] & LEN_MASK
        size = len(data) if storage == INPUT else len(arena)
        for where, length in ((size - n + 1, n), (size + 1, 0), (2**63, n), (2**64 - 1, n), (0, size + 1),
                              (1, LEN_MASK), (size, 1)):
            if length > size or where > size or where + length > size:
                bad = list(words)
                bad[i] = bad[i] & ~LEN_MASK | length
                bad[i + 1] = where
                malformed(bad, arena, data)
        if n > 0:   # in the other storage, whose end is elsewhere
            other = ARENA if storage == INPUT else INPUT
            other_size = len(arena) if other == ARENA else len(data)
            bad = list(words)
            bad[i] = bad[i] & ~(0xF << STORAGE_SHIFT) | other << STORAGE_SHIFT
            bad[i + 1] = other_size - n + 1 if other_size >= n else 0
            malformed(bad, arena, data)


@pytest.mark.parametrize("name", DOCS)
def test_a_wrong_member_count_raises_or_builds(name):
    data = doc(name)
    words, arena = tape(data)
    containers = [i for i in entries(words) if words[i] >> KIND_SHIFT in (ARRAY, OBJECT)]
    for i in containers[:300]:
        count = words[i] & ((1 << KIND_SHIFT) - 1)
        for wrong in {count + 1, count - 1 if count else 1, 2**55 - 1}:
            bad = list(words)
            bad[i] = bad[i] & ~((1 << KIND_SHIFT) - 1) | wrong
            try:
                build(bad, arena, data)
            except RuntimeError as e:
                assert str(e) == MALFORMED
            except MemoryError:   # a list of 2**55 - 1 items
                pass


def test_a_key_that_is_not_a_string_is_malformed():
    data = b'{"a": 1, "bb": 2}'
    words, arena = tape(data)
    keys = [i for i in entries(words) if words[i] >> KIND_SHIFT == STRING]
    for i in keys:
        bad = list(words)
        bad[i] = INT << KIND_SHIFT
        bad[i + 1], bad[i + 2] = 7, NULL << KIND_SHIFT
        malformed(bad, arena, data)
