"""python -m isojson: validate and reformat JSON with isojson's own loads and dumps.

The command line a ``python -m json.tool`` user expects, where isojson's
options allow: infile (or standard input) to outfile (or standard output),
2-space indentation or compact output, sorted keys, JSON Lines, and a
--validate mode that reports each invalid document as FILE:LINE:COL: MESSAGE.
``python -m isojson --help`` lists the options and how they differ from
json.tool's.

A whole document is read as bytes and handed to loads in one call (the
input is dropped before dumps, so that a large file is held twice at most:
as text and objects, then as objects and output). JSON Lines are read, parsed
and written one line at a time, so memory stays bounded by the longest line.
"""

import argparse
import codecs
import contextlib
import gc
import io
import os
import signal
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any, NoReturn

import isojson

# Exit statuses, said in --help: as grep, 1 is the answer "invalid" and 2 is
# trouble (a bad option, a file that cannot be read or written).
EXIT_OK = 0
EXIT_INVALID = 1
EXIT_ERROR = 2
# What a shell reports for a filter killed by SIGPIPE (`... | head`).
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE

STDIN_NAME = "<stdin>"
# JSON's whitespace: a line of only these is blank in --json-lines input.
JSON_WHITESPACE = b" \t\r\n"
# How much of the input the UTF-8 check decodes at a time (only after loads
# has said the input is not UTF-8, to find where).
UTF8_CHUNK = 1 << 24

DESCRIPTION = """\
Validate or reformat JSON with isojson: the output is orjson's, byte for byte.
Reads infile, or standard input when it is absent or '-'; writes outfile, or
standard output when it is absent or '-'. With --validate, reads any number
of files and writes nothing but the errors."""

EPILOG = """\
invalid input:
  An invalid document (bad syntax, invalid UTF-8, NaN or Infinity, nesting
  deeper than 1024 levels, an empty input) is reported on standard error as
  FILE:LINE:COL: MESSAGE, lines and columns counted from 1, columns in
  characters; standard input is named <stdin>. Without --validate the first
  error stops the run; with --validate every file is checked, and with
  --json-lines every line.

exit status:
  0 valid, 1 invalid (or valid JSON that dumps cannot write: nesting deeper
  than 254 levels), 2 a bad option or a file that cannot be read or written,
  141 the reader of the output went away (a broken pipe, as `| head` does).

differences from json.tool:
  --indent accepts only 2 (orjson's OPT_INDENT_2 is the only indentation) and
  2 is the default, where json.tool's is 4; --tab and --no-indent are not
  offered. The output is always UTF-8 with non-ASCII characters written as
  they are (json.tool escapes them unless --no-ensure-ascii, accepted here and
  meaning nothing). NaN and Infinity are invalid JSON here; integers of any
  size keep their digits; floats are written as orjson writes them. Blank
  lines in --json-lines input are skipped. The output is never coloured."""


class _NotOffered(argparse.Action):
    """json.tool's --tab and --no-indent: a usage error that says why."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help=argparse.SUPPRESS)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> NoReturn:
        parser.error(f"{option_string} is not offered: isojson writes 2-space indentation "
                     "(--indent 2, the default) or compact output (--compact)")


def _indent(text: str) -> int:
    if text.strip() != "2":
        raise argparse.ArgumentTypeError(
            f"{text!r}: isojson indents by 2 spaces only (orjson's OPT_INDENT_2); use --indent 2 or --compact")
    return 2


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (--help shows what it holds)."""
    parser = argparse.ArgumentParser(
        usage="%(prog)s [options] [infile [outfile]]\n       %(prog)s --validate [options] [infile ...]",
        description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", metavar="infile [outfile]",
                        help="the JSON to read and where to write it ('-' or absent: standard input and output)")
    layout = parser.add_mutually_exclusive_group()
    layout.add_argument("--indent", type=_indent, metavar="2",
                        help="indent by 2 spaces, one value a line (the default; 2 is the only width)")
    layout.add_argument("--compact", action="store_true",
                        help="write no whitespace at all (one line a document)")
    layout.add_argument("--tab", action=_NotOffered)
    layout.add_argument("--no-indent", action=_NotOffered)
    parser.add_argument("--sort-keys", action="store_true", help="sort the keys of every object")
    parser.add_argument("--json-lines", action="store_true",
                        help="the input is JSON Lines, one document a line, read and written a line at a "
                             "time; with --compact the output is JSON Lines too")
    parser.add_argument("--validate", action="store_true",
                        help="only check the input: write nothing, report each invalid document, exit 1 "
                             "if there is one")
    parser.add_argument("--no-ensure-ascii", action="store_true",
                        help="accepted for json.tool's sake and meaning nothing: non-ASCII text is always "
                             "written as UTF-8, never escaped")
    parser.add_argument("--version", action="version", version=f"isojson {isojson.__version__}")
    return parser


