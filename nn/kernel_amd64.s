//go:build !purego

#include "textflag.h"

// The constants of Act, each in both lanes.
DATA actConst<>+0(SB)/8, $-3.0
DATA actConst<>+8(SB)/8, $-3.0
DATA actConst<>+16(SB)/8, $3.0
DATA actConst<>+24(SB)/8, $3.0
DATA actConst<>+32(SB)/8, $27.0
DATA actConst<>+40(SB)/8, $27.0
DATA actConst<>+48(SB)/8, $9.0
DATA actConst<>+56(SB)/8, $9.0
GLOBL actConst<>(SB), RODATA|NOPTR, $64

// func add(dst, src, col []float64)
TEXT ·add(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ col_base+48(FP), DX
	SHLQ $3, CX
	XORQ BX, BX

addLoop:
	CMPQ   BX, CX
	JGE    addDone
	MOVUPD (SI)(BX*1), X0
	MOVUPD (DX)(BX*1), X1
	ADDPD  X1, X0
	MOVUPD X0, (DI)(BX*1)
	ADDQ   $16, BX
	JMP    addLoop

addDone:
	RET

// func hidden(acc, cols, x, w2 []float64) float64
TEXT ·hidden(SB), NOSPLIT, $0-104
	MOVQ acc_base+0(FP), SI
	MOVQ acc_len+8(FP), CX
	MOVQ cols_base+24(FP), DI
	MOVQ x_base+48(FP), R8
	MOVQ x_len+56(FP), R9
	MOVQ w2_base+72(FP), R10
	SHLQ $3, CX                   // H in bytes: the stride of cols
	LEAQ actConst<>(SB), AX
	MOVUPD 0(AX), X10             // -3
	MOVUPD 16(AX), X11            // 3
	MOVUPD 32(AX), X12            // 27
	MOVUPD 48(AX), X13            // 9
	XORPD  X0, X0                 // the lanes' partial sums
	XORQ   BX, BX                 // the unit's offset in bytes

unit:
	CMPQ   BX, CX
	JGE    sum
	MOVUPD (SI)(BX*1), X1         // p = acc[j:j+2]
	LEAQ   (DI)(BX*1), R11        // &cols[s*H+j], s = 0
	MOVQ   R8, R12                // &x[s]
	MOVQ   R9, R13                // inputs left

input:
	TESTQ    R13, R13
	JZ       act
	MOVSD    (R12), X2
	UNPCKLPD X2, X2               // x[s] in both lanes
	MOVUPD   (R11), X3
	MULPD    X3, X2
	ADDPD    X2, X1               // p += x[s]*cols[s*H+j]
	ADDQ     CX, R11
	ADDQ     $8, R12
	DECQ     R13
	JMP      input

act:
	MAXPD  X10, X1                // p = min(max(p, -3), 3)
	MINPD  X11, X1
	MOVAPD X1, X4
	MULPD  X4, X4                 // p2 = p*p
	MOVAPD X4, X5
	ADDPD  X12, X5                // 27 + p2
	MULPD  X1, X5                 // p*(27 + p2)
	MULPD  X13, X4                // 9*p2
	ADDPD  X12, X4                // 27 + 9*p2
	DIVPD  X4, X5                 // Act(p)
	MOVUPD (R10)(BX*1), X6
	MULPD  X6, X5                 // W2[j]*Act(p)
	ADDPD  X5, X0
	ADDQ   $16, BX
	JMP    unit

sum:
	MOVAPD   X0, X1
	UNPCKHPD X1, X1               // lane 1 in the low lane
	ADDSD    X1, X0               // lane 0 + lane 1
	MOVSD    X0, ret+96(FP)
	RET
