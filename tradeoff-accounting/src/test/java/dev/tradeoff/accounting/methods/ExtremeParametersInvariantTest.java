package dev.tradeoff.accounting.methods;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.ExactReferences;
import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The safety invariant of every accounting method, over random extreme parameters (σ from 1e-8 to
 * 1e8, ε0 from 1e-8 to 1e17, discrete scales down to 1e-17, up to 10^4 compositions): a reported
 * ε(δ) is always sufficient, δ_true(ε_reported) ≤ δ, and a reported δ(ε) is never below the true
 * δ(ε). For PLD the lower ends must also lie below the truth. The true values are exact closed forms
 * evaluated here in log space: μ-GDP for Gaussians (Dong, Roth and Su 2022, Cor. 2.13) and the
 * binomial sum for k-fold binary randomized response, which is also the exact composition of pure
 * ε0-DP (Kairouz, Oh and Viswanath 2015) and of the discrete Laplace mechanism with ε0 = 1/t.
 * Tolerance: 1e-6 relative on the reference δ, 1e-12 relative on ε (the last bits of a double
 * near 1e16).
 */
class ExtremeParametersInvariantTest {

  private static final Neighbouring RELATION = Neighbouring.ADD_OR_REMOVE_ONE;
  private static final double TOLERANCE = 1e-6;

  /** An event and its exact δ(ε). */
  private record Case(DpEvent event, DoubleUnaryOperator exactDelta) {}

  @Test
  void everyMethodIsSafeOnRandomExtremeParameters() {
    SplittableRandom random = new SplittableRandom(20261124);
    Map<AccountingMethod, Integer> checked = new EnumMap<>(AccountingMethod.class);
    for (int trial = 0; trial < 24; trial++) {
      Case c = randomCase(random, trial % 6);
      double[] deltas = {Math.pow(10, -12 + 11 * random.nextDouble()), 1e-12};
      double epsilon = Math.pow(10, -3 + 8 * random.nextDouble());
      for (AccountingMethod method : AccountingMethod.values()) {
        Accountant accountant = Accountants.forMethod(method);
        if (!accountant.supports(c.event(), RELATION)) {
          continue;
        }
        PrivacyProfile profile = accountant.account(c.event(), RELATION);
        String what = method + " " + c.event();
        for (double delta : deltas) {
          assertSufficient(what, c, profile.epsilon(delta), delta);
        }
        double reported = profile.delta(epsilon);
        assertThat(reported).as("%s delta(%s)", what, epsilon).isBetween(0.0, 1.0);
        assertThat(reported).as("%s delta(%s)", what, epsilon)
            .isGreaterThanOrEqualTo(c.exactDelta().applyAsDouble(epsilon) * (1 - TOLERANCE));
        // Every method's lower ends bound the truth from below (0 for upper-bound-only methods).
        for (double delta : deltas) {
          double lower = profile.epsilonBounds(delta).lower();
          if (lower > 0 && Double.isFinite(lower)) {
            assertThat(c.exactDelta().applyAsDouble(lower * (1 - 1e-12)))
                .as("%s: the lower end %s of epsilon(%s) is above the truth", what, lower, delta)
                .isGreaterThanOrEqualTo(delta * (1 - TOLERANCE));
          }
        }
        assertThat(profile.deltaBounds(epsilon).lower())
            .as("%s: lower end of delta(%s)", what, epsilon)
            .isLessThanOrEqualTo(c.exactDelta().applyAsDouble(epsilon) * (1 + TOLERANCE) + 1e-300);
        checked.merge(method, 1, Integer::sum);
      }
    }
    assertThat(checked.keySet()).containsExactlyInAnyOrder(AccountingMethod.values());
  }

  private static void assertSufficient(String what, Case c, double epsilon, double delta) {
    assertThat(epsilon).as("%s epsilon(%s)", what, delta).isGreaterThanOrEqualTo(0.0);
    if (Double.isFinite(epsilon)) {
      // ε itself is a double: a relative 1e-12 allows for its last bits at ε near 1e16.
      assertThat(c.exactDelta().applyAsDouble(epsilon * (1 + 1e-12)))
          .as("%s: epsilon(%s) = %s is below the truth", what, delta, epsilon)
          .isLessThanOrEqualTo(delta * (1 + TOLERANCE));
    }
  }

  private static double logUniform(SplittableRandom random, double lowExponent, double highExponent) {
    return Math.pow(10, lowExponent + (highExponent - lowExponent) * random.nextDouble());
  }

  private static Case randomCase(SplittableRandom random, int kind) {
    int count = (int) Math.round(logUniform(random, 0, 4));
    switch (kind) {
      case 0 -> {
        double sigma = logUniform(random, -8, 8);
        double mu = Math.sqrt(count) / sigma;
        return new Case(new SelfComposedEvent(new GaussianEvent(sigma), count), e -> ExactReferences.gdpDelta(mu, e));
      }
      case 1 -> {
        double eps0 = logUniform(random, -8, 6);
        return new Case(
            new SelfComposedEvent(new GuaranteeEvent(new PureDp(eps0)), count),
            e -> ExactReferences.binaryRrDelta(eps0, count, e));
      }
      case 2 -> {
        double eps0 = logUniform(random, -8, 17);
        int small = 1 + random.nextInt(3);
        return new Case(
            new SelfComposedEvent(RandomizedResponseEvent.binary(eps0), small),
            e -> ExactReferences.binaryRrDelta(eps0, small, e));
      }
      case 3 -> {
        double scale = logUniform(random, -17, 3);
        return new Case(
            new SelfComposedEvent(new DiscreteLaplaceEvent(scale), count),
            e -> ExactReferences.binaryRrDelta(1 / scale, count, e));
      }
      case 4 -> {
        double sigma = logUniform(random, -8, 1);
        return new Case(new DiscreteGaussianEvent(sigma), e -> ExactReferences.discreteGaussianDelta(sigma, e));
      }
      default -> {
        double mu = logUniform(random, -4, 4);
        return new Case(new GuaranteeEvent(new GaussianDp(mu)), e -> ExactReferences.gdpDelta(mu, e));
      }
    }
  }
}
