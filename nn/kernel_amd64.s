//go:build !purego

#include "textflag.h"

// The constants of Act, each once: the code broadcasts them into the
// four lanes.
DATA actConst<>+0(SB)/8, $-3.0
DATA actConst<>+8(SB)/8, $3.0
DATA actConst<>+16(SB)/8, $27.0
DATA actConst<>+24(SB)/8, $9.0
GLOBL actConst<>(SB), RODATA|NOPTR, $32

// The constants of tanh, as its Go code rounds them.
DATA tanhConst<>+0(SB)/8, $0x4034000000000000  // 20
DATA tanhConst<>+8(SB)/8, $0x40671547652b82fe  // 128/ln2
DATA tanhConst<>+16(SB)/8, $0x4338000000000000 // 1.5·2^52
DATA tanhConst<>+24(SB)/8, $0x3f862e42fefa39ef // ln2/64
DATA tanhConst<>+32(SB)/8, $0x3f81111111111111 // 1/120
DATA tanhConst<>+40(SB)/8, $0x3fa5555555555555 // 1/24
DATA tanhConst<>+48(SB)/8, $0x3fc5555555555555 // 1/6
DATA tanhConst<>+56(SB)/8, $0x3fe0000000000000 // 1/2
DATA tanhConst<>+64(SB)/8, $0x3ff0000000000000 // 1
DATA tanhConst<>+72(SB)/8, $0x7fffffffffffffff // all but the sign
DATA tanhConst<>+80(SB)/8, $0x8000000000000000 // the sign
DATA tanhConst<>+88(SB)/8, $0
GLOBL tanhConst<>(SB), RODATA|NOPTR, $96

// UPDATEARGS loads the arguments updateAsm and updateValueAsm share: dst
// (DI) and its length in bytes (CX), src (SI), w (DX), at (R8) and its
// length (R9), a (R13).
#define UPDATEARGS \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ src_base+24(FP), SI; \
	MOVQ w_base+48(FP), DX; \
	MOVQ at_base+72(FP), R8; \
	MOVQ at_len+80(FP), R9; \
	MOVQ a_base+96(FP), R13; \
	SHLQ $3, CX

// GROUP sums the group of four units at byte offset BX into Y1: src[j:j+4]
// plus a[i]·w[at[i]+j:][:4] for each input i (R11, with R12 the address
// &w[at[i]] and Y2 a[i] in every lane), and goes on at done. The inputs
// label is the loop's, one per function that uses the macro.
#define GROUP(inputs, done) \
	VMOVUPD      (SI)(BX*1), Y1; \
	XORQ         R11, R11; \
inputs: \
	CMPQ         R11, R9; \
	JGE          done; \
	MOVLQSX      (R8)(R11*4), R12; \
	LEAQ         (DX)(R12*8), R12; \
	VBROADCASTSD (R13)(R11*8), Y2; \
	VMULPD       (R12)(BX*1), Y2, Y2; \
	VADDPD       Y2, Y1, Y1; \
	INCQ         R11; \
	JMP          inputs

// BLOCK sums the block of sixteen units at byte offset BX into Y1, Y3, Y6
// and Y7 (four groups), as GROUP sums each: one broadcast of a[i] serves
// the four, whose sums are independent, so that the processor adds them
// side by side where GROUP waits for each add to finish before the next.
// Each unit's terms are added in the same order as GROUP adds them.
#define BLOCK(inputs, done) \
	VMOVUPD      (SI)(BX*1), Y1; \
	VMOVUPD      32(SI)(BX*1), Y3; \
	VMOVUPD      64(SI)(BX*1), Y6; \
	VMOVUPD      96(SI)(BX*1), Y7; \
	XORQ         R11, R11; \
inputs: \
	CMPQ         R11, R9; \
	JGE          done; \
	MOVLQSX      (R8)(R11*4), R12; \
	LEAQ         (DX)(R12*8), R12; \
	ADDQ         BX, R12; \
	VBROADCASTSD (R13)(R11*8), Y2; \
	VMULPD       (R12), Y2, Y8; \
	VADDPD       Y8, Y1, Y1; \
	VMULPD       32(R12), Y2, Y9; \
	VADDPD       Y9, Y3, Y3; \
	VMULPD       64(R12), Y2, Y8; \
	VADDPD       Y8, Y6, Y6; \
	VMULPD       96(R12), Y2, Y9; \
	VADDPD       Y9, Y7, Y7; \
	INCQ         R11; \
	JMP          inputs

