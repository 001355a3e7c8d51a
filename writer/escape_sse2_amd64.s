#include "textflag.h"

// func escapeUTF8SSE2(dst *byte, src *byte, n int, table *[256]struct{word uint64; len int}) (read, written int)
//
// Escapes UTF-8 text 16 bytes a step while at least 16 are left: each block
// is stored whole before it is checked (a clean block costs a load, a store
// and four compares), and at the first byte to escape the output goes back
// to it, the escape from table (word, length) is stored as 4 + 2 bytes, and
// the next block starts after that byte. Returns the bytes read (the caller
// escapes the last 0-15 bytes) and written. Output position d and input
// position i keep d <= 6i, so a 16-byte store for a block within n reaches
// at most 6n: within the caller's reservation of maxEscapeLen a byte.
TEXT ·escapeUTF8SSE2(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ table+24(FP), R8
	XORQ AX, AX // i: bytes read
	XORQ BX, BX // d: bytes written
	PXOR X4, X4
	MOVOU esc_1f<>(SB), X5
	MOVOU esc_quote<>(SB), X6
	MOVOU esc_backslash<>(SB), X7

loop:
	LEAQ 16(AX), CX
	CMPQ CX, DX
	JGT  done
	MOVOU (SI)(AX*1), X0
	MOVOU X0, (DI)(BX*1)
	// x <= 0x1f unsigned  <=>  saturating x - 0x1f == 0
	MOVO    X0, X1
	PSUBUSB X5, X1
	PCMPEQB X4, X1
	MOVO    X0, X2
	PCMPEQB X6, X2
	PCMPEQB X7, X0
	POR     X2, X1
	POR     X0, X1
	PMOVMSKB X1, R9
	TESTL   R9, R9
	JNE     escape
	MOVQ    CX, AX
	ADDQ    $16, BX
	JMP     loop

escape:
	BSFL    R9, R9
	ADDQ    R9, AX
	ADDQ    R9, BX
	MOVBQZX (SI)(AX*1), R10
	SHLQ    $4, R10
	MOVQ    (R8)(R10*1), R11  // escape bytes, little-endian
	MOVQ    8(R8)(R10*1), R12 // their count
	MOVL    R11, (DI)(BX*1)
	SHRQ    $32, R11
	MOVW    R11, 4(DI)(BX*1)
	ADDQ    R12, BX
	INCQ    AX
	JMP     loop

done:
	MOVQ AX, read+32(FP)
	MOVQ BX, written+40(FP)
	RET

DATA esc_1f<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA esc_1f<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL esc_1f<>(SB), RODATA|NOPTR, $16
DATA esc_quote<>+0(SB)/8, $0x2222222222222222
DATA esc_quote<>+8(SB)/8, $0x2222222222222222
GLOBL esc_quote<>(SB), RODATA|NOPTR, $16
DATA esc_backslash<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA esc_backslash<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL esc_backslash<>(SB), RODATA|NOPTR, $16
