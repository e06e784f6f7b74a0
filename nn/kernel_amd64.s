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

// func addAVX(dst, src, col []float64)
TEXT ·addAVX(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ col_base+48(FP), DX
	SHLQ $3, CX
	XORQ BX, BX

addAVXLoop:
	CMPQ    BX, CX
	JGE     addAVXDone
	VMOVUPD (SI)(BX*1), Y0
	VADDPD  (DX)(BX*1), Y0, Y0
	VMOVUPD Y0, (DI)(BX*1)
	ADDQ    $32, BX
	JMP     addAVXLoop

addAVXDone:
	VZEROUPPER
	RET

// func addSSE2(dst, src, col []float64)
TEXT ·addSSE2(SB), NOSPLIT, $0-72
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ col_base+48(FP), DX
	SHLQ $3, CX
	XORQ BX, BX

addSSE2Loop:
	CMPQ   BX, CX
	JGE    addSSE2Done
	MOVUPD (SI)(BX*1), X0
	MOVUPD (DX)(BX*1), X1
	ADDPD  X1, X0
	MOVUPD X0, (DI)(BX*1)
	ADDQ   $16, BX
	JMP    addSSE2Loop

addSSE2Done:
	RET

// func addScaledAVX(dst, src, col []float64, a float64)
TEXT ·addScaledAVX(SB), NOSPLIT, $0-80
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         src_base+24(FP), SI
	MOVQ         col_base+48(FP), DX
	VBROADCASTSD a+72(FP), Y2
	SHLQ         $3, CX
	XORQ         BX, BX

addScaledAVXLoop:
	CMPQ    BX, CX
	JGE     addScaledAVXDone
	VMULPD  (DX)(BX*1), Y2, Y0
	VADDPD  (SI)(BX*1), Y0, Y0
	VMOVUPD Y0, (DI)(BX*1)
	ADDQ    $32, BX
	JMP     addScaledAVXLoop

addScaledAVXDone:
	VZEROUPPER
	RET

// func addScaledSSE2(dst, src, col []float64, a float64)
TEXT ·addScaledSSE2(SB), NOSPLIT, $0-80
	MOVQ     dst_base+0(FP), DI
	MOVQ     dst_len+8(FP), CX
	MOVQ     src_base+24(FP), SI
	MOVQ     col_base+48(FP), DX
	MOVSD    a+72(FP), X2
	UNPCKLPD X2, X2
	SHLQ     $3, CX
	XORQ     BX, BX

addScaledSSE2Loop:
	CMPQ   BX, CX
	JGE    addScaledSSE2Done
	MOVUPD (DX)(BX*1), X0
	MULPD  X2, X0
	MOVUPD (SI)(BX*1), X1
	ADDPD  X1, X0
	MOVUPD X0, (DI)(BX*1)
	ADDQ   $16, BX
	JMP    addScaledSSE2Loop

addScaledSSE2Done:
	RET

// func hiddenAVX(acc, cols, x, w2 []float64) float64
TEXT ·hiddenAVX(SB), NOSPLIT, $0-104
	MOVQ    acc_base+0(FP), SI
	MOVQ    acc_len+8(FP), CX
	MOVQ    cols_base+24(FP), DI
	MOVQ    x_base+48(FP), R8
	MOVQ    x_len+56(FP), R9
	MOVQ    w2_base+72(FP), R10
	SHLQ    $3, CX                   // H in bytes: the stride of cols
	LEAQ    actConst<>(SB), AX
	VMOVUPD 0(AX), Y10               // -3
	VMOVUPD 32(AX), Y11              // 3
	VMOVUPD 64(AX), Y12              // 27
	VMOVUPD 96(AX), Y13              // 9
	VXORPD  Y0, Y0, Y0               // the lanes' partial sums
	XORQ    BX, BX                   // the units' offset in bytes

hiddenAVXUnits:
	CMPQ    BX, CX
	JGE     hiddenAVXSum
	VMOVUPD (SI)(BX*1), Y1           // p = acc[j:j+4]
	LEAQ    (DI)(BX*1), R11          // &cols[s*H+j], s = 0
	MOVQ    R8, R12                  // &x[s]
	MOVQ    R9, R13                  // inputs left

hiddenAVXInputs:
	TESTQ        R13, R13
	JZ           hiddenAVXAct
	VBROADCASTSD (R12), Y2           // x[s] in every lane
	VMULPD       (R11), Y2, Y2
	VADDPD       Y2, Y1, Y1          // p += x[s]*cols[s*H+j]
	ADDQ         CX, R11
	ADDQ         $8, R12
	DECQ         R13
	JMP          hiddenAVXInputs

hiddenAVXAct:
	VMAXPD Y10, Y1, Y1               // p = min(max(p, -3), 3)
	VMINPD Y11, Y1, Y1
	VMULPD Y1, Y1, Y4                // p2 = p*p
	VADDPD Y12, Y4, Y5               // 27 + p2
	VMULPD Y1, Y5, Y5                // p*(27 + p2)
	VMULPD Y13, Y4, Y4               // 9*p2
	VADDPD Y12, Y4, Y4               // 27 + 9*p2
	VDIVPD Y4, Y5, Y5                // Act(p)
	VMULPD (R10)(BX*1), Y5, Y5       // W2[j]*Act(p)
	VADDPD Y5, Y0, Y0
	ADDQ   $32, BX
	JMP    hiddenAVXUnits

hiddenAVXSum:
	VEXTRACTF128 $1, Y0, X1          // lanes 2 and 3
	VADDPD       X1, X0, X0          // (lane 0 + lane 2, lane 1 + lane 3)
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VZEROUPPER
	MOVSD        X0, ret+96(FP)
	RET

// func hiddenSSE2(acc, cols, x, w2 []float64) float64
TEXT ·hiddenSSE2(SB), NOSPLIT, $0-104
	MOVQ   acc_base+0(FP), SI
	MOVQ   acc_len+8(FP), CX
	MOVQ   cols_base+24(FP), DI
	MOVQ   x_base+48(FP), R8
	MOVQ   x_len+56(FP), R9
	MOVQ   w2_base+72(FP), R10
	SHLQ   $3, CX                    // H in bytes: the stride of cols
	LEAQ   actConst<>(SB), AX
	MOVUPD 0(AX), X10                // -3
	MOVUPD 32(AX), X11               // 3
	MOVUPD 64(AX), X12               // 27
	MOVUPD 96(AX), X13               // 9
	XORPD  X0, X0                    // the partial sums of lanes 0 and 1
	XORPD  X8, X8                    // and of lanes 2 and 3
	XORQ   BX, BX                    // the units' offset in bytes

hiddenSSE2Units:
	CMPQ   BX, CX
	JGE    hiddenSSE2Sum
	MOVUPD (SI)(BX*1), X1            // p = acc[j:j+2]
	MOVUPD 16(SI)(BX*1), X7          // and acc[j+2:j+4]
	LEAQ   (DI)(BX*1), R11           // &cols[s*H+j], s = 0
	MOVQ   R8, R12                   // &x[s]
	MOVQ   R9, R13                   // inputs left

hiddenSSE2Inputs:
	TESTQ    R13, R13
	JZ       hiddenSSE2Act
	MOVSD    (R12), X2
	UNPCKLPD X2, X2                  // x[s] in both lanes
	MOVAPD   X2, X9
	MOVUPD   (R11), X3
	MULPD    X3, X2
	ADDPD    X2, X1                  // p += x[s]*cols[s*H+j]
	MOVUPD   16(R11), X3
	MULPD    X3, X9
	ADDPD    X9, X7
	ADDQ     CX, R11
	ADDQ     $8, R12
	DECQ     R13
	JMP      hiddenSSE2Inputs

hiddenSSE2Act:
	MAXPD  X10, X1                   // p = min(max(p, -3), 3)
	MINPD  X11, X1
	MOVAPD X1, X4
	MULPD  X4, X4                    // p2 = p*p
	MOVAPD X4, X5
	ADDPD  X12, X5                   // 27 + p2
	MULPD  X1, X5                    // p*(27 + p2)
	MULPD  X13, X4                   // 9*p2
	ADDPD  X12, X4                   // 27 + 9*p2
	DIVPD  X4, X5                    // Act(p)
	MOVUPD (R10)(BX*1), X6
	MULPD  X6, X5                    // W2[j]*Act(p)
	ADDPD  X5, X0
	MAXPD  X10, X7                   // the same for units j+2 and j+3
	MINPD  X11, X7
	MOVAPD X7, X4
	MULPD  X4, X4
	MOVAPD X4, X5
	ADDPD  X12, X5
	MULPD  X7, X5
	MULPD  X13, X4
	ADDPD  X12, X4
	DIVPD  X4, X5
	MOVUPD 16(R10)(BX*1), X6
	MULPD  X6, X5
	ADDPD  X5, X8
	ADDQ   $32, BX
	JMP    hiddenSSE2Units

hiddenSSE2Sum:
	ADDPD    X8, X0                  // (lane 0 + lane 2, lane 1 + lane 3)
	MOVAPD   X0, X1
	UNPCKHPD X1, X1
	ADDSD    X1, X0
	MOVSD    X0, ret+96(FP)
	RET