// func updateAsm(dst, src, w []float64, at []int32, a []float64)
//
// Per group of four units j (BX their byte offset): Y1 = src[j:j+4], plus
// a[i]·w[at[i]+j:][:4] for each i (R11), stored to dst[j:j+4]; BLOCK sums
// the groups sixteen units at a time, GROUP the last ones.
TEXT ·updateAsm(SB), NOSPLIT, $0-120
	UPDATEARGS
	XORQ BX, BX
	MOVQ CX, AX
	SUBQ $128, AX                    // the last block's offset

updateBlocks:
	CMPQ BX, AX
	JGT  updateGroups
	BLOCK(updateBlockInputs, updateBlockStore)

updateBlockStore:
	VMOVUPD Y1, (DI)(BX*1)
	VMOVUPD Y3, 32(DI)(BX*1)
	VMOVUPD Y6, 64(DI)(BX*1)
	VMOVUPD Y7, 96(DI)(BX*1)
	ADDQ    $128, BX
	JMP     updateBlocks

updateGroups:
	CMPQ BX, CX
	JGE  updateDone
	GROUP(updateInputs, updateStore)

updateStore:
	VMOVUPD Y1, (DI)(BX*1)
	ADDQ    $32, BX
	JMP     updateGroups

updateDone:
	VZEROUPPER
	RET

// ACT stores the group of four pre-activations p in reg to dst at byte
// offset BX+off, and adds W2[j]·Act(p) to the lanes' partial sums Y0
// (Y10 to Y13 Act's constants -3, 3, 27 and 9; Y4 and Y5 scratch):
// p clamped to [-3, 3], then p·(27 + p·p) / (27 + 9·p·p).
#define ACT(reg, off) \
	VMOVUPD reg, off(DI)(BX*1); \
	VMAXPD  Y10, reg, reg; \
	VMINPD  Y11, reg, reg; \
	VMULPD  reg, reg, Y4; \
	VADDPD  Y12, Y4, Y5; \
	VMULPD  reg, Y5, Y5; \
	VMULPD  Y13, Y4, Y4; \
	VADDPD  Y12, Y4, Y4; \
	VDIVPD  Y4, Y5, Y5; \
	VMULPD  off(R10)(BX*1), Y5, Y5; \
	VADDPD  Y5, Y0, Y0

// func updateValueAsm(dst, src, w []float64, at []int32, a, w2 []float64, b2 float64) float64
//
// updateAsm's blocks and groups, each group then through Act into the
// lanes' partial sums of W2[j]·Act(p) (Y0), added in the order hiddenGo
// adds them, then tanh(b2 + sum) as tanh computes it.
TEXT ·updateValueAsm(SB), NOSPLIT, $0-160
	UPDATEARGS
	MOVQ         w2_base+120(FP), R10
	LEAQ         actConst<>(SB), AX
	VBROADCASTSD 0(AX), Y10          // -3
	VBROADCASTSD 8(AX), Y11          // 3
	VBROADCASTSD 16(AX), Y12         // 27
	VBROADCASTSD 24(AX), Y13         // 9
	VXORPD       Y0, Y0, Y0
	XORQ         BX, BX
	MOVQ         CX, AX
	SUBQ         $128, AX            // the last block's offset

valueBlocks:
	CMPQ BX, AX
	JGT  valueGroups
	BLOCK(valueBlockInputs, valueBlockAct)

valueBlockAct:
	ACT(Y1, 0)
	ACT(Y3, 32)
	ACT(Y6, 64)
	ACT(Y7, 96)
	ADDQ $128, BX
	JMP  valueBlocks

valueGroups:
	CMPQ BX, CX
	JGE  valueSum
	GROUP(valueInputs, valueAct)

valueAct:
	ACT(Y1, 0)
	ADDQ    $32, BX
	JMP     valueGroups

