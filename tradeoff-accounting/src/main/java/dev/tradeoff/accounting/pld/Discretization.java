package dev.tradeoff.accounting.pld;

/**
 * Which side of the true privacy loss distribution a discretized one lies on.
 *
 * <p>Both keep the losses on the grid {iΔ}; they differ in where the probability between two grid
 * points goes and in what happens to truncated tails.
 */
public enum Discretization {
  /**
   * An upper bound: every δ(ε) computed from it, alone or after composition, is at least the true
   * δ(ε). Mass between two grid points is split between them preserving both its P- and Q-mass
   * ("connect the dots", Doroshenko, Ghazi, Kamath, Kumar and Manurangsi, PETS 2022): the true pair
   * is a post-processing (merge) of the discrete one, so the discrete pair dominates it for every
   * hockey-stick order, and dominating pairs compose (Zhu, Dong and Wang, AISTATS 2022). The upper
   * tail is moved to +∞ and the lower tail up to the lowest grid point (Meiser and Mohammadi, CCS
   * 2018; Koskela, Jälkö and Honkela, AISTATS 2020), both of which only increase δ.
   */
  PESSIMISTIC,
  /**
   * A lower bound: losses are rounded down to the grid and the lower tail is dropped, so the loss
   * is stochastically smaller than the true one and δ(ε) = E[(1 − e^{ε−L})₊] can only decrease;
   * composition preserves the order by coupling.
   */
  OPTIMISTIC
}
