package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;

/**
 * {@link AccountingMethod#OPTIMAL}: the exact optimal composition of k identical (ε, δ)-DP
 * mechanisms (Kairouz, Oh and Viswanath 2015, Theorem 3.3; {@link OptimalComposition}), the
 * smallest δ(ε) that holds for every sequence of k mechanisms with that guarantee.
 *
 * <p>It reads the same events as {@link BasicAccountant}; in addition it refuses sequences whose
 * leaves have different (ε, δ) (computing the optimal heterogeneous composition is #P-complete,
 * Murtagh and Vadhan 2016; use kairouz, pld or basic) and more than {@value
 * OptimalComposition#MAX_COUNT} mechanisms.
 */
public final class OptimalAccountant extends EventAccountant<GuaranteeSequence, PrivacyProfile> {

  /** A stateless accountant; every instance behaves the same. */
  public OptimalAccountant() {}

  @Override
  public AccountingMethod method() {
    return AccountingMethod.OPTIMAL;
  }

  @Override
  protected Analysis<GuaranteeSequence> analyse(DpEvent event, Neighbouring neighbouring) {
    return EventGuarantees.sequence(event, neighbouring).flatMap(sequence -> {
      if (!sequence.isHomogeneous()) {
        return Analysis.refused(
            "the events have different (epsilon, delta) guarantees and the optimal heterogeneous"
                + " composition is #P-complete (Murtagh and Vadhan 2016); use kairouz, pld or"
                + " basic");
      }
      if (sequence.length() > OptimalComposition.MAX_COUNT) {
        return Analysis.refused("the composition count must be <= "
            + OptimalComposition.MAX_COUNT + ", but was " + sequence.length());
      }
      return Analysis.of(sequence);
    });
  }

  /**
   * The optimal composition; its bracket ({@link OptimalComposition#epsilonBounds}) only where
   * every leaf's (ε, δ) is tight ({@link GuaranteeSequence#isTight}: stated guarantees, binary
   * randomized response). Otherwise it is an upper bound only: k Laplace mechanisms, say, are more
   * private than the worst k mechanisms with their ε, and the profile's lower ends are 0.
   */
  @Override
  protected PrivacyProfile profile(GuaranteeSequence sequence) {
    OptimalComposition optimal = OptimalComposition.of(sequence.first(), (int) sequence.length());
    return sequence.isTight() ? optimal : PrivacyProfile.upperEndsOf(optimal);
  }
}