valueSum:
	VEXTRACTF128 $1, Y0, X1          // lanes 2 and 3
	VADDPD       X1, X0, X0          // (lane 0 + lane 2, lane 1 + lane 3)
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VADDSD       b2+144(FP), X0, X0  // x = b2 + sum
	VZEROUPPER

	// tanh(x), its Go code step by step.
	LEAQ     tanhConst<>(SB), AX
	VANDPD   72(AX), X0, X8          // |x|
	UCOMISD  0(AX), X8
	JPS      tanhNaN
	JCC      tanhOne                 // |x| >= 20
	VMOVSD   8(AX), X1
	VFMADD213SD 16(AX), X0, X1       // kf = x·128/ln2 + 1.5·2^52
	MOVQ     X1, R11
	MOVQ     16(AX), R12
	SUBQ     R12, R11                // k
	VSUBSD   16(AX), X1, X1          // kf -= 1.5·2^52
	VADDSD   X0, X0, X3              // 2x
	VFNMADD231SD 24(AX), X1, X3      // r = 2x - kf·ln2/64
	MOVQ     R11, R12
	ANDQ     $63, R12
	LEAQ     ·exp2By64(SB), R13
	MOVQ     (R13)(R12*8), R12       // 2^(j/64)
	SARQ     $6, R11
	SHLQ     $52, R11
	ADDQ     R11, R12
	MOVQ     R12, X5                 // s
	VMULSD   X3, X3, X6              // r2
	VMOVSD   32(AX), X7
	VFMADD213SD 40(AX), X3, X7       // r/120 + 1/24
	VMOVSD   48(AX), X8
	VFMADD213SD 56(AX), X3, X8       // r/6 + 1/2
	VFMADD231SD X7, X6, X8           // b = r2·(r/120 + 1/24) + (r/6 + 1/2)
	VMULSD   X6, X5, X6              // s·r2
	VMOVAPD  X5, X9
	VFMADD231SD X3, X5, X9           // s·r + s
	VFMADD231SD X8, X6, X9           // e = s·r2·b + (s·r + s)
	VMOVSD   64(AX), X10
	VSUBSD   X10, X9, X11            // e - 1
	VADDSD   X10, X9, X12            // e + 1
	VDIVSD   X12, X11, X0
	MOVSD    X0, ret+152(FP)
	RET

tanhOne:
	VANDPD 80(AX), X0, X0            // ±1 with the sign of x
	VORPD  64(AX), X0, X0
	MOVSD  X0, ret+152(FP)
	RET

tanhNaN:
	MOVSD X0, ret+152(FP)
	RET

// F32ARGS loads the arguments addF32Asm and addF32Asm512 share: dst (DI)
// and its length in units (CX), src (SI), w (DX), at (R8) and its length
// (R9), a (R13); R10, the unit, starts at 0.
#define F32ARGS \
	MOVQ dst_base+0(FP), DI; \
	MOVQ dst_len+8(FP), CX; \
	MOVQ src_base+24(FP), SI; \
	MOVQ w_base+48(FP), DX; \
	MOVQ at_base+72(FP), R8; \
	MOVQ at_len+80(FP), R9; \
	MOVQ a_base+96(FP), R13; \
	XORQ R10, R10

// TERM32 finds input R11's column at unit R10 of w (R12 its address) and
// broadcasts a[R11] into breg.
#define TERM32(breg) \
	MOVLQSX      (R8)(R11*4), R12; \
	ADDQ         R10, R12; \
	LEAQ         (DX)(R12*4), R12; \
	VBROADCASTSS (R13)(R11*4), breg

// ZERO5 clears the five registers of a block's sums.
#define ZERO5(r1, r2, r3, r4, r5) \
	VXORPS r1, r1, r1; \
	VXORPS r2, r2, r2; \
	VXORPS r3, r3, r3; \
	VXORPS r4, r4, r4; \
	VXORPS r5, r5, r5

