package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;

/**
 * {@link AccountingMethod#KAIROUZ}: the closed-form general composition of Kairouz, Oh and
 * Viswanath (2015) ({@link KairouzComposition}): Theorem 3.4 [DaRRM24, Theorem 2.3] for k
 * identical (ε, δ) mechanisms and Theorem 3.5 for heterogeneous sequences. It reads the same events
 * as {@link BasicAccountant} and refuses the same ones.
 *
 * <p>The slack δ′ is either chosen optimally for every query ({@link #optimalSlack()}, the
 * default: ε(δ_total) spends the largest slack δ′ = 1 − (1 − δ_total)/Π(1 − δ_l) the target allows,
 * and δ(ε) the smallest slack that reaches ε) or fixed ({@link #withSlack(double)}, as in the
 * tables of [DaRRM24] and the CLI's {@code --delta-slack}: the profile then knows the statements
 * (ε̃(δ′), 1 − Π(1 − δ_l)(1 − δ′)) and (Σε, 1 − Π(1 − δ_l)) only).
 */
public final class KairouzAccountant extends EventAccountant<GuaranteeSequence, PrivacyProfile> {

  /** δ′ in (0, 1) when fixed; NaN when chosen per query. */
  private final double deltaSlack;

  private KairouzAccountant(double deltaSlack) {
    this.deltaSlack = deltaSlack;
  }

  /** The accountant that chooses the slack δ′ optimally for every query. */
  public static KairouzAccountant optimalSlack() {
    return new KairouzAccountant(Double.NaN);
  }

  /**
   * The accountant with one fixed slack.
   *
   * @param deltaSlack δ′ in (0, 1)
   */
  public static KairouzAccountant withSlack(double deltaSlack) {
    return new KairouzAccountant(Require.openUnit("deltaSlack", deltaSlack));
  }

  @Override
  public AccountingMethod method() {
    return AccountingMethod.KAIROUZ;
  }

  @Override
  protected Analysis<GuaranteeSequence> analyse(DpEvent event, Neighbouring neighbouring) {
    return EventGuarantees.sequence(event, neighbouring);
  }

  @Override
  protected PrivacyProfile profile(GuaranteeSequence sequence) {
    return Double.isNaN(deltaSlack)
        ? KairouzComposition.optimalSlackProfile(sequence)
        : KairouzComposition.fixedSlackProfile(sequence, deltaSlack);
  }

  @Override
  public String toString() {
    return Double.isNaN(deltaSlack)
        ? "KairouzAccountant[optimal slack]"
        : "KairouzAccountant[deltaSlack=" + deltaSlack + "]";
  }
}
