/*
 * kemit-cu: reads IR, verifies it and writes CUDA C++: per kernel a
 * __device__ function for one thread and an entry
 * extern "C" __global__ NAME_cuda_forward(int dim, ...) with a grid-stride
 * loop over dim.  The emitter is emit/, emit.c its driver.
 */
#include "emit/emit.h"

int main(int argc, char **argv) { return emit_main(argc, argv, "kemit-cu", EMIT_CUDA); }
