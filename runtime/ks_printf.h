/*
 * ks_printf.h: ks_printf, which wp.printf and print call.
 */
#ifndef KS_PRINTF_H
#define KS_PRINTF_H

/* wp.printf and print write to the log, never to standard output (krun's
 * JSON): on the CPU and in sim that is stderr; the GPU's printf goes to
 * the process's standard output, which krun points at stderr around a
 * launch (runtime/run_cuda.c). */
#if KS_CUDA && !defined(KS_CUDA_SIM)
#ifndef __CUDACC_RTC__
#include <stdio.h> /* nvcc; NVRTC knows printf */
#endif
#define ks_printf printf
#else
#include <stdio.h>
#define ks_printf(...) fprintf(stderr, __VA_ARGS__)
#endif

#endif
