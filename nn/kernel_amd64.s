//go:build !purego

#include "textflag.h"

// The constants of Act, each in four lanes.
DATA actConst<>+0(SB)/8, $-3.0
DATA actConst<>+8(SB)/8, $-3.0
DATA actConst<>+16(SB)/8, $-3.0
DATA actConst<>+24(SB)/8, $-3.0
DATA actConst<>+32(SB)/8, $3.0
DATA actConst<>+40(SB)/8, $3.0
DATA actConst<>+48(SB)/8, $3.0
DATA actConst<>+56(SB)/8, $3.0
DATA actConst<>+64(SB)/8, $27.0
DATA actConst<>+72(SB)/8, $27.0
DATA actConst<>+80(SB)/8, $27.0
DATA actConst<>+88(SB)/8, $27.0
DATA actConst<>+96(SB)/8, $9.0
DATA actConst<>+104(SB)/8, $9.0
DATA actConst<>+112(SB)/8, $9.0
DATA actConst<>+120(SB)/8, $9.0
GLOBL actConst<>(SB), RODATA|NOPTR, $128

// LOAD_ACT loads Act's constants into Y10 to Y13: -3, 3, 27 and 9.
#define LOAD_ACT \
	LEAQ    actConst<>(SB), AX \
	VMOVUPD 0(AX), Y10 \
	VMOVUPD 32(AX), Y11 \
	VMOVUPD 64(AX), Y12 \
	VMOVUPD 96(AX), Y13

// ACT_DOT adds W2[j:j+4]·Act(Y1) to Y0, W2[j] at (R10)(BX*1): p is Y1
// clamped to [-3, 3], p2 = p*p, Act = p*(27 + p2) / (27 + 9*p2), with
// Y4 and Y5 for scratch.
#define ACT_DOT \
	VMAXPD Y10, Y1, Y1 \
	VMINPD Y11, Y1, Y1 \
	VMULPD Y1, Y1, Y4 \
	VADDPD Y12, Y4, Y5 \
	VMULPD Y1, Y5, Y5 \
	VMULPD Y13, Y4, Y4 \
	VADDPD Y12, Y4, Y4 \
	VDIVPD Y4, Y5, Y5 \
	VMULPD (R10)(BX*1), Y5, Y5 \
	VADDPD Y5, Y0, Y0

// SUM_LANES leaves (lane 0 + lane 2) + (lane 1 + lane 3) of Y0 in X0.
#define SUM_LANES \
	VEXTRACTF128 $1, Y0, X1 \
	VADDPD       X1, X0, X0 \
	VUNPCKHPD    X0, X0, X1 \
	VADDSD       X1, X0, X0

// func updateAVX(dst, src, w []float64, at []int32, a []float64)
//
// Per group of four units j (BX their byte offset): Y1 = src[j:j+4], plus
// a[i]·w[at[i]+j:][:4] for each i (R11), stored to dst[j:j+4].
TEXT ·updateAVX(SB), NOSPLIT, $0-120
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ w_base+48(FP), DX
	MOVQ at_base+72(FP), R8
	MOVQ at_len+80(FP), R9
	MOVQ a_base+96(FP), R13
	SHLQ $3, CX
	XORQ BX, BX

updateGroups:
	CMPQ    BX, CX
	JGE     updateDone
	VMOVUPD (SI)(BX*1), Y1
	XORQ    R11, R11

updateInputs:
	CMPQ         R11, R9
	JGE          updateStore
	MOVLQSX      (R8)(R11*4), R12
	LEAQ         (DX)(R12*8), R12   // &w[at[i]]
	VBROADCASTSD (R13)(R11*8), Y2   // a[i] in every lane
	VMULPD       (R12)(BX*1), Y2, Y2
	VADDPD       Y2, Y1, Y1
	INCQ         R11
	JMP          updateInputs

updateStore:
	VMOVUPD Y1, (DI)(BX*1)
	ADDQ    $32, BX
	JMP     updateGroups

updateDone:
	VZEROUPPER
	RET

// func updateHiddenAVX(dst, src, w []float64, at []int32, a, w2 []float64) float64
//
// updateAVX's groups, each then through ACT_DOT.
TEXT ·updateHiddenAVX(SB), NOSPLIT, $0-152
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ w_base+48(FP), DX
	MOVQ at_base+72(FP), R8
	MOVQ at_len+80(FP), R9
	MOVQ a_base+96(FP), R13
	MOVQ w2_base+120(FP), R10
	SHLQ $3, CX
	LOAD_ACT
	VXORPD Y0, Y0, Y0
	XORQ   BX, BX

updateHiddenGroups:
	CMPQ    BX, CX
	JGE     updateHiddenSum
	VMOVUPD (SI)(BX*1), Y1
	XORQ    R11, R11

updateHiddenInputs:
	CMPQ         R11, R9
	JGE          updateHiddenStore
	MOVLQSX      (R8)(R11*4), R12
	LEAQ         (DX)(R12*8), R12
	VBROADCASTSD (R13)(R11*8), Y2
	VMULPD       (R12)(BX*1), Y2, Y2
	VADDPD       Y2, Y1, Y1
	INCQ         R11
	JMP          updateHiddenInputs

updateHiddenStore:
	VMOVUPD Y1, (DI)(BX*1)
	ACT_DOT
	ADDQ    $32, BX
	JMP     updateHiddenGroups

updateHiddenSum:
	SUM_LANES
	VZEROUPPER
	MOVSD X0, ret+144(FP)
	RET

// func hiddenAVX(acc, w2 []float64) float64
TEXT ·hiddenAVX(SB), NOSPLIT, $0-56
	MOVQ acc_base+0(FP), SI
	MOVQ acc_len+8(FP), CX
	MOVQ w2_base+24(FP), R10
	SHLQ $3, CX
	LOAD_ACT
	VXORPD Y0, Y0, Y0
	XORQ   BX, BX

hiddenGroups:
	CMPQ    BX, CX
	JGE     hiddenSum
	VMOVUPD (SI)(BX*1), Y1
	ACT_DOT
	ADDQ    $32, BX
	JMP     hiddenGroups

hiddenSum:
	SUM_LANES
	VZEROUPPER
	MOVSD X0, ret+48(FP)
	RET
