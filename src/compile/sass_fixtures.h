// SASS listings in the formats of cuobjdump -sass and nvdisasm -c (13.x), trimmed from
// real output of tests/kernels/sm90_wgmma_tma.cu, for the parser and census tests.
#pragma once

namespace ptxbench::compile::fixtures {

inline constexpr const char* kCuobjdump = R"SASS(
Fatbin elf code:
================
arch = sm_90a
code version = [1,8]
host = linux
compile_size = 64bit
identifier = kernel.cu

	code for sm_90a
	.target	sm_90a

		Function : _Z9gemm_tilePf
	.headerflags	@"EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                       /* 0x00000a00ff017b82 */
                                                                                /* 0x000e220000000800 */
        /*04f0*/               @P0 ELECT P2, URZ, PT ;                          /* 0x00000000003f082f */
                                                                                /* 0x000fe20003800000 */
        /*0500*/                   UTMALDG.2D [UR20], [UR6] ;                   /* 0x00000014060075b4 */
                                                                                /* 0x0001e20008011000 */
        /*07b0*/                   HGMMA.64x64x16.F32.BF16 R24, gdesc[UR16], R24 ;  /* 0x00e00000101879f0 */
                                                                                /* 0x000fe20008000818 */
        /*07c0*/                   HGMMA.64x64x16.F32.BF16 R24, gdesc[UR12], R24, gsb0 ;  /* 0x00e000000c1879f0 */
                                                                                /* 0x000fe20008000818 */
        /*07d0*/              @!PT HGMMA.64x64x16.F32.BF16 R24, gdesc[UR12], R24 ;  /* 0x00e000000c1879f0 */
                                                                                /* 0x000fe20008000818 */
        /*07e0*/                   NOP ;                                        /* 0x0000000000007918 */
                                                                                /* 0x000fc00000000000 */
        /*07f0*/              @!P0 EXIT ;                                       /* 0x000000000000894d */
                                                                                /* 0x000fea0003800000 */
        /*0800*/                   BRA 0x800;                                   /* 0xfffffffc00fc7947 */
                                                                                /* 0x000fc0000383ffff */
		..........

		Function : _Z4plainPf
	.headerflags	@"EF_CUDA_ACCELERATORS EF_CUDA_SM90 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM90)"
        /*0000*/                   LDC R1, c[0x0][0x28] ;                       /* 0x00000a00ff017b82 */
                                                                                /* 0x000e220000000800 */
        /*0010*/                   FFMA R2, R2, R3, R4 ;                        /* 0x0000000302027223 */
                                                                                /* 0x000fe20000000004 */
        /*0020*/                   EXIT ;                                       /* 0x000000000000794d */
                                                                                /* 0x000fea0003800000 */
		..........
)SASS";

inline constexpr const char* kNvdisasm = R"SASS(	.target	sm_90a

	.elftype	@"ET_EXEC"


//--------------------- .text._Z9gemm_tilePf     --------------------------
	.section	.text._Z9gemm_tilePf,"ax",@progbits
	.align	128
        .global         _Z9gemm_tilePf
        .type           _Z9gemm_tilePf,@function
        .size           _Z9gemm_tilePf,(.L_x_2 - _Z9gemm_tilePf)
        .other          _Z9gemm_tilePf,@"STO_CUDA_ENTRY STV_DEFAULT"
_Z9gemm_tilePf:
.text._Z9gemm_tilePf:
        /*0000*/                   LDC R1, c[0x0][0x28] ;
        /*00d0*/               @P1 BRA `(.L_x_1) ;
.L_x_1:
        /*0500*/                   UTMALDG.2D [UR20], [UR6] ;
        /*07b0*/                   HGMMA.64x64x16.F32.BF16 R24, gdesc[UR16], R24 ;
        /*07c0*/                   EXIT ;
.L_x_2:
	.section	.nv.shared._Z9gemm_tilePf,"aw",@nobits
	.align	16
)SASS";

}  // namespace ptxbench::compile::fixtures
