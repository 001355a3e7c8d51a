#include "textflag.h"

// The float kernel: appendFloatGo's fast path (float_layout.go) as one
// assembly routine, floatBody, with two entries: appendFloatKernel for one
// float, appendFloatRun for the Floats that follow each other in a tape.
//
// floatBody takes the normal doubles with a non-zero fraction field whose
// shortest decimal fastDigits decides, in every layout. The steps are
// fastDigits' (float_shortest.go), line for line; then the 16 or 17 digits
// of m: the first digit (0 for 16 digits) by scalar division, the other 16
// in one SSE2 register, where three multiply-shift rounds split both groups
// of eight at once (8 → 4+4 → 2+2 → 1+1) with the first digit of every pair
// in the lower half, so that the register is the digit string in memory
// order. A compare and a movemask count the trailing zero digits. The layout
// then takes stores at offsets computed from the point's position (no
// branch on the digit count, one on the layout).
//
// It is called with the bits in AX and the output in DI (maxFloatLen bytes
// there). It returns CX = 1 with DI at the end of what it wrote, or CX = 0
// for the values it leaves to appendFloatGo (zeros, subnormals, NaN, ±Inf,
// powers of two, fastDigits' undecided cases), having written at most the
// sign. It uses AX, BX, CX, DX, SI, DI, R8-R13 and X0-X2; R14 is the
// callers', and R15 is never used: the c-shared build links with -dynlink,
// where a global's address clobbers it.
//
// Registers inside: DI the output after the sign, R13 the decimal exponent
// k (value = m×10^k), R8 m then the significant digit count, BX 1 for 17
// digits, R9 the point's position in the digit string, AX the first digit.
TEXT floatBody<>(SB), NOSPLIT|NOFRAME, $0-0
	// bq = exponent field, t = fraction field; only 0 < bq < 0x7ff, t != 0.
	MOVQ AX, BX
	SHRQ $52, BX
	ANDL $0x7ff, BX
	LEAQ -1(BX), CX
	CMPQ CX, $0x7fe
	JAE  none
	MOVQ $0xfffffffffffff, R8
	ANDQ AX, R8
	JZ   none
	BTSQ $52, R8 // c

	// The sign is written always and kept or not by where the digits start.
	MOVB $0x2d, (DI)
	SHRQ $63, AX
	ADDQ AX, DI

	// 5-j from the table (on the way to the first product: a load is
	// shorter than the two multiplies that compute it); q = bq - 1075,
	// k = flog10pow2(q).
	LEAQ    ·floatShifts(SB), R10
	MOVBLZX (R10)(BX*1), CX
	SHLQ    CX, R8 // c << (5-j)
	MOVQ    $5, R9
	SUBQ    CX, R9 // j
	SUBQ    $1075, BX
	MOVQ    $661971961083, R13
	IMULQ   BX, R13
	SARQ    $41, R13

	// G = pow10Table[k+1-pow10KMin] (16 bytes an entry; pow10KMin = -324).
	LEAQ ·pow10Table(SB), R10
	MOVQ R13, R11
	SHLQ $4, R11
	MOVQ 5200(R10)(R11*1), SI  // gHi
	MOVQ 5208(R10)(R11*1), R10 // gLo

	// Y = (c << (5-j)) × G / 2^128 = 16 X/10.
	MOVQ R8, AX
	MULQ SI
	MOVQ DX, BX  // hi
	MOVQ AX, R11 // mid
	MOVQ R8, AX
	MULQ R10
	ADDQ DX, R11 // lo
	ADCQ $0, BX
	MOVQ BX, R8
	SHRQ $4, R8      // div10 = floor(X/10)
	SHRQ $4, BX, R11 // f = hi<<60 | lo>>4
	MOVQ R9, CX
	SHRQ CX, SI      // half = gHi >> j

	// The split of m into groups of digits starts from 10×div10, which
	// is ready well before m (m is 10×div10 plus 0 to 10): hi8 =
	// div10 / 10^7 and top = div10 / 10^15, by multiplication (div10 <
	// 2^53, so the errors, div10×(magic - 2^s/d)/2^s, stay below 1/d).
	MOVQ $0xd6bf94d5e57a42bd, AX // ceil(2^87 / 10^7)
	MULQ R8
	MOVQ DX, R10
	MOVQ $0x901d7cf73ab0acda, AX // ceil(2^113 / 10^15)
	MULQ R8
	MOVQ DX, R9
	MOVQ $10, AX
	MULQ R11         // DX = last digit, AX = fx

	// Undecidable: f - half + 4 < 8, f + half + 8 < 16, fx - 2^63 + 32 < 64.
	MOVQ R11, CX
	SUBQ SI, CX
	ADDQ $4, CX
	CMPQ CX, $8
	JB   none
	MOVQ R11, CX
	ADDQ SI, CX
	ADDQ $8, CX
	CMPQ CX, $16
	JB   none
	MOVQ $0x8000000000000020, CX
	ADDQ AX, CX
	CMPQ CX, $64
	JB   none

	// m = 10×div10 + 0 (below), 10 (above), or last + round(fx).
	XORL BX, BX
	MOVQ R11, CX
	ADDQ SI, CX
	SETCS BX     // above
	XORL CX, CX
	CMPQ R11, SI
	SETCS CX     // below
	SHRQ $63, AX
	ADDQ AX, DX  // rounded
	ORQ  BX, CX
	DECQ CX
	ANDQ CX, DX
	LEAQ (R8)(R8*4), R8
	ADDQ R8, R8
	ADDQ DX, R8
	LEAQ (BX)(BX*4), BX
	LEAQ (R8)(BX*2), R8 // m, 10^15 <= m < 10^17

	// lo8 = m - hi8×10^8, a8 = hi8 - top×10^8: the digits are top, then
	// a8 and lo8 as two groups of eight. lo8 reaches 10^8 only when m
	// carries into hi8 (floor(X/10) ends in 9999999 and m rounds up).
	SHRQ   $23, R10 // hi8
	SHRQ   $49, R9  // top
	IMUL3Q $100000000, R10, CX
	SUBQ   CX, R8 // lo8
	CMPQ   R8, $100000000
	JAE    carry
	MOVQ   R9, AX // top
	IMUL3Q $100000000, R9, CX
	MOVQ   R10, DX
	SUBQ   CX, DX // a8

