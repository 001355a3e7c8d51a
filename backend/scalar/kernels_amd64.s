#include "textflag.h"

// SIMD kernels of the scanner (see kernels_amd64.go): plain ASCII string
// text in 16-byte SSE2 blocks, non-ASCII text in 32-byte AVX2 blocks. Each
// reads whole blocks within n and never past them, and returns how far it
// got; the Go caller finishes the rest a word at a time.

// func utf8BlocksAVX2(p *byte, n int) (k, cont, maxb int, bad bool)
//
// Scans string text (any bytes but '"', '\\' and < 0x20) in whole blocks up
// to the first block holding one of those, validating the UTF-8 with the
// lookup algorithm of Keiser and Lemire ("Validating UTF-8 in less than one
// instruction per byte", 2021): three nibble lookups classify every byte
// with the one before it, and the bytes 2 and 3 after a 3- and 4-byte lead
// must be continuations. The text before p must end between characters
// (the callers start it after ASCII): the block before the first is taken as
// zeros. Returns the bytes scanned (k, a multiple of 32), the continuation
// bytes among them, their largest byte (which gives the class), and bad
// when they hold an error. A character cut by the end of the last block is
// not judged: the caller resumes at its first byte.
//
// Every vector instruction is VEX-encoded (VMOVD, not MOVD): on the
// development machine one legacy-SSE instruction among them cost ~0.8 µs
// a call. The first block is checked before the set-up, so that a call on
// text that ends in it (a short string) costs a dozen instructions.
TEXT ·utf8BlocksAVX2(SB), NOSPLIT, $0-41
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DX
	XORQ AX, AX                      // k
	XORQ R8, R8                      // cont
	CMPQ DX, $32
	JLT  utf8_none
	VPBROADCASTB utf8_bytes<>+0(SB), Y1 // '"'
	VPBROADCASTB utf8_bytes<>+1(SB), Y2 // '\\'
	VPBROADCASTB utf8_bytes<>+2(SB), Y3 // last control byte
	VMOVDQU      (SI), Y0
	VPCMPEQB     Y0, Y1, Y4
	VPCMPEQB     Y0, Y2, Y8
	VPOR         Y4, Y8, Y4
	VPMINUB      Y3, Y0, Y8
	VPCMPEQB     Y0, Y8, Y8
	VPOR         Y4, Y8, Y4
	VPMOVMSKB    Y4, BX
	TESTL        BX, BX
	JNZ          utf8_none
	VPBROADCASTB utf8_bytes<>+3(SB), Y13 // low nibble mask
	VBROADCASTI128 utf8_b1h<>(SB), Y10
	VBROADCASTI128 utf8_b1l<>(SB), Y11
	VBROADCASTI128 utf8_b2h<>(SB), Y12
	VPXOR Y5, Y5, Y5                 // largest byte so far
	VPXOR Y6, Y6, Y6                 // errors
	VPXOR Y7, Y7, Y7                 // previous block
	MOVQ  $32, CX                    // the first block, checked above
	JMP   utf8_block

utf8_loop:
	LEAQ 32(AX), CX
	CMPQ CX, DX
	JGT  utf8_done
	VMOVDQU (SI)(AX*1), Y0

	// Stop before a block with '"', '\\' or a control byte (b = min(b, 0x1f)).
	VPCMPEQB  Y0, Y1, Y4
	VPCMPEQB  Y0, Y2, Y8
	VPOR      Y4, Y8, Y4
	VPMINUB   Y3, Y0, Y8
	VPCMPEQB  Y0, Y8, Y8
	VPOR      Y4, Y8, Y4
	VPMOVMSKB Y4, BX
	TESTL     BX, BX
	JNZ       utf8_done

