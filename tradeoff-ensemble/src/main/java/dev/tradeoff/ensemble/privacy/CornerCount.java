package dev.tradeoff.ensemble.privacy;

/**
 * {@code count} teachers at the same corner of F_i: one entry of a corner multiset ([DaRRM24, Lemma
 * 5.1, Part II]: f depends on the teachers' corners only through how many sit at each).
 */
public record CornerCount(Corner corner, int count) {}