// FMA5 adds a[i] (breg) times the column at R12 to the five registers of
// a block's sums, each o1 to o4 bytes past the first (a register apart).
#define FMA5(breg, r1, r2, r3, r4, r5, o1, o2, o3, o4) \
	VFMADD231PS (R12), breg, r1; \
	VFMADD231PS o1(R12), breg, r2; \
	VFMADD231PS o2(R12), breg, r3; \
	VFMADD231PS o3(R12), breg, r4; \
	VFMADD231PS o4(R12), breg, r5

// STORE32 widens the eight float32 sums in reg (xreg its low half) to
// float64, adds src's units at byte offsets lo and hi (four each, past
// BX) and stores them to dst's.
#define STORE32(reg, xreg, lo, hi) \
	VCVTPS2PD    xreg, Y8; \
	VADDPD       lo(SI)(BX*1), Y8, Y8; \
	VMOVUPD      Y8, lo(DI)(BX*1); \
	VEXTRACTF128 $1, reg, X9; \
	VCVTPS2PD    X9, Y9; \
	VADDPD       hi(SI)(BX*1), Y9, Y9; \
	VMOVUPD      Y9, hi(DI)(BX*1)

// func addF32Asm(dst, src []float64, w []float32, at []int32, a []float32)
//
// Per unit j (R10; BX = 8j, its byte offset in dst and src): a float32 sum
// of a[i]·w[at[i]+j] over i (R11), one VFMADD231PS per term, added to
// src[j] in float64 and stored to dst[j]; forty units at a time (five
// registers, one broadcast of a[i] for the five), then eight, then four.
TEXT ·addF32Asm(SB), NOSPLIT, $0-120
	F32ARGS

f32Blocks:
	LEAQ   40(R10), AX
	CMPQ   AX, CX
	JGT    f32Eights
	ZERO5(Y1, Y3, Y6, Y7, Y12)
	XORQ   R11, R11

f32BlockInputs:
	CMPQ        R11, R9
	JGE         f32BlockStore
	TERM32(Y2)
	FMA5(Y2, Y1, Y3, Y6, Y7, Y12, 32, 64, 96, 128)
	INCQ        R11
	JMP         f32BlockInputs

f32BlockStore:
	MOVQ    R10, BX
	SHLQ    $3, BX
	STORE32(Y1, X1, 0, 32)
	STORE32(Y3, X3, 64, 96)
	STORE32(Y6, X6, 128, 160)
	STORE32(Y7, X7, 192, 224)
	STORE32(Y12, X12, 256, 288)
	ADDQ    $40, R10
	JMP     f32Blocks

f32Eights:
	LEAQ   8(R10), AX
	CMPQ   AX, CX
	JGT    f32Four
	VXORPS Y1, Y1, Y1
	XORQ   R11, R11

f32EightInputs:
	CMPQ        R11, R9
	JGE         f32EightStore
	TERM32(Y2)
	VFMADD231PS (R12), Y2, Y1
	INCQ        R11
	JMP         f32EightInputs

f32EightStore:
	MOVQ    R10, BX
	SHLQ    $3, BX
	STORE32(Y1, X1, 0, 32)
	ADDQ    $8, R10
	JMP     f32Eights

f32Four:
	CMPQ   R10, CX
	JGE    f32Done
	VXORPS X1, X1, X1
	XORQ   R11, R11

f32FourInputs:
	CMPQ        R11, R9
	JGE         f32FourStore
	TERM32(Y2)
	VFMADD231PS (R12), X2, X1
	INCQ        R11
	JMP         f32FourInputs

f32FourStore:
	MOVQ      R10, BX
	SHLQ      $3, BX
	VCVTPS2PD X1, Y8
	VADDPD    (SI)(BX*1), Y8, Y8
	VMOVUPD   Y8, (DI)(BX*1)
	ADDQ      $4, R10
	JMP       f32Four

f32Done:
	VZEROUPPER
	RET

// STORE512 widens the sixteen float32 sums in reg (yreg its low half) to
// float64, adds src's units at byte offsets lo and hi (eight each, past
// BX) and stores them to dst's.
#define STORE512(reg, yreg, lo, hi) \
	VCVTPS2PD     yreg, Z8; \
	VADDPD        lo(SI)(BX*1), Z8, Z8; \
	VMOVUPD       Z8, lo(DI)(BX*1); \
	VEXTRACTF32X8 $1, reg, Y9; \
	VCVTPS2PD     Y9, Z9; \
	VADDPD        hi(SI)(BX*1), Z9, Z9; \
	VMOVUPD       Z9, hi(DI)(BX*1)