digits:

	// X0 = a8 (low quadword), lo8 (high quadword). 8 digits → 4+4: the
	// first four in the lower doubleword.
	MOVQ       DX, X0
	MOVQ       R8, X1
	PUNPCKLQDQ X1, X0
	MOVO       X0, X1
	PMULULQ    fd_div10k<>(SB), X1
	PSRLQ      $40, X1
	PMULULQ    fd_neg10k<>(SB), X1
	PADDQ      X1, X0       // y + q×(2^32 - 10^4) = q<<32 | y mod 10^4
	PSHUFD     $0xb1, X0, X0 // q in the lower doubleword
	// 4 → 2+2: the first two in the lower word.
	MOVO    X0, X1
	PMULHUW fd_div100<>(SB), X1
	PSRLW   $3, X1          // y/100 = y×5243>>19
	MOVO    X1, X2
	PMULLW  fd_hundred<>(SB), X2
	PSUBW   X2, X0
	PSLLL   $16, X0
	POR     X1, X0
	// 2 → 1+1: (z<<8) - (10×256 - 1)×(z/10) = (z mod 10)<<8 | z/10.
	MOVO    X0, X1
	PMULHUW fd_div10<>(SB), X1
	PMULLW  fd_moddiv10<>(SB), X1
	PSLLW   $8, X0
	PSUBW   X1, X0

	// R8 = significant digits: 1 + the last non-zero digit's index among
	// the 16, plus 1 for a 17th digit in front (all 16 zero: just that one).
	PXOR     X2, X2
	MOVO     X0, X1
	PCMPGTB  X2, X1 // 0xff for a non-zero digit
	PMOVMSKB X1, CX
	LEAL     1(CX)(CX*1), CX
	BSRL     CX, R8
	POR      fd_zeros<>(SB), X0
	XORL     BX, BX
	TESTQ    AX, AX
	SETNE    BX   // 17 digits
	ADDQ     BX, R8
	ADDL     $0x30, AX
	LEAQ     16(BX)(R13*1), R9 // p = n + k: the point after p digits

	// Fixed notation, the point inside or after the digits: 1 <= p <= 16.
	LEAQ -1(R9), CX
	CMPQ CX, $16
	JAE  notfixed
	MOVB  AX, (DI)        // the 17th digit (overwritten by X0 for 16)
	MOVOU X0, (DI)(BX*1)
	CMPQ  R8, R9
	JGT   fraction
	// An integer: ".0" replaces the first of the zero digits after the
	// point (the digit string is at least p long).
	MOVW $0x302e, (DI)(R9*1)
	LEAQ 2(DI)(R9*1), DI
	MOVL $1, CX
	RET

