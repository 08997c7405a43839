/*
 * kemit-cpu: reads IR, verifies it and writes C11 for the CPU: per kernel
 * a function for one thread and an entry NAME_cpu_forward(int dim, ...)
 * that runs threads 0 .. dim-1 in order.  The emitter is emit/, emit.c
 * its driver.
 */
#include "emit/emit.h"

int main(int argc, char **argv) { return emit_main(argc, argv, "kemit-cpu", EMIT_CPU); }