class _Failed(Exception):
    """A file that cannot be read or written: reported as an error, status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line argv (default: sys.argv[1:]); returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    # What loads makes holds no reference cycles, so the cyclic GC would find
    # nothing; but after a large document it would walk its millions of objects
    # (1.5 s of CPU for a 1 GiB one) at each of its collections.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(parser, args)
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: what is
        # left in its buffers goes to /dev/null instead.
        devnull = os.open(os.devnull, os.O_WRONLY)
        with contextlib.suppress(AttributeError, OSError, ValueError):
            os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    finally:
        if gc_was_enabled:
            gc.enable()


def _run(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    files: list[str] = args.files
    if args.validate:
        status = EXIT_OK
        for name in files or ["-"]:
            try:
                valid = _validate_lines(name) if args.json_lines else _validate_document(name)
            except _Failed as e:
                _error(parser, str(e))
                status = EXIT_ERROR
            else:
                if not valid and status == EXIT_OK:
                    status = EXIT_INVALID
        return status
    if len(files) > 2:
        parser.error("takes one infile and one outfile (several files only with --validate)")
    option = isojson.OPT_APPEND_NEWLINE
    if not args.compact:
        option |= isojson.OPT_INDENT_2
    if args.sort_keys:
        option |= isojson.OPT_SORT_KEYS
    infile = files[0] if files else "-"
    outfile = files[1] if len(files) > 1 else "-"
    try:
        if args.json_lines:
            return _reformat_lines(infile, outfile, option)
        return _reformat_document(infile, outfile, option)
    except _Failed as e:
        _error(parser, str(e))
        return EXIT_ERROR


def _error(parser: argparse.ArgumentParser, message: str) -> None:
    sys.stderr.write(f"{parser.prog}: error: {message}\n")


def _display_name(name: str) -> str:
    return STDIN_NAME if name == "-" else name


def _open_input(name: str) -> IO[bytes]:
    if name == "-":
        if sys.stdin is None:
            raise _Failed("standard input is closed")
        return sys.stdin.buffer
    try:
        return open(name, "rb")
    except OSError as e:
        raise _Failed(f"{name}: {e.strerror or e}") from None


@contextlib.contextmanager
def _reading(name: str) -> Iterator[IO[bytes]]:
    """The input name, opened (standard input for '-'), closed at the end."""
    f = _open_input(name)
    try:
        yield f
    finally:
        if name != "-":
            f.close()


def _read_all(name: str) -> bytes:
    with _reading(name) as f:
        try:
            return f.read()
        except OSError as e:
            raise _Failed(f"{_display_name(name)}: {e.strerror or e}") from None


def _open_output(name: str) -> IO[bytes]:
    """A buffered writer to the output name, standard output for '-'. Ours
    for standard output too: sys.stdout.buffer is unbuffered under
    PYTHONUNBUFFERED (python -u), and its write() then writes what one
    system call takes and returns the count, which a caller must not lose."""
    if name == "-":
        try:
            fd = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):
            raise _Failed("standard output is closed") from None
        sys.stdout.flush()
        return open(fd, "wb", closefd=False)
    try:
        return open(name, "wb")
    except OSError as e:
        raise _Failed(f"{name}: {e.strerror or e}") from None


def _write_all(name: str, chunks: Iterable[bytes]) -> None:
    """Writes chunks to the output name, as they come; an error of the
    output (not BrokenPipeError, which main handles) becomes _Failed."""
    out = _open_output(name)
    try:
        try:
            for chunk in chunks:
                out.write(chunk)
        finally:
            out.close()  # flushes; for standard output, leaves the descriptor open
    except BrokenPipeError:
        raise
    except OSError as e:
        raise _Failed(f"{_display_name(name)}: {e.strerror or e}") from None


def _report(name: str, line: int, column: int, message: str) -> None:
    sys.stderr.write(f"{_display_name(name)}:{line}:{column}: {message}\n")


def _utf8_error(data: bytes) -> tuple[int, str] | None:
    """The byte offset of the first invalid UTF-8 sequence in data and why it
    is invalid, or None when data is UTF-8. Decodes a chunk at a time, so that
    a large input is not copied whole."""
    view = memoryview(data)
    # 4 bytes at least: a chunk that starts a sequence then always ends one or fails.
    size = max(UTF8_CHUNK, 4)
    pos = 0
    while pos < len(data):
        final = pos + size >= len(data)
        try:
            _, used = codecs.utf_8_decode(view[pos:pos + size], "strict", final)
        except UnicodeDecodeError as e:
            return pos + e.start, e.reason
        pos += used
    return None


def _position(data: bytes, e: isojson.JSONDecodeError) -> tuple[int, int, str]:
    """(line, column, message) of loads' error e for the input data.

    loads reports invalid UTF-8 before anything else, with an empty doc and
    position 0 (as orjson does), and in words meant for str input; here the
    first bad sequence is found and said to be invalid UTF-8."""
    if e.doc == "" and data:
        bad = _utf8_error(data)
        if bad is not None:
            offset, reason = bad
            line_start = data.rfind(b"\n", 0, offset) + 1
            column = len(codecs.utf_8_decode(memoryview(data)[line_start:offset])[0]) + 1
            return data.count(b"\n", 0, offset) + 1, column, f"invalid UTF-8: {reason}"
    return e.lineno, e.colno, e.msg


def _validate_document(name: str) -> bool:
    data = _read_all(name)
    try:
        isojson.loads(data)
    except isojson.JSONDecodeError as e:
        _report(name, *_position(data, e))
        return False
    return True


def _reformat_document(infile: str, outfile: str, option: int) -> int:
    data = _read_all(infile)
    try:
        obj = isojson.loads(data)
    except isojson.JSONDecodeError as e:
        _report(infile, *_position(data, e))
        return EXIT_INVALID
    del data  # the text is not needed any more; a large one should not stay beside its objects
    try:
        out = isojson.dumps(obj, option=option)
    except isojson.JSONEncodeError as e:
        sys.stderr.write(f"{_display_name(infile)}: valid JSON, but isojson.dumps cannot write it: {e}\n")
        return EXIT_INVALID
    del obj
    # The output is opened only now, so that invalid input leaves outfile as it was
    # (and `python -m isojson f.json f.json` rewrites f.json in place).
    _write_all(outfile, (out,))
    return EXIT_OK


def _numbered_lines(name: str, f: IO[bytes], whole: bool) -> Iterator[tuple[int, bytes]]:
    """(line number, line) of the input f, read a line at a time, or all at
    once when whole (when the output is the input file itself); lines end
    at b"\n" only, either way."""
    try:
        yield from enumerate(io.BytesIO(f.read()) if whole else f, 1)
    except OSError as e:  # only reading happens in this frame; writing is the caller's
        raise _Failed(f"{_display_name(name)}: {e.strerror or e}") from None


def _is_blank(line: bytes) -> bool:
    return not line.strip(JSON_WHITESPACE)


def _line_position(line: bytes, e: isojson.JSONDecodeError) -> tuple[int, str]:
    """(column, message) of loads' error e for one line of JSON Lines. An
    error at the end of the line is placed before its line break, where the
    reader sees it, not at the start of a next line the document has not."""
    text = line.rstrip(b"\r\n")
    if len(text) != len(line):
        try:
            isojson.loads(text)
        except isojson.JSONDecodeError as stripped:
            line, e = text, stripped
    _, column, message = _position(line, e)
    return column, message


def _validate_lines(name: str) -> bool:
    valid = True
    loads = isojson.loads
    with _reading(name) as f:
        for number, line in _numbered_lines(name, f, whole=False):
            try:
                loads(line)
            except isojson.JSONDecodeError as e:
                if not _is_blank(line):
                    _report(name, number, *_line_position(line, e))
                    valid = False
    return valid


def _same_file(a: str, b: str) -> bool:
    if a == "-" or b == "-":
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _reformat_lines(infile: str, outfile: str, option: int) -> int:
    status = EXIT_OK

    def documents(lines: Iterable[tuple[int, bytes]]) -> Iterator[bytes]:
        nonlocal status
        loads, dumps = isojson.loads, isojson.dumps
        for number, line in lines:
            try:
                obj = loads(line)
            except isojson.JSONDecodeError as e:
                if _is_blank(line):
                    continue
                _report(infile, number, *_line_position(line, e))
                status = EXIT_INVALID
                return
            try:
                out = dumps(obj, option=option)
            except isojson.JSONEncodeError as e:
                sys.stderr.write(f"{_display_name(infile)}:{number}: valid JSON, but isojson.dumps "
                                 f"cannot write it: {e}\n")
                status = EXIT_INVALID
                return
            yield out

    # The input is opened first, so that a missing infile leaves outfile as it was;
    # when outfile is infile itself, it is read whole before outfile is emptied.
    with _reading(infile) as f:
        whole = _same_file(infile, outfile)
        lines: Iterable[tuple[int, bytes]] = _numbered_lines(infile, f, whole)
        if whole:
            lines = list(lines)
        _write_all(outfile, documents(lines))
    return status


if __name__ == "__main__":
    sys.exit(main())