fraction:
	// The digits from p on, which are those of X0 from p - BX on, again
	// one byte further: the two quadwords shifted by (p-BX) bytes with a
	// double shift (the count is taken mod 64; from 8 on the pair is the
	// high quadword twice, whose extra bytes fall after the end).
	MOVQ    X0, R10
	MOVHLPS X0, X1
	MOVQ    X1, R11
	MOVQ    R9, CX
	SUBQ    BX, CX
	CMPQ    CX, $8
	CMOVQCC R11, R10
	SHLQ    $3, CX
	SHRQ    CX, R11, R10
	SHRQ    CX, R11
	MOVQ    R10, 1(DI)(R9*1)
	MOVQ    R11, 9(DI)(R9*1)
	MOVB    $0x2e, (DI)(R9*1)
	LEAQ    1(DI)(R8*1), DI
	MOVL    $1, CX
	RET

notfixed:
	// "0." then -p zeros then the digits: -4 <= p <= 0.
	LEAQ 4(R9), CX
	CMPQ CX, $5
	JAE  exponent
	MOVQ  $0x3030303030302e30, CX // "0.000000"
	MOVQ  CX, (DI)
	MOVQ  $2, CX
	SUBQ  R9, CX
	ADDQ  CX, DI
	MOVB  AX, (DI)
	MOVOU X0, (DI)(BX*1)
	ADDQ  R8, DI
	MOVL  $1, CX
	RET

exponent:
	// d[.ddd]e±x: the digit string from o[1], then its first digit moved
	// in front of the point.
	MOVB    AX, 1(DI)
	MOVOU   X0, 1(DI)(BX*1)
	MOVQ    X0, R10
	TESTQ   BX, BX
	CMOVQNE AX, R10
	MOVB    R10, (DI)
	MOVB    $0x2e, 1(DI)
	LEAQ    1(R8), CX
	MOVL    $1, R10
	CMPQ    R8, $1
	CMOVQEQ R10, CX // a single digit: no point
	ADDQ    CX, DI
	// x = p - 1, as "e+x" or "e-x" with 1 to 3 digits.
	DECQ    R9
	MOVL    $0x2b65, CX // "e+"
	MOVL    $0x2d65, R10 // "e-"
	MOVQ    R9, R11
	NEGQ    R11
	CMOVQGT R10, CX
	CMOVQGT R11, R9
	MOVW    CX, (DI)
	ADDQ    $2, DI
	CMPQ    R9, $10
	JB      onedigit
	CMPQ    R9, $100
	JB      twodigits
	IMUL3Q  $41, R9, CX
	SHRQ    $12, CX // x/100 for x < 1000... exact below 400
	IMUL3Q  $100, CX, R10
	SUBQ    R10, R9
	ADDL    $0x30, CX
	MOVB    CX, (DI)
	INCQ    DI

twodigits:
	IMUL3Q $103, R9, CX
	SHRQ   $10, CX // x/10 for x < 100
	IMUL3Q $10, CX, R10
	SUBQ   R10, R9
	ADDL   $0x30, CX
	MOVB   CX, (DI)
	INCQ   DI

onedigit:
	ADDL $0x30, R9
	MOVB R9, (DI)
	INCQ DI
	MOVL $1, CX
	RET

carry:
	// hi8 + 1 may carry into top: top = hi8 / 10^8 (hi8 < 10^9, 32-bit
	// multiplication), a8 = hi8 - top×10^8.
	SUBQ   $100000000, R8
	INCQ   R10
	MOVL   R10, AX
	MOVL   $0xabcc7712, CX // ceil(2^58 / 10^8)
	IMULQ  CX, AX
	SHRQ   $58, AX
	IMUL3Q $100000000, AX, CX
	MOVQ   R10, DX
	SUBQ   CX, DX
	JMP    digits

none:
	XORL CX, CX
	RET


// func appendFloatKernel(dst *byte, u uint64) int
//
// One float at dst: returns the length. What floatBody does not take (and
// everything when useFloatSSE2 is off) goes to appendFloatTo with a jump:
// the arguments and the result are where that function's ABI0 wrapper
// expects them, and NOFRAME keeps the assembler from giving this function
// a frame (for the call) that the jump would leave behind. (When
// floatKernelProbe is set, a test's switch, it returns 0 instead.)
TEXT ·appendFloatKernel(SB), NOSPLIT|NOFRAME, $0-24
	CMPB  ·useFloatSSE2(SB), $0
	JEQ   fallback
	MOVQ  dst+0(FP), DI
	MOVQ  u+8(FP), AX
	CALL  floatBody<>(SB)
	TESTQ CX, CX
	JZ    fallback
	SUBQ  dst+0(FP), DI
	MOVQ  DI, ret+16(FP)
	RET

fallback:
	CMPB ·floatKernelProbe(SB), $0
	JNE  probe
	JMP  ·appendFloatTo(SB)

probe:
	MOVQ $0, ret+16(FP)
	RET

