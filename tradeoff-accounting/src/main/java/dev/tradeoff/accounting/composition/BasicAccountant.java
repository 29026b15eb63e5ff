package dev.tradeoff.accounting.composition;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.accountant.Analysis;
import dev.tradeoff.accounting.accountant.EventAccountant;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;

/**
 * {@link AccountingMethod#BASIC}: basic composition (Σε, Σδ) ({@link BasicComposition}) of any
 * event tree whose leaves have a single (ε, δ) guarantee: {@code GuaranteeEvent} of {@code PureDp}
 * or {@code ApproxDp}, Laplace and discrete Laplace (1/scale), randomized response (ε), under
 * self-composition and composition, and sampling without replacement of such a tree under
 * replace-one neighbouring (amplified by {@link WithoutReplacementAmplification}, [BBG18, Theorem 9]).
 * Gaussian mechanisms, Poisson subsampling, sampling without replacement under add/remove-one and
 * Rényi/zCDP/GDP/f-DP guarantees are refused (use rdp, zcdp, gdp or pld). Apart from sampling
 * without replacement the answer does not depend on the neighbouring relation: each leaf's
 * guarantee is stated for the relation in use.
 *
 * <p>The profile knows one statement: δ(ε) = Σδ for ε ≥ Σε, and the trivial δ = 1 below it;
 * ε(δ) = Σε for δ ≥ Σδ, +∞ otherwise.
 */
public final class BasicAccountant extends EventAccountant<GuaranteeSequence, PrivacyProfile> {

  /** A stateless accountant; every instance behaves the same. */
  public BasicAccountant() {}

  @Override
  public AccountingMethod method() {
    return AccountingMethod.BASIC;
  }

  @Override
  protected Analysis<GuaranteeSequence> analyse(DpEvent event, Neighbouring neighbouring) {
    return EventGuarantees.sequence(event, neighbouring);
  }

  @Override
  protected PrivacyProfile profile(GuaranteeSequence sequence) {
    return new SingleStatementProfile(BasicComposition.compose(sequence));
  }

  /** The profile of one (ε, δ) statement. */
  private record SingleStatementProfile(ApproxDp statement) implements PrivacyProfile {

    @Override
    public double delta(double epsilon) {
      Require.nonNegative("epsilon", epsilon);
      return epsilon >= statement.epsilon() ? statement.delta() : 1;
    }

    @Override
    public double epsilon(double delta) {
      Require.delta("delta", delta);
      return delta >= statement.delta() ? statement.epsilon() : Double.POSITIVE_INFINITY;
    }
  }
}
