package dev.tradeoff.accounting.guarantee;

/**
 * Which datasets count as neighbours. Results differ between the two relations wherever sampling is
 * involved (Poisson subsampling amplifies add/remove-one privacy, sampling without replacement
 * amplifies replace-one privacy) and for asymmetric privacy-loss distributions; accountants take the
 * relation explicitly and refuse combinations they cannot analyse.
 */
public enum Neighbouring {
  /** D′ is D with one record added or removed. */
  ADD_OR_REMOVE_ONE,
  /** D′ is D with one record replaced by another; |D| = |D′|. */
  REPLACE_ONE
}