utf8_block:
	// prev1, prev2, prev3: the input shifted by 1, 2, 3 bytes, the
	// previous block's last bytes coming in.
	VPERM2I128 $0x21, Y0, Y7, Y4     // previous block's high lane, this one's low
	VPALIGNR   $15, Y4, Y0, Y8       // prev1

	// Special cases: b1h[prev1 >> 4] & b1l[prev1 & 15] & b2h[input >> 4].
	VPSRLW  $4, Y8, Y9
	VPAND   Y13, Y9, Y9
	VPSHUFB Y9, Y10, Y9
	VPAND   Y13, Y8, Y14
	VPSHUFB Y14, Y11, Y14
	VPAND   Y14, Y9, Y9
	VPSRLW  $4, Y0, Y14
	VPAND   Y13, Y14, Y14
	VPSHUFB Y14, Y12, Y14
	VPAND   Y14, Y9, Y9

	// Must be a continuation: 2 after a lead >= 0xE0, 3 after one >= 0xF0.
	VPALIGNR $14, Y4, Y0, Y14        // prev2
	VPALIGNR $13, Y4, Y0, Y15        // prev3
	VPSUBUSB utf8_c60<>(SB), Y14, Y14 // >= 0x80 iff prev2 >= 0xE0
	VPSUBUSB utf8_c70<>(SB), Y15, Y15 // >= 0x80 iff prev3 >= 0xF0
	VPOR     Y14, Y15, Y14
	VPAND    utf8_c80<>(SB), Y14, Y14
	VPXOR    Y14, Y9, Y9
	VPOR     Y9, Y6, Y6

	// Continuation bytes 0x80..0xBF are the int8 values not > -65.
	VPCMPGTB  utf8_cbf<>(SB), Y0, Y14
	VPMOVMSKB Y14, BX
	NOTL      BX
	POPCNTL   BX, BX
	ADDQ      BX, R8

	VPMAXUB Y0, Y5, Y5
	VMOVDQU Y0, Y7
	MOVQ    CX, AX
	JMP     utf8_loop

utf8_done:
	// The largest byte: the maximum across the 32 lanes.
	VEXTRACTI128 $1, Y5, X4
	VPMAXUB      X4, X5, X5
	VPSRLDQ      $8, X5, X4
	VPMAXUB      X4, X5, X5
	VPSRLDQ      $4, X5, X4
	VPMAXUB      X4, X5, X5
	VPSRLDQ      $2, X5, X4
	VPMAXUB      X4, X5, X5
	VPSRLDQ      $1, X5, X4
	VPMAXUB      X4, X5, X5
	VMOVD        X5, BX
	ANDQ         $0xff, BX
	VPTEST       Y6, Y6
	SETNE        bad+40(FP)
	VZEROUPPER
	MOVQ AX, k+16(FP)
	MOVQ R8, cont+24(FP)
	MOVQ BX, maxb+32(FP)
	RET

utf8_none:
	// The first block ends the text (or there is none): nothing scanned.
	VZEROUPPER
	MOVQ $0, k+16(FP)
	MOVQ $0, cont+24(FP)
	MOVQ $0, maxb+32(FP)
	MOVB $0, bad+40(FP)
	RET

// The bytes broadcast at the start: '"', '\\', 0x1f, the low nibble mask.
DATA utf8_bytes<>+0(SB)/4, $0x0f1f5c22
GLOBL utf8_bytes<>(SB), RODATA|NOPTR, $4

// The lookup tables of the UTF-8 check, indexed by a nibble. Error bits:
// 0 too short (a lead not followed by a continuation), 1 too long (a
// continuation after ASCII), 2 overlong 3-byte, 3 too large (> U+10FFFF),
// 4 surrogate, 5 overlong 2-byte, 6 overlong 4-byte or too large (the 0x8_
// second bytes), 7 two continuations (legal only after a 3- or 4-byte lead:
// cancelled by the must-be-continuation bit). Generated and checked
// against a reference decoder (TestScanTextPairs: every pair and high
// triple of bytes around the block boundaries).
DATA utf8_b1h<>+0(SB)/8, $0x0202020202020202
DATA utf8_b1h<>+8(SB)/8, $0x4915012180808080
GLOBL utf8_b1h<>(SB), RODATA|NOPTR, $16
DATA utf8_b1l<>+0(SB)/8, $0xcbcbcb8b8383a3e7
DATA utf8_b1l<>+8(SB)/8, $0xcbcbdbcbcbcbcbcb
GLOBL utf8_b1l<>(SB), RODATA|NOPTR, $16
DATA utf8_b2h<>+0(SB)/8, $0x0101010101010101
DATA utf8_b2h<>+8(SB)/8, $0x01010101babaaee6
GLOBL utf8_b2h<>(SB), RODATA|NOPTR, $16

