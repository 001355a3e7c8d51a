#include "textflag.h"

// ESCAPE_MASK sets R9 to the mask of the bytes of the block in X0 to escape
// (<= 0x1f unsigned, '"', '\\'), given X4 zero and X5, X6, X7 every byte
// 0x1f, '"', '\\'. It keeps X0 and clobbers X1-X3. x <= 0x1f unsigned when
// the saturating x - 0x1f is 0.
#define ESCAPE_MASK \
	MOVO     X0, X1; \
	PSUBUSB  X5, X1; \
	PCMPEQB  X4, X1; \
	MOVO     X0, X2; \
	PCMPEQB  X6, X2; \
	MOVO     X0, X3; \
	PCMPEQB  X7, X3; \
	POR      X2, X1; \
	POR      X3, X1; \
	PMOVMSKB X1, R9

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
	ESCAPE_MASK
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

// func escapeUTF8SSSE3(dst *byte, src *byte, n int, table *[256]struct{word uint64; len int}, quote bool) (read, written int)
//
// Escapes UTF-8 text in one pass of 16-byte blocks, every escape of a block
// taken from the block's mask: the block is stored whole, then for each byte
// to escape (lowest first) its escape from table is stored as one 8-byte
// word where it goes, and the rest of the block after that byte, shifted to
// the front of a register by PSHUFB (SSSE3), is stored just after the
// escape; the next escape of the block overwrites what follows it. So an
// escape costs no reload and no restart of the block, and a clean block is
// a load, a store and four compares.
//
// The last 1 to 15 bytes (all of a string shorter than 16) are one more
// block, loaded from their first byte past the string's end only when those
// 16 bytes are on one 4 KiB page (a load that cannot fault); the mask drops
// the bytes past the end, and what they stored is past the output. When that
// load would cross a page, it returns early and the caller escapes the rest.
//
// Output position d and input position i keep d <= 6i (an escape is at most
// 6 bytes for 1), so the stores reach at most 6n+16 bytes: the caller has
// reserved maxEscapeLen bytes a byte and 16 more (escapeSlack).
// Returns the bytes read and written. With quote, the text is put between
// quotes: the opening one at dst, the closing one only when all n bytes
// were read (written counts them; the caller has reserved 2 bytes more).
TEXT ·escapeUTF8SSSE3(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), DX
	MOVQ table+24(FP), R8
	// DI is kept at dst + (bytes written - bytes read): the output of input
	// byte i is at (DI)(i*1), and an escape of l bytes moves DI by l-1.
	MOVBQZX quote+32(FP), R13
	TESTQ R13, R13
	JEQ  sstart
	MOVB $0x22, (DI)
	INCQ DI
sstart:
	XORQ AX, AX  // i: bytes read, the block's start
	PXOR X4, X4
	MOVOU esc_1f<>(SB), X5
	MOVOU esc_quote<>(SB), X6
	MOVOU esc_backslash<>(SB), X7
	LEAQ  esc_shift<>(SB), BX

sloop:
	MOVQ DX, CX
	SUBQ AX, CX // bytes left
	CMPQ CX, $16
	JLT  stail
	MOVL $16, CX // the block's length
	MOVOU (SI)(AX*1), X0
	MOVOU X0, (DI)(AX*1)
	ESCAPE_MASK
	TESTL   R9, R9
	JNE     sescape
	ADDQ    $16, AX
	JMP     sloop

stail:
	TESTQ CX, CX
	JEQ   sdone
	// The 16 bytes from src+i on one page: (src+i) mod 4096 <= 4080.
	LEAQ (SI)(AX*1), R11
	ANDL $4095, R11
	CMPL R11, $4080
	JA   sdone
	MOVOU (SI)(AX*1), X0
	MOVOU X0, (DI)(AX*1)
	ESCAPE_MASK
	// Only the CX bytes within the string.
	MOVL $1, R11
	SHLL CX, R11
	DECL R11
	ANDL R11, R9
	JNE  sescape
	ADDQ CX, AX
	JMP  sdone

sescape:
	// X0: the block at i, CX its length, R9 its bytes to escape (not 0).
	BSFL  R9, R10              // k: the lowest
	MOVOU 1(BX)(R10*1), X1     // the shuffle that takes bytes k+1.. to the front
	ADDQ  AX, R10              // its input position j; its output is at (DI)(j*1)
	MOVBQZX (SI)(R10*1), R12
	SHLQ  $4, R12
	MOVQ  (R8)(R12*1), R11     // the escape's bytes, little-endian
	MOVQ  R11, (DI)(R10*1)
	MOVQ  8(R8)(R12*1), R11    // their count l
	LEAQ  -1(DI)(R11*1), DI    // the output lead grows by l-1
	MOVO  X0, X2
	PSHUFB X1, X2
	MOVOU X2, 1(DI)(R10*1)     // the block's bytes after j, after the escape
	LEAL  -1(R9), R11
	ANDL  R11, R9              // the next lowest
	JNE   sescape
	ADDQ  CX, AX
	JMP   sloop

sdone:
	MOVQ AX, read+40(FP)
	CMPQ AX, DX
	JNE  sout
	TESTQ R13, R13
	JEQ  sout
	// All read: the closing quote.
	MOVB $0x22, (DI)(AX*1)
	INCQ DI
sout:
	ADDQ AX, DI
	SUBQ dst+0(FP), DI
	MOVQ DI, written+48(FP)
	RET

// esc_shift at k is the PSHUFB mask that moves bytes k.. of a register to
// its front (0x80: a zero byte), for k from 1 to 16.
DATA esc_shift<>+0(SB)/8, $0x0706050403020100
DATA esc_shift<>+8(SB)/8, $0x0f0e0d0c0b0a0908
DATA esc_shift<>+16(SB)/8, $0x8080808080808080
DATA esc_shift<>+24(SB)/8, $0x8080808080808080
GLOBL esc_shift<>(SB), RODATA|NOPTR, $32
