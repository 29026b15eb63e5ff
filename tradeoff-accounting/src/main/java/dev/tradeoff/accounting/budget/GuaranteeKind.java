package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;

/**
 * The flavour of a budget and of every charge against it, and how charges compose.
 *
 * <ul>
 *   <li>{@link #PURE_DP}: ε adds up (basic composition; for a filter, Rogers et al. 2016 / the
 *       pure-DP filter of [ExPost25]).
 *   <li>{@link #APPROX_DP}: ε and δ add up separately (basic composition). A {@link PureDp} charge
 *       is accepted as (ε, 0).
 *   <li>{@link #RENYI_DP}: ε(α) adds up order by order on the budget's order grid ([ExPost25,
 *       Algorithm 4], run at every grid order at once). A charge is read at each budget order α
 *       through {@link RenyiDp#epsilonAt(double)}, a valid upper bound. A request is admitted only if
 *       it fits at <em>every</em> budget order with a finite limit; give a one-order budget for the
 *       paper's single-order filter.
 * </ul>
 */
public enum GuaranteeKind {
  PURE_DP,
  APPROX_DP,
  RENYI_DP;

  /** The kind of a budget guarantee; only {@link PureDp}, {@link ApproxDp}, {@link RenyiDp}. */
  public static GuaranteeKind of(PrivacyGuarantee guarantee) {
    Require.nonNull("guarantee", guarantee);
    if (guarantee instanceof PureDp) {
      return PURE_DP;
    }
    if (guarantee instanceof ApproxDp) {
      return APPROX_DP;
    }
    if (guarantee instanceof RenyiDp) {
      return RENYI_DP;
    }
    throw new IllegalArgumentException(
        "a ledger budget or charge must be PureDp, ApproxDp or RenyiDp, but was "
            + guarantee.getClass().getSimpleName());
  }
}