DATA utf8_c60<>+0(SB)/8, $0x6060606060606060
DATA utf8_c60<>+8(SB)/8, $0x6060606060606060
DATA utf8_c60<>+16(SB)/8, $0x6060606060606060
DATA utf8_c60<>+24(SB)/8, $0x6060606060606060
GLOBL utf8_c60<>(SB), RODATA|NOPTR, $32
DATA utf8_c70<>+0(SB)/8, $0x7070707070707070
DATA utf8_c70<>+8(SB)/8, $0x7070707070707070
DATA utf8_c70<>+16(SB)/8, $0x7070707070707070
DATA utf8_c70<>+24(SB)/8, $0x7070707070707070
GLOBL utf8_c70<>(SB), RODATA|NOPTR, $32
DATA utf8_c80<>+0(SB)/8, $0x8080808080808080
DATA utf8_c80<>+8(SB)/8, $0x8080808080808080
DATA utf8_c80<>+16(SB)/8, $0x8080808080808080
DATA utf8_c80<>+24(SB)/8, $0x8080808080808080
GLOBL utf8_c80<>(SB), RODATA|NOPTR, $32
DATA utf8_cbf<>+0(SB)/8, $0xbfbfbfbfbfbfbfbf
DATA utf8_cbf<>+8(SB)/8, $0xbfbfbfbfbfbfbfbf
DATA utf8_cbf<>+16(SB)/8, $0xbfbfbfbfbfbfbfbf
DATA utf8_cbf<>+24(SB)/8, $0xbfbfbfbfbfbfbfbf
GLOBL utf8_cbf<>(SB), RODATA|NOPTR, $32

// func asciiBlocksSSE2(p *byte, n int) int
//
// The index of the first byte that is not plain ASCII string text ('"',
// '\\', < 0x20 or >= 0x80) within the whole 16-byte blocks of p[0:n), or
// the bytes those blocks cover when there is none. A signed compare
// 0x20 > b flags both the control bytes and the bytes >= 0x80 (negative as
// int8).
TEXT ·asciiBlocksSSE2(SB), NOSPLIT, $0-24
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), DX
	XORQ AX, AX
	MOVOU sse_quote<>(SB), X1
	MOVOU sse_bslash<>(SB), X2
	MOVOU sse_c20<>(SB), X3

sse_loop:
	LEAQ 16(AX), CX
	CMPQ CX, DX
	JGT  sse_done
	MOVOU   (SI)(AX*1), X0
	MOVO    X1, X4
	PCMPEQB X0, X4
	MOVO    X2, X5
	PCMPEQB X0, X5
	MOVO    X3, X6
	PCMPGTB X0, X6
	POR     X5, X4
	POR     X6, X4
	PMOVMSKB X4, BX
	TESTL   BX, BX
	JNZ     sse_found
	MOVQ    CX, AX
	JMP     sse_loop

sse_found:
	BSFL BX, BX
	ADDQ BX, AX

sse_done:
	MOVQ AX, ret+16(FP)
	RET

DATA sse_quote<>+0(SB)/8, $0x2222222222222222
DATA sse_quote<>+8(SB)/8, $0x2222222222222222
GLOBL sse_quote<>(SB), RODATA|NOPTR, $16
DATA sse_bslash<>+0(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA sse_bslash<>+8(SB)/8, $0x5c5c5c5c5c5c5c5c
GLOBL sse_bslash<>(SB), RODATA|NOPTR, $16
DATA sse_c20<>+0(SB)/8, $0x2020202020202020
DATA sse_c20<>+8(SB)/8, $0x2020202020202020
GLOBL sse_c20<>(SB), RODATA|NOPTR, $16
