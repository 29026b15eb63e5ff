package dev.tradeoff.accounting.pld;

/**
 * The two orders of a neighbouring pair under add/remove-one: REMOVE compares the output on the
 * larger dataset (P) with the output on the smaller one (Q), ADD the reverse. Symmetric mechanisms
 * have the same loss distribution in both.
 */
enum Direction {
  REMOVE,
  ADD
}
