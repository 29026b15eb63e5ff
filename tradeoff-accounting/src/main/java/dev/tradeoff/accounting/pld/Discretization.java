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
   * A lower bound: every δ(ε) computed from it, alone or after composition, is at most the true
   * δ(ε). Each bin's outcomes are merged (a post-processing, exact at the grid points) and the
   * merged atoms are mixed pairwise onto the grid points between them in the proportion that puts
   * each mixture's loss exactly on its grid point — another post-processing — so the true pair
   * dominates the discrete one and dominance survives composition; what cannot be matched is
   * rounded down (a coupling with a smaller loss). This is the counterpart of connect-the-dots:
   * its error is second order in Δ, like the pessimistic one, where rounding every loss down would
   * lose Δ/2 per composed mechanism.
   */
  OPTIMISTIC
}