// func addF32Asm512(dst, src []float64, w []float32, at []int32, a []float32)
//
// addF32Asm's sums eighty units at a time in five AVX-512 registers (one
// broadcast of a[i] for the five), over the first len(dst) rounded down
// to eighty; the caller sums the rest with addF32Asm.
TEXT ·addF32Asm512(SB), NOSPLIT, $0-120
	F32ARGS

z32Blocks:
	LEAQ   80(R10), AX
	CMPQ   AX, CX
	JGT    z32Done
	ZERO5(Z1, Z3, Z6, Z7, Z12)
	XORQ   R11, R11

z32Inputs:
	CMPQ         R11, R9
	JGE          z32Store
	TERM32(Z2)
	FMA5(Z2, Z1, Z3, Z6, Z7, Z12, 64, 128, 192, 256)
	INCQ         R11
	JMP          z32Inputs

z32Store:
	MOVQ R10, BX
	SHLQ $3, BX
	STORE512(Z1, Y1, 0, 64)
	STORE512(Z3, Y3, 128, 192)
	STORE512(Z6, Y6, 256, 320)
	STORE512(Z7, Y7, 384, 448)
	STORE512(Z12, Y12, 512, 576)
	ADDQ $80, R10
	JMP  z32Blocks

z32Done:
	VZEROUPPER
	RET

// INT5 adds (op VPADDD) or subtracts (VPSUBD) the column at R12 to or
// from the five registers of a block's sums, forty units.
#define INT5(op) \
	op (R12), Y0, Y0; \
	op 32(R12), Y1, Y1; \
	op 64(R12), Y2, Y2; \
	op 96(R12), Y3, Y3; \
	op 128(R12), Y4, Y4

// INT1 adds (op VPADDD) or subtracts (VPSUBD) the column at R12 to or
// from the four units' sums in X0.
#define INT1(op) op (R12), X0, X0

// COLUMNS applies step to the column of each offset (in units) of the
// n offsets at base, at byte offset BX: R12 its address, R11 the count;
// loop and done are its labels, one pair per use.
#define COLUMNS(base, n, step, loop, done) \
	XORQ    R11, R11; \
loop: \
	CMPQ    R11, n; \
	JGE     done; \
	MOVLQSX (base)(R11*4), R12; \
	LEAQ    (DX)(R12*4), R12; \
	ADDQ    BX, R12; \
	step; \
	INCQ    R11; \
	JMP     loop; \
done:

// func addInt32Asm(dst, src, w []int32, plus, minus []int32)
//
// Per unit j (BX = 4j, its byte offset): src[j] plus w[o+j] for each o of
// plus (R8, R9 of them), less w[o+j] for each o of minus (R13, R10 of
// them), stored to dst[j]; forty units at a time (five registers), then
// four.
TEXT ·addInt32Asm(SB), NOSPLIT, $0-120
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ w_base+48(FP), DX
	MOVQ plus_base+72(FP), R8
	MOVQ plus_len+80(FP), R9
	MOVQ minus_base+96(FP), R13
	MOVQ minus_len+104(FP), R10
	SHLQ $2, CX
	XORQ BX, BX
	MOVQ CX, AX
	SUBQ $160, AX // the last block's offset

intBlocks:
	CMPQ    BX, AX
	JGT     intGroups
	VMOVDQU (SI)(BX*1), Y0
	VMOVDQU 32(SI)(BX*1), Y1
	VMOVDQU 64(SI)(BX*1), Y2
	VMOVDQU 96(SI)(BX*1), Y3
	VMOVDQU 128(SI)(BX*1), Y4
	COLUMNS(R8, R9, INT5(VPADDD), intBlockPlus, intBlockPlusDone)
	COLUMNS(R13, R10, INT5(VPSUBD), intBlockMinus, intBlockMinusDone)
	VMOVDQU Y0, (DI)(BX*1)
	VMOVDQU Y1, 32(DI)(BX*1)
	VMOVDQU Y2, 64(DI)(BX*1)
	VMOVDQU Y3, 96(DI)(BX*1)
	VMOVDQU Y4, 128(DI)(BX*1)
	ADDQ    $160, BX
	JMP     intBlocks