// func appendFloatRun(dst *byte, room int, words *uint64, i, end int) (written, next int)
//
// The Floats of words from i on, while they follow each other before end,
// comma-separated at dst, which has room bytes (at least maxFloatLen): the
// Float at i without a comma, each later one after a comma if there is
// room for both (1 + maxFloatLen). It stops before a value that is not a
// Float, at end, when room runs out, and before a Float floatBody does not
// take (and its comma); the caller goes on from next. R14 walks the words,
// the argument slots hold the rest (end becomes its address). R14 is g only
// in ABIInternal: this is an ABI0 function, after whose call the compiler
// reloads g from TLS (and zeroes X15), and no signal handler reads R14; so
// it must stay ABI0, and must never jump or call into Go code with R14
// changed (appendFloatKernel's jump to appendFloatTo keeps R14). Nor can the
// runtime preempt it (assembly is never an asynchronous safe point), which
// is why floatRun bounds the Floats of a call (floatRunChunk).
TEXT ·appendFloatRun(SB), NOSPLIT, $0-56
	MOVQ dst+0(FP), DI
	MOVQ DI, written+40(FP) // where the output stands before each Float
	MOVQ words+16(FP), R14
	MOVQ i+24(FP), CX
	LEAQ (R14)(CX*8), R14
	MOVQ end+32(FP), CX
	LEAQ (R14)(CX*8), CX
	MOVQ i+24(FP), DX
	SHLQ $3, DX
	SUBQ DX, CX
	MOVQ CX, end+32(FP) // &words[end]
	CMPB ·useFloatSSE2(SB), $0
	JEQ  stop
	JMP  float

next:
	// Another Float, and room for a comma and it?
	CMPQ  R14, end+32(FP)
	JAE   stop
	MOVQ  (R14), AX
	SHRQ  $56, AX // backend.KindShift
	CMPQ  AX, $6  // backend.KindFloat
	JNE   stop
	MOVQ  dst+0(FP), CX
	ADDQ  room+8(FP), CX
	SUBQ  DI, CX
	CMPQ  CX, $42 // 1 + maxFloatLen
	JLT   stop
	MOVQ  DI, written+40(FP)
	MOVB  $0x2c, (DI)
	INCQ  DI

float:
	MOVQ  8(R14), AX
	CALL  floatBody<>(SB)
	TESTQ CX, CX
	JZ    undecided
	MOVQ  DI, written+40(FP)
	ADDQ  $16, R14 // backend.NumberWords
	JMP   next

undecided:
	// Back to before this Float's comma (or its sign).
	MOVQ written+40(FP), DI

stop:
	SUBQ dst+0(FP), DI
	MOVQ DI, written+40(FP)
	SUBQ words+16(FP), R14
	SHRQ $3, R14
	MOVQ R14, next+48(FP)
	RET

// Multipliers, one per lane.
DATA fd_div10k<>+0(SB)/8, $109951163 // ceil(2^40 / 10^4)
DATA fd_div10k<>+8(SB)/8, $109951163
GLOBL fd_div10k<>(SB), RODATA|NOPTR, $16
DATA fd_neg10k<>+0(SB)/8, $0xffffd8f0 // 2^32 - 10^4
DATA fd_neg10k<>+8(SB)/8, $0xffffd8f0
GLOBL fd_neg10k<>(SB), RODATA|NOPTR, $16
DATA fd_div100<>+0(SB)/8, $0x147b147b147b147b // 5243 = ceil(2^19 / 100)
DATA fd_div100<>+8(SB)/8, $0x147b147b147b147b
GLOBL fd_div100<>(SB), RODATA|NOPTR, $16
DATA fd_hundred<>+0(SB)/8, $0x0064006400640064
DATA fd_hundred<>+8(SB)/8, $0x0064006400640064
GLOBL fd_hundred<>(SB), RODATA|NOPTR, $16
DATA fd_div10<>+0(SB)/8, $0x199a199a199a199a // 6554 = ceil(2^16 / 10)
DATA fd_div10<>+8(SB)/8, $0x199a199a199a199a
GLOBL fd_div10<>(SB), RODATA|NOPTR, $16
DATA fd_moddiv10<>+0(SB)/8, $0x09ff09ff09ff09ff // 10×256 - 1
DATA fd_moddiv10<>+8(SB)/8, $0x09ff09ff09ff09ff
GLOBL fd_moddiv10<>(SB), RODATA|NOPTR, $16
DATA fd_zeros<>+0(SB)/8, $0x3030303030303030
DATA fd_zeros<>+8(SB)/8, $0x3030303030303030
GLOBL fd_zeros<>(SB), RODATA|NOPTR, $16
