"""Documents for tests/test_dumps_output.py, in a module of their own (no
pytest, no orjson) so that own-GIL sub-interpreters and child processes can
import them too. Options are orjson's bits."""

OPT_INDENT_2 = 1
OPT_SORT_KEYS = 32
OPT_APPEND_NEWLINE = 1024


def nested_indent(depth, leaves):
    """A list nested depth deep around `leaves` ints: indented, every leaf
    line carries 2 * depth spaces, hundreds of bytes per tape entry."""
    doc = list(range(leaves))
    for _ in range(depth - 1):
        doc = [doc]
    return doc


def growth_docs(big_ints=True):
    """Documents whose text is at least 30 bytes per tape word, with
    thousands of words (so that even the lowest estimate is a few KiB and the
    text is written straight into the bytes object), each with the options it
    is written with. big_ints=False leaves out ints beyond 64 bits (for
    checking the tests against orjson itself, which rejects them)."""
    docs = {
        # Escapes: every character of these becomes two to six bytes.
        "escaped ascii": (["\n\"\\" * 100 + str(i) for i in range(3000)], None),
        "escaped latin-1": (["é\x01" * 150 + str(i) for i in range(2000)], None),
        "ucs2 text": (["日本語\t" * 60 + str(i) for i in range(2000)], OPT_APPEND_NEWLINE),
        "astral text": ({f"k{i}": "😀\"" * 100 for i in range(2000)}, OPT_SORT_KEYS),
        # Deep indentation: 2 * 200 spaces before each of 3000 leaves.
        "deep indent": (nested_indent(200, 3000), OPT_INDENT_2),
        # Over 65536 tape words and one borrowed string: written without the
        # GIL, so growing takes it back.
        "unlocked": ({"nulls": [None] * 70000, "text": "\n" * 1_500_000}, None),
        "unlocked indent": ({"nulls": [None] * 70000, "text": "\x00" * 400_000}, OPT_INDENT_2),
        # Under 256 tape words with much counted text: written direct, from an
        # estimate that the escapes and the UCS bounds leave short or long
        # (dumps_write_text), so the bytes object grows or is cut.
        "few long strings": (["\n" * 300_000, "é" * 300_000, {"k": "日" * 100_000}], None),
        # 302 words of long strings: the first call's estimate is small (the
        # copy path); the next one learns the ratio and goes direct.
        "hundred long strings": (["\n\t" * 3_000 + str(i) for i in range(100)], None),
    }
    if big_ints:
        # Ints far beyond 64 bits: isojson writes all their digits.
        docs["huge ints"] = ([2**13000 + i for i in range(1500)], None)
    return docs


def shrink_docs():
    """Documents of about one byte of text per tape word, 4 KiB and more."""
    return {
        "zeros": ([0] * 300_000, None),
        "zeros indent": ([[0, 1]] * 50_000, OPT_INDENT_2),
        "small ints": (list(range(-5, 5)) * 1000, None),
        "unlocked zeros": ([0] * 100_000, OPT_APPEND_NEWLINE),
    }


def prime(m, high):
    """Sets the estimate (in module m) high: 330 bytes of text a tape word,
    which for tapes of another size is capped at 16, so that every shrink doc
    is estimated at 4x its text or more; or low: 1 byte a word, so that every
    growth doc is estimated at 1/30 of its text or less. Compact and
    indented."""
    doc = ["x" * 1000] * 50 if high else [0] * 5000
    for option in (None, OPT_INDENT_2):
        m.dumps(doc, option=option)
