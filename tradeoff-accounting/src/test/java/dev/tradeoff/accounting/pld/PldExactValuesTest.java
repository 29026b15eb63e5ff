package dev.tradeoff.accounting.pld;

import static dev.tradeoff.accounting.guarantee.Neighbouring.ADD_OR_REMOVE_ONE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.ExactReferences;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.DeltaBounds;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The PLD bracket [epsilonLower, epsilon] at the default settings against exact values, at δ down
 * to 1e-12 and for compositions up to 10^5: the exact value must lie inside and the bracket must be
 * narrow. References: μ-GDP for k Gaussians (μ = √k/σ) and the binomial sum of k-fold binary
 * randomized response for k-fold pure ε0-DP (Kairouz, Oh and Viswanath 2015), both evaluated in
 * {@link ExactReferences}.
 */
class PldExactValuesTest {

  private static final PldAccountant DEFAULT = new PldAccountant();

  private static void assertBrackets(
      DpEvent event, DoubleUnaryOperator exactDelta, double delta, double relativeGap) {
    assertBrackets(DEFAULT.account(event, ADD_OR_REMOVE_ONE), exactDelta, delta, relativeGap);
  }

  private static void assertBrackets(
      PldProfile profile, DoubleUnaryOperator exactDelta, double delta, double relativeGap) {
    EpsilonBounds bounds = profile.epsilonBounds(delta);
    double exact = ExactReferences.epsilon(exactDelta, delta);
    String what = "delta " + delta + ": " + bounds + ", exact " + exact;
    assertThat(bounds.lower()).as(what).isLessThanOrEqualTo(exact);
    assertThat(bounds.upper()).as(what).isGreaterThanOrEqualTo(exact);
    assertThat(bounds.gap()).as(what).isLessThanOrEqualTo(relativeGap * exact);
    // δ at the exact ε is bracketed too.
    DeltaBounds deltas = profile.deltaBounds(exact);
    double exactDelta0 = exactDelta.applyAsDouble(exact);
    assertThat(deltas.lower()).as(what).isLessThanOrEqualTo(exactDelta0);
    assertThat(deltas.upper()).as(what).isGreaterThanOrEqualTo(exactDelta0);
  }

  @Test
  void hundredGaussiansDownToDeltaOneInATrillion() {
    PldProfile profile =
        DEFAULT.account(new SelfComposedEvent(new GaussianEvent(1), 100), ADD_OR_REMOVE_ONE);
    for (double delta : new double[] {1e-3, 1e-6, 1e-9, 1e-12}) {
      assertBrackets(profile, e -> ExactReferences.gdpDelta(10, e), delta, 1e-4);
    }
  }

  @Test
  void twoThousandGaussiansAtDeltaOneInTenBillionAreFinite() {
    // The case: an absolute round-off floor used to make this +∞ (lower end 381). The
    // answer comes from the budget-coarsened grid (1.1e-6 wide), kept because it is far inside
    // PldProfile.FINER_GAP; the finest grid would take 16 times the points.
    DpEvent event = new SelfComposedEvent(new GaussianEvent(2), 2000);
    double mu = Math.sqrt(2000) / 2;
    assertBrackets(event, e -> ExactReferences.gdpDelta(mu, e), 1e-10, 1e-5);
  }

  @Test
  void aHundredThousandGaussiansAtDeltaOneInATrillion() {
    DpEvent event = new SelfComposedEvent(new GaussianEvent(20), 100_000);
    double mu = Math.sqrt(100_000) / 20;
    assertBrackets(event, e -> ExactReferences.gdpDelta(mu, e), 1e-12, 1e-4);
  }

  @Test
  void pureCompositionMatchesKairouzOhViswanath() {
    DpEvent eight = new SelfComposedEvent(new GuaranteeEvent(new PureDp(0.3)), 800);
    // The loss of k-fold ε0-DP lives on a lattice of step 2ε0, so δ(ε) is piecewise and the
    // optimistic end is looser there than for smooth losses.
    assertBrackets(eight, e -> ExactReferences.binaryRrDelta(0.3, 800, e), 1e-10, 2e-3);
    DpEvent many = new SelfComposedEvent(new GuaranteeEvent(new PureDp(0.01)), 100_000);
    assertBrackets(many, e -> ExactReferences.binaryRrDelta(0.01, 100_000, e), 1e-12, 2e-3);
  }

  @Test
  void dpSgdBracketIsWithinHalfAPercentAtTenThousandSteps() {
    for (double[] setting : new double[][] {{1.1, 0.004, 1e-6}, {0.8, 0.01, 1e-5}}) {
      DpEvent event = new SelfComposedEvent(
          new PoissonSampledEvent(setting[1], new GaussianEvent(setting[0])), 10_000);
      EpsilonBounds bounds = DEFAULT.epsilonBounds(event, ADD_OR_REMOVE_ONE, setting[2]);
      assertThat(bounds.gap()).as("%s", bounds).isLessThanOrEqualTo(0.005 * bounds.upper());
      assertThat(bounds.upper()).isFinite();
    }
  }

  @Test
  void aHundredThousandStepDpSgdCompositionRuns() {
    DpEvent event = new SelfComposedEvent(
        new PoissonSampledEvent(0.004, new GaussianEvent(1.1)), 100_000);
    EpsilonBounds bounds = DEFAULT.epsilonBounds(event, ADD_OR_REMOVE_ONE, 1e-6);
    assertThat(bounds.upper()).isFinite();
    assertThat(bounds.gap()).as("%s", bounds).isLessThanOrEqualTo(0.01 * bounds.upper());
  }
}
