#include "textflag.h"

// func ucs2ToUTF8SSSE3(dst *byte, src *uint16, n int, mix *ucs2MixTable, escape bool, room int) (read, written int)
//
// Transcodes blocks of 8 UCS2 units from src while each block holds only
// ASCII and 3-byte characters (U+0800 to U+FFFF, no surrogates), or only
// ASCII and 2-byte ones (U+0080 to U+07FF): all ASCII (8 bytes out), all
// 3-byte (24 bytes out), all 2-byte (16 bytes out) or a mix (each half of
// 4 units compressed with a shuffle from mix, chosen by which units are
// ASCII). A block mixing 2- and 3-byte characters stops it. It
// stops at the first other block or when fewer than 8 units are left, and
// returns the units read and the bytes written. The result is at most 3
// bytes a unit read; the stores reach at most 28 bytes past it, within the
// 6 bytes a unit (maxEscapeLen) the caller has reserved. It reads whole
// blocks within n units. With escape it also stops at a block with a
// character to escape (a control, '"' or '\\'); without, the text has none
// (the caller's Clean bit).
//
// Without escape, the last 1 to 7 units (or a string shorter than 8) go
// through the same block code as one more block, padded with zero units:
// a zero is ASCII, written as one byte after the real units' bytes, so the
// padding's bytes are taken off what was written. That block is loaded as
// 16 bytes from its first unit, past the string's end, only when those 16
// bytes are on one page (a load that cannot fault), and only when room,
// the bytes free at dst, holds 32 past the output so far (its stores reach
// 28 bytes). Otherwise, or when that block holds what stops the loop, the
// units are left to the caller.
TEXT ·ucs2ToUTF8SSSE3(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ mix+24(FP), R10
	MOVBQZX escape+32(FP), R11
	MOVQ DI, R8
	MOVQ SI, R9
	XORQ R12, R12 // the tail block's padding units, once it is taken
	PXOR X7, X7
	MOVOU ucs2_ff80<>(SB), X8
	MOVOU ucs2_f800<>(SB), X9
	MOVOU ucs2_d800<>(SB), X10
	MOVOU ucs2_00e0<>(SB), X11
	MOVOU ucs2_003f<>(SB), X12
	MOVOU ucs2_0080<>(SB), X13
	MOVOU ucs2_shufA<>(SB), X6
	MOVOU ucs2_shufB<>(SB), X14

loop:
	CMPQ CX, $8
	JLT  done
	MOVOU (SI), X0
	TESTQ R11, R11
	JEQ   ascii

	// Units to escape: & 0xffe0 is zero, or '"', or '\\'.
	MOVO     X0, X1
	MOVOU    ucs2_ffe0<>(SB), X2
	PAND     X2, X1
	PCMPEQW  X7, X1
	MOVOU    ucs2_0022<>(SB), X2
	PCMPEQW  X0, X2
	POR      X2, X1
	MOVOU    ucs2_005c<>(SB), X2
	PCMPEQW  X0, X2
	POR      X2, X1
	PMOVMSKB X1, AX
	TESTL    AX, AX
	JNZ      done

ascii:
	// All ASCII: every unit & 0xff80 is zero.
	MOVO     X0, X1
	PAND     X8, X1
	PCMPEQW  X7, X1
	PMOVMSKB X1, AX
	CMPL     AX, $0xffff
	JNE      wide
	PACKUSWB X0, X0
	MOVQ     X0, (DI)
	ADDQ     $16, SI
	ADDQ     $8, DI
	SUBQ     $8, CX
	JMP      loop

wide:
	// All 3-byte: no unit & 0xf800 is 0 (below U+0800) or 0xd800 (a
	// surrogate).
	MOVO     X0, X1
	PAND     X9, X1
	MOVO     X1, X2
	PCMPEQW  X7, X1
	PCMPEQW  X10, X2
	POR      X2, X1
	PMOVMSKB X1, AX
	TESTL    AX, AX
	JNZ      mixed

	// The three bytes of each unit c in 16-bit lanes: 0xe0|c>>12,
	// 0x80|c>>6&0x3f, 0x80|c&0x3f.
	MOVO     X0, X1
	PSRLW    $12, X1
	POR      X11, X1
	MOVO     X0, X2
	PSRLW    $6, X2
	PAND     X12, X2
	POR      X13, X2
	MOVO     X0, X3
	PAND     X12, X3
	POR      X13, X3
	// X1 = first bytes (0-7) and second bytes (8-15); X3 = third bytes.
	PACKUSWB X2, X1
	PACKUSWB X3, X3
	// Interleave into 16 + 8 bytes.
	// (Masks go through registers: SSE memory operands must be aligned.)
	MOVO     X1, X4
	PSHUFB   X6, X4
	MOVO     X3, X5
	PSHUFB   X14, X5
	POR      X5, X4
	MOVOU    X4, (DI)
	MOVOU    ucs2_shufC<>(SB), X5
	PSHUFB   X5, X1
	MOVOU    ucs2_shufD<>(SB), X5
	PSHUFB   X5, X3
	POR      X3, X1
	MOVQ     X1, 16(DI)
	ADDQ     $16, SI
	ADDQ     $24, DI
	SUBQ     $8, CX
	JMP      loop

mixed:
	// A mix of ASCII and 3-byte characters: no unit is a surrogate or
	// in U+0080..U+07FF.
	MOVO     X0, X1
	PAND     X8, X1
	PCMPEQW  X7, X1          // X1: the ASCII units
	MOVO     X0, X2
	PAND     X9, X2
	MOVO     X2, X3
	PCMPEQW  X10, X3         // X3: surrogates
	PCMPEQW  X7, X2          // X2: units below U+0800
	MOVO     X1, X4
	PANDN    X2, X4          // X4: units of 2 bytes
	POR      X3, X4
	PMOVMSKB X4, AX
	TESTL    AX, AX
	JNZ      two

	// The 3-byte forms, with an ASCII unit's own value as its first
	// byte: X3 = first bytes and second bytes, X5 = third bytes.
	MOVO     X0, X2
	PSRLW    $12, X2
	POR      X11, X2
	MOVO     X1, X3
	PANDN    X2, X3
	MOVO     X0, X4
	PAND     X1, X4
	POR      X4, X3
	MOVO     X0, X4
	PSRLW    $6, X4
	PAND     X12, X4
	POR      X13, X4
	MOVO     X0, X5
	PAND     X12, X5
	POR      X13, X5
	PACKUSWB X4, X3
	PACKUSWB X5, X5
	// AX bit k: unit k is ASCII.
	PACKSSWB X1, X1
	PMOVMSKB X1, AX

	// Units 0-3: the shuffles of mix.masks[0][AX&15], the length from
	// mix.lens.
	MOVQ     AX, BX
	ANDQ     $15, BX
	MOVQ     BX, DX
	SHLQ     $5, DX
	MOVO     X3, X2
	MOVOU    0(R10)(DX*1), X4
	PSHUFB   X4, X2
	MOVO     X5, X0
	MOVOU    16(R10)(DX*1), X4
	PSHUFB   X4, X0
	POR      X0, X2
	MOVOU    X2, (DI)
	MOVBQZX  1024(R10)(BX*1), BX
	ADDQ     BX, DI

	// Units 4-7: mix.masks[1][AX>>4&15].
	SHRQ     $4, AX
	ANDQ     $15, AX
	MOVQ     AX, DX
	SHLQ     $5, DX
	MOVOU    512(R10)(DX*1), X4
	PSHUFB   X4, X3
	MOVOU    528(R10)(DX*1), X4
	PSHUFB   X4, X5
	POR      X5, X3
	MOVOU    X3, (DI)
	MOVBQZX  1024(R10)(AX*1), AX
	ADDQ     AX, DI
	ADDQ     $16, SI
	SUBQ     $8, CX
	JMP      loop

two:
	// 2-byte characters (U+0080 to U+07FF: Cyrillic, Greek, Hebrew,
	// Arabic, accented Latin) alone or mixed with ASCII: every unit
	// below U+0800 (X2), which also rules out surrogates.
	PMOVMSKB X2, AX
	CMPL     AX, $0xffff
	JNE      done
	// The two bytes of each unit c in its 16-bit lane, first byte low:
	// 0xc0|c>>6, 0x80|c&0x3f.
	MOVO     X0, X3
	PSRLW    $6, X3
	MOVOU    ucs2_00c0<>(SB), X5
	POR      X5, X3
	MOVO     X0, X4
	PAND     X12, X4
	POR      X13, X4
	PSLLW    $8, X4
	POR      X4, X3
	PMOVMSKB X1, AX
	TESTL    AX, AX
	JNZ      twomixed
	// All 2-byte: 16 bytes out.
	MOVOU    X3, (DI)
	ADDQ     $16, SI
	ADDQ     $16, DI
	SUBQ     $8, CX
	JMP      loop

twomixed:
	// An ASCII unit's lane is its own value, one byte: each half of 4
	// units is compressed with the shuffle mix.masks2[half][AX&15], of
	// length mix.lens2[AX&15], AX bit k being unit k is ASCII.
	MOVO     X1, X4
	PANDN    X3, X4
	MOVO     X0, X5
	PAND     X1, X5
	POR      X5, X4
	PACKSSWB X1, X1
	PMOVMSKB X1, AX
	MOVQ     AX, BX
	ANDQ     $15, BX
	MOVQ     BX, DX
	SHLQ     $4, DX
	MOVO     X4, X2
	MOVOU    1040(R10)(DX*1), X5
	PSHUFB   X5, X2
	MOVOU    X2, (DI)
	MOVBQZX  1552(R10)(BX*1), BX
	ADDQ     BX, DI
	SHRQ     $4, AX
	ANDQ     $15, AX
	MOVQ     AX, DX
	SHLQ     $4, DX
	MOVOU    1296(R10)(DX*1), X5
	PSHUFB   X5, X4
	MOVOU    X4, (DI)
	MOVBQZX  1552(R10)(AX*1), AX
	ADDQ     AX, DI
	ADDQ     $16, SI
	SUBQ     $8, CX
	JMP      loop

done:
	TESTQ R12, R12
	JNE   tailend
	TESTQ CX, CX
	JEQ   finish
	CMPQ  CX, $8
	JGE   finish // stopped by a block, not for want of units
	TESTQ R11, R11
	JNE   finish
	// The tail block: 32 bytes of room past the output, 16 bytes from
	// SI on one page.
	MOVQ  DI, AX
	SUBQ  R8, AX
	ADDQ  $32, AX
	CMPQ  AX, room+40(FP)
	JGT   finish
	MOVQ  SI, AX
	ANDQ  $4095, AX
	CMPQ  AX, $4080
	JGT   finish
	MOVOU (SI), X0
	// Keep the first CX units: tail_ones from 16-2×CX on.
	LEAQ  tail_ones<>+16(SB), AX
	SUBQ  CX, AX
	SUBQ  CX, AX
	MOVOU (AX), X1
	PAND  X1, X0
	MOVQ  $8, R12
	SUBQ  CX, R12
	MOVQ  SI, R13
	MOVQ  $8, CX
	JMP   ascii

tailend:
	// Taken (SI moved on): the padding's units and bytes off.
	CMPQ SI, R13
	JEQ  finish
	SUBQ R12, DI
	SUBQ R12, SI
	SUBQ R12, SI

finish:
	SUBQ R9, SI
	SHRQ $1, SI
	SUBQ R8, DI
	MOVQ SI, read+48(FP)
	MOVQ DI, written+56(FP)
	RET

// 16 bytes of ones, then 16 of zeros: the 16 bytes from tail_ones+16-k on
// keep the first k bytes of a register.
DATA tail_ones<>+0(SB)/8, $-1
DATA tail_ones<>+8(SB)/8, $-1
DATA tail_ones<>+16(SB)/8, $0
DATA tail_ones<>+24(SB)/8, $0
GLOBL tail_ones<>(SB), RODATA|NOPTR, $32

DATA ucs2_ff80<>+0(SB)/8, $0xff80ff80ff80ff80
DATA ucs2_ff80<>+8(SB)/8, $0xff80ff80ff80ff80
GLOBL ucs2_ff80<>(SB), RODATA|NOPTR, $16
DATA ucs2_f800<>+0(SB)/8, $0xf800f800f800f800
DATA ucs2_f800<>+8(SB)/8, $0xf800f800f800f800
GLOBL ucs2_f800<>(SB), RODATA|NOPTR, $16
DATA ucs2_d800<>+0(SB)/8, $0xd800d800d800d800
DATA ucs2_d800<>+8(SB)/8, $0xd800d800d800d800
GLOBL ucs2_d800<>(SB), RODATA|NOPTR, $16
DATA ucs2_00e0<>+0(SB)/8, $0x00e000e000e000e0
DATA ucs2_00e0<>+8(SB)/8, $0x00e000e000e000e0
GLOBL ucs2_00e0<>(SB), RODATA|NOPTR, $16
DATA ucs2_00c0<>+0(SB)/8, $0x00c000c000c000c0
DATA ucs2_00c0<>+8(SB)/8, $0x00c000c000c000c0
GLOBL ucs2_00c0<>(SB), RODATA|NOPTR, $16
DATA ucs2_003f<>+0(SB)/8, $0x003f003f003f003f
DATA ucs2_003f<>+8(SB)/8, $0x003f003f003f003f
GLOBL ucs2_003f<>(SB), RODATA|NOPTR, $16
DATA ucs2_ffe0<>+0(SB)/8, $0xffe0ffe0ffe0ffe0
DATA ucs2_ffe0<>+8(SB)/8, $0xffe0ffe0ffe0ffe0
GLOBL ucs2_ffe0<>(SB), RODATA|NOPTR, $16
DATA ucs2_0022<>+0(SB)/8, $0x0022002200220022
DATA ucs2_0022<>+8(SB)/8, $0x0022002200220022
GLOBL ucs2_0022<>(SB), RODATA|NOPTR, $16
DATA ucs2_005c<>+0(SB)/8, $0x005c005c005c005c
DATA ucs2_005c<>+8(SB)/8, $0x005c005c005c005c
GLOBL ucs2_005c<>(SB), RODATA|NOPTR, $16
DATA ucs2_0080<>+0(SB)/8, $0x0080008000800080
DATA ucs2_0080<>+8(SB)/8, $0x0080008000800080
GLOBL ucs2_0080<>(SB), RODATA|NOPTR, $16

// Output byte j of the first 16 takes byte shufA[j] of X1 (first and
// second bytes) or byte shufB[j] of X3 (third bytes); 0x80 selects zero.
// Little-endian words: the lowest byte is output byte 0.
DATA ucs2_shufA<>+0(SB)/8, $0x0a02800901800800
DATA ucs2_shufA<>+8(SB)/8, $0x05800c04800b0380
GLOBL ucs2_shufA<>(SB), RODATA|NOPTR, $16
DATA ucs2_shufB<>+0(SB)/8, $0x8080018080008080
DATA ucs2_shufB<>+8(SB)/8, $0x8004808003808002
GLOBL ucs2_shufB<>(SB), RODATA|NOPTR, $16
DATA ucs2_shufC<>+0(SB)/8, $0x800f07800e06800d
DATA ucs2_shufC<>+8(SB)/8, $0x8080808080808080
GLOBL ucs2_shufC<>(SB), RODATA|NOPTR, $16
DATA ucs2_shufD<>+0(SB)/8, $0x0780800680800580
DATA ucs2_shufD<>+8(SB)/8, $0x8080808080808080
GLOBL ucs2_shufD<>(SB), RODATA|NOPTR, $16

// func latin1ToUTF8SSSE3(dst *byte, src *byte, n int, mix *ucs2MixTable, room int) (read, written int)
//
// Transcodes the Latin-1 (UCS1) text src to UTF-8 in blocks of 8 bytes
// while at least 8 are left, and returns the bytes read and written. Each
// block is widened to 8 UCS2 units, all of them ASCII or 2-byte characters,
// and written as ucs2ToUTF8SSSE3 writes those: 8 bytes for all ASCII, 16
// for none, else each half compressed with mix.masks2. No escaping (the
// caller's text is Clean). The output is at most 2 bytes a byte read; the
// stores reach at most 16 bytes past it, within the 6 bytes a unit
// (maxEscapeLen) the caller has reserved. The last 1 to 7 bytes (or a
// string shorter than 8) are one more block padded with zeros, as in
// ucs2ToUTF8SSSE3: loaded as 8 bytes from its first, past the string's
// end, only when those are on one page, and only when room, the bytes free
// at dst, holds 32 past the output so far; else they are the caller's.
TEXT ·latin1ToUTF8SSSE3(SB), NOSPLIT, $0-56
	MOVQ  dst+0(FP), DI
	MOVQ  src+8(FP), SI
	MOVQ  n+16(FP), CX
	MOVQ  mix+24(FP), R10
	MOVQ  DI, R8
	MOVQ  SI, R9
	XORQ  R12, R12
	PXOR  X7, X7
	MOVOU ucs2_ff80<>(SB), X8
	MOVOU ucs2_00c0<>(SB), X11
	MOVOU ucs2_003f<>(SB), X12
	MOVOU ucs2_0080<>(SB), X13

l1loop:
	CMPQ      CX, $8
	JLT       l1done
	MOVQ      (SI), X0

l1block:
	PUNPCKLBW X7, X0
	MOVO      X0, X1
	PAND      X8, X1
	PCMPEQW   X7, X1          // X1: the ASCII units
	PMOVMSKB  X1, AX
	CMPL      AX, $0xffff
	JNE       l1two
	PACKUSWB  X0, X0
	MOVQ      X0, (DI)
	ADDQ      $8, SI
	ADDQ      $8, DI
	SUBQ      $8, CX
	JMP       l1loop

l1two:
	// Each unit's two bytes in its lane: 0xc0|c>>6, 0x80|c&0x3f.
	MOVO     X0, X3
	PSRLW    $6, X3
	POR      X11, X3
	MOVO     X0, X4
	PAND     X12, X4
	POR      X13, X4
	PSLLW    $8, X4
	POR      X4, X3
	TESTL    AX, AX
	JNZ      l1mixed
	MOVOU    X3, (DI)
	ADDQ     $8, SI
	ADDQ     $16, DI
	SUBQ     $8, CX
	JMP      l1loop

l1mixed:
	MOVO     X1, X4
	PANDN    X3, X4
	MOVO     X0, X5
	PAND     X1, X5
	POR      X5, X4
	PACKSSWB X1, X1
	PMOVMSKB X1, AX
	MOVQ     AX, BX
	ANDQ     $15, BX
	MOVQ     BX, DX
	SHLQ     $4, DX
	MOVO     X4, X2
	MOVOU    1040(R10)(DX*1), X5
	PSHUFB   X5, X2
	MOVOU    X2, (DI)
	MOVBQZX  1552(R10)(BX*1), BX
	ADDQ     BX, DI
	SHRQ     $4, AX
	ANDQ     $15, AX
	MOVQ     AX, DX
	SHLQ     $4, DX
	MOVOU    1296(R10)(DX*1), X5
	PSHUFB   X5, X4
	MOVOU    X4, (DI)
	MOVBQZX  1552(R10)(AX*1), AX
	ADDQ     AX, DI
	ADDQ     $8, SI
	SUBQ     $8, CX
	JMP      l1loop

l1done:
	TESTQ R12, R12
	JNE   l1tailend
	TESTQ CX, CX
	JEQ   l1finish
	MOVQ  DI, AX
	SUBQ  R8, AX
	ADDQ  $32, AX
	CMPQ  AX, room+32(FP)
	JGT   l1finish
	MOVQ  SI, AX
	ANDQ  $4095, AX
	CMPQ  AX, $4088
	JGT   l1finish
	MOVQ  (SI), X0
	LEAQ  tail_ones<>+16(SB), AX
	SUBQ  CX, AX
	MOVOU (AX), X1
	PAND  X1, X0
	MOVQ  $8, R12
	SUBQ  CX, R12
	MOVQ  $8, CX
	JMP   l1block

l1tailend:
	// Every block is taken: the padding's bytes off.
	SUBQ R12, DI
	SUBQ R12, SI

l1finish:
	SUBQ R9, SI
	SUBQ R8, DI
	MOVQ SI, read+40(FP)
	MOVQ DI, written+48(FP)
	RET