intGroups:
	CMPQ    BX, CX
	JGE     intDone
	VMOVDQU (SI)(BX*1), X0
	COLUMNS(R8, R9, INT1(VPADDD), intGroupPlus, intGroupPlusDone)
	COLUMNS(R13, R10, INT1(VPSUBD), intGroupMinus, intGroupMinusDone)
	VMOVDQU X0, (DI)(BX*1)
	ADDQ    $16, BX
	JMP     intGroups

intDone:
	VZEROUPPER
	RET

// func int32ToF64Asm(dst []float64, acc []int32, b1 []float64, scale float64)
//
// Per four units j (BX): b1[j] + scale·float64(acc[j]), stored to dst[j].
TEXT ·int32ToF64Asm(SB), NOSPLIT, $0-80
	MOVQ         dst_base+0(FP), DI
	MOVQ         dst_len+8(FP), CX
	MOVQ         acc_base+24(FP), SI
	MOVQ         b1_base+48(FP), DX
	VBROADCASTSD scale+72(FP), Y1
	XORQ         BX, BX

toF64:
	CMPQ      BX, CX
	JGE       toF64Done
	VCVTDQ2PD (SI)(BX*4), Y0
	VMULPD    Y1, Y0, Y0
	VADDPD    (DX)(BX*8), Y0, Y0
	VMOVUPD   Y0, (DI)(BX*8)
	ADDQ      $4, BX
	JMP       toF64

toF64Done:
	VZEROUPPER
	RET

// The constants of act32.
DATA act32Const<>+0(SB)/4, $-3.0
DATA act32Const<>+4(SB)/4, $3.0
DATA act32Const<>+8(SB)/4, $27.0
DATA act32Const<>+12(SB)/4, $9.0
GLOBL act32Const<>(SB), RODATA|NOPTR, $16

// func hiddenF32Asm(acc, w2 []float64) float64
//
// Per four units j (BX): acc[j:j+4] rounded to float32 (X1), act32 of
// each in float32 lanes (X10 to X13 its constants -3, 3, 27 and 9; X4 and
// X5 scratch), widened to float64, times W2[j:j+4], added to the lanes'
// partial sums (Y0); then (sum 0 + sum 2) + (sum 1 + sum 3).
TEXT ·hiddenF32Asm(SB), NOSPLIT, $0-56
	MOVQ         acc_base+0(FP), SI
	MOVQ         acc_len+8(FP), CX
	MOVQ         w2_base+24(FP), DX
	VBROADCASTSS act32Const<>+0(SB), X10
	VBROADCASTSS act32Const<>+4(SB), X11
	VBROADCASTSS act32Const<>+8(SB), X12
	VBROADCASTSS act32Const<>+12(SB), X13
	VXORPD       Y0, Y0, Y0
	XORQ         BX, BX

act32Groups:
	CMPQ       BX, CX
	JGE        act32Done
	VCVTPD2PSY (SI)(BX*8), X1
	VMAXPS     X10, X1, X1
	VMINPS     X11, X1, X1
	VMULPS     X1, X1, X4
	VADDPS     X12, X4, X5
	VMULPS     X1, X5, X5
	VMULPS     X13, X4, X4
	VADDPS     X12, X4, X4
	VDIVPS     X4, X5, X5
	VCVTPS2PD  X5, Y5
	VMULPD     (DX)(BX*8), Y5, Y5
	VADDPD     Y5, Y0, Y0
	ADDQ       $4, BX
	JMP        act32Groups

act32Done:
	VEXTRACTF128 $1, Y0, X1
	VADDPD       X1, X0, X0
	VUNPCKHPD    X0, X0, X1
	VADDSD       X1, X0, X0
	VMOVSD       X0, ret+48(FP)
	VZEROUPPER
	RET
