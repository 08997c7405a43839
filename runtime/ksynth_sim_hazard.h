/*
 * ksynth_sim_hazard.h: the hazards sim finds in a cooperating block
 * (ksynth_sim_block.h), as it reports them to krun (C and C++ alike).
 */
#ifndef KSYNTH_SIM_HAZARD_H
#define KSYNTH_SIM_HAZARD_H

enum {
	KS_SIM_RACE_WW,     /* two threads write one element */
	KS_SIM_RACE_WR,     /* one writes it, then another reads it */
	KS_SIM_RACE_RW,     /* one reads it, then another writes it */
	KS_SIM_UNINIT,      /* a read of what no thread of the block wrote */
	KS_SIM_BOUNDS,      /* an index outside the array */
	KS_SIM_DIVERGE,     /* some threads wait at a barrier, others returned */
	KS_SIM_TWO_BARRIERS /* threads wait at two different barriers */
};

#endif
