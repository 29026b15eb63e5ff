package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.accountant.Accountant;
import dev.tradeoff.accounting.accountant.UnsupportedEventException;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.math.BigDecimal;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * [BBG18, Theorem 9] and the (ε, δ) accountants on sampling without replacement. References for
 * log(1 + γ(e^ε − 1)) by mpmath at 30 digits, with γ the exact value of the double.
 */
class WithoutReplacementAmplificationTest {

  private static final Neighbouring REPLACE = Neighbouring.REPLACE_ONE;
  private static final Neighbouring ADD_REMOVE = Neighbouring.ADD_OR_REMOVE_ONE;

  private final List<Accountant> accountants =
      List.of(new BasicAccountant(), KairouzAccountant.optimalSlack(), new OptimalAccountant());

  @Test
  void amplifiedEpsilonMatchesHighPrecisionValuesRoundedUp() {
    double[][] cases = {
      {0.1, 1, 0.1585650787404291191407},
      {0.01, 0.5, 0.006466261304635256706663},
      {0.5, 3, 2.355440171013796749342},
      {1e-3, 10, 3.136600811895779905364},
      {0.3, 1e-6, 3.000001050000139753199e-7},
      {0.01, 800, 795.394829814011908631964},
    };
    for (double[] c : cases) {
      assertThat(WithoutReplacementAmplification.amplifiedEpsilon(c[1], c[0]))
          .as("gamma=%s eps=%s", c[0], c[1])
          .isGreaterThanOrEqualTo(c[2])
          .isLessThanOrEqualTo(c[2] * (1 + 1e-14));
    }
    assertThat(WithoutReplacementAmplification.amplifiedEpsilon(0, 0.5)).isZero();
    assertThat(WithoutReplacementAmplification.amplifiedEpsilon(Double.POSITIVE_INFINITY, 0.5))
        .isInfinite();
  }

  @Test
  void deltaIsScaledByTheSamplingRatioAndTheRatioIsRoundedUp() {
    ApproxDp amplified = WithoutReplacementAmplification.amplify(new ApproxDp(3, 3e-5), 3, 1);
    assertThat(amplified.epsilon())
        .isGreaterThanOrEqualTo(1.996310667752851199917)
        .isLessThan(1.996310667752851199917 * (1 + 1e-14));
    assertThat(amplified.delta()).isGreaterThanOrEqualTo(1e-5).isLessThan(1e-5 * (1 + 1e-14));
    SplittableRandom rng = new SplittableRandom(9);
    for (int i = 0; i < 500; i++) {
      int n = rng.nextInt(1, Integer.MAX_VALUE);
      int m = rng.nextInt(1, n + 1) ;
      double ratio = WithoutReplacementAmplification.samplingRatio(n, m);
      // exact check: ratio · n ≥ m in BigDecimal arithmetic
      assertThat(new BigDecimal(ratio).multiply(BigDecimal.valueOf(n)))
          .isGreaterThanOrEqualTo(BigDecimal.valueOf(m));
      assertThat(ratio).isLessThanOrEqualTo(Math.nextUp((double) m / n));
    }
    assertThat(WithoutReplacementAmplification.samplingRatio(7, 7)).isEqualTo(1.0);
  }

  @Test
  void fullSamplingKeepsTheGuaranteeAndAmplificationIsMonotoneAndNeverWorse() {
    SplittableRandom rng = new SplittableRandom(18);
    for (int i = 0; i < 1000; i++) {
      double eps = 20 * rng.nextDouble();
      double delta = 0.1 * rng.nextDouble();
      double g1 = Math.max(Double.MIN_NORMAL, rng.nextDouble());
      double g2 = g1 + (1 - g1) * rng.nextDouble();
      ApproxDp inner = new ApproxDp(eps, delta);
      ApproxDp small = WithoutReplacementAmplification.amplify(inner, g1);
      ApproxDp large = WithoutReplacementAmplification.amplify(inner, g2);
      assertThat(small.epsilon()).isLessThanOrEqualTo(large.epsilon());
      assertThat(small.delta()).isLessThanOrEqualTo(large.delta());
      ApproxDp full = WithoutReplacementAmplification.amplify(inner, 1);
      assertThat(large.epsilon()).isLessThanOrEqualTo(full.epsilon());
      assertThat(large.delta()).isLessThanOrEqualTo(full.delta());
      assertThat(full.epsilon()).isGreaterThanOrEqualTo(eps).isLessThanOrEqualTo(eps * (1 + 1e-14));
      assertThat(full.delta()).isGreaterThanOrEqualTo(delta).isLessThanOrEqualTo(delta * (1 + 1e-14));
      // monotone in epsilon too
      double eps2 = eps + rng.nextDouble();
      assertThat(WithoutReplacementAmplification.amplifiedEpsilon(eps, g1))
          .isLessThanOrEqualTo(WithoutReplacementAmplification.amplifiedEpsilon(eps2, g1));
    }
  }

  @Test
  void accountantsAcceptSamplingWithoutReplacementUnderReplaceOne() {
    DpEvent one = new SampledWithoutReplacementEvent(100, 10, new LaplaceEvent(1));
    double amplified = WithoutReplacementAmplification.amplifiedEpsilon(1, 0.1);
    for (Accountant accountant : accountants) {
      assertThat(accountant.supports(one, REPLACE)).as("%s", accountant.method()).isTrue();
      PrivacyProfile profile = accountant.account(one, REPLACE);
      assertThat(profile.epsilon(0)).isGreaterThanOrEqualTo(amplified)
          .isLessThan(amplified * (1 + 1e-13));
    }
    // 50 rounds: basic gives 50 × amplified, optimal never more
    DpEvent rounds = new SelfComposedEvent(one, 50);
    double basic = new BasicAccountant().account(rounds, REPLACE).epsilon(0);
    assertThat(basic).isGreaterThanOrEqualTo(50 * amplified).isLessThan(50 * amplified * (1 + 1e-13));
    double optimal = new OptimalAccountant().account(rounds, REPLACE).epsilon(1e-6);
    double kairouz = KairouzAccountant.optimalSlack().account(rounds, REPLACE).epsilon(1e-6);
    assertThat(optimal).isLessThanOrEqualTo(kairouz);
    assertThat(kairouz).isLessThanOrEqualTo(basic);
    assertThat(optimal).isLessThan(50 * 1.0); // amplification helps against no sampling
  }

  @Test
  void innerSequencesAreComposedBasicallyBeforeAmplification() {
    DpEvent inner =
        ComposedEvent.of(
            new SelfComposedEvent(new LaplaceEvent(2), 3),
            new GuaranteeEvent(new ApproxDp(0.5, 1e-6)),
            RandomizedResponseEvent.binary(0.25));
    DpEvent sampled = new SampledWithoutReplacementEvent(1000, 50, inner);
    PrivacyProfile profile = new BasicAccountant().account(sampled, REPLACE);
    double innerEpsilon = 1.5 + 0.5 + 0.25;
    double expected = Math.log1p(0.05 * Math.expm1(innerEpsilon));
    // the inner delta 1e-6 is rounded up by the basic composition, then scaled by 0.05
    assertThat(profile.epsilon(5e-8 * (1 + 1e-13))).isGreaterThanOrEqualTo(expected)
        .isLessThan(expected * (1 + 1e-13));
    assertThat(profile.delta(expected * (1 + 1e-13))).isGreaterThanOrEqualTo(5e-8)
        .isLessThan(5e-8 * (1 + 1e-13));
    // nested sampling amplifies twice
    DpEvent nested =
        new SampledWithoutReplacementEvent(
            10, 5, new SampledWithoutReplacementEvent(10, 5, new GuaranteeEvent(new PureDp(2))));
    double once = Math.log1p(0.5 * Math.expm1(2));
    double twice = Math.log1p(0.5 * Math.expm1(once));
    assertThat(new BasicAccountant().account(nested, REPLACE).epsilon(0))
        .isGreaterThanOrEqualTo(twice)
        .isLessThan(twice * (1 + 1e-13));
  }

  @Test
  void refusesAddRemoveUnreadableInnerEventsAndUnknownRelation() {
    DpEvent laplace = new SampledWithoutReplacementEvent(100, 10, new LaplaceEvent(1));
    DpEvent gaussian = new SampledWithoutReplacementEvent(100, 10, new GaussianEvent(1));
    for (Accountant accountant : accountants) {
      assertThat(accountant.whyUnsupported(laplace, ADD_REMOVE))
          .get()
          .asString()
          .contains("replace-one")
          .contains("ADD_OR_REMOVE_ONE");
      assertThatThrownBy(() -> accountant.account(laplace, ADD_REMOVE))
          .isInstanceOf(UnsupportedEventException.class);
      assertThat(accountant.whyUnsupported(gaussian, REPLACE))
          .get()
          .asString()
          .contains("Gaussian");
    }
    assertThatThrownBy(() -> KairouzComposition.compose(laplace, 1e-5))
        .isInstanceOf(UnsupportedEventException.class)
        .hasMessageContaining("not given");
  }

  @Test
  void rejectsBadInput() {
    ApproxDp g = new ApproxDp(1, 1e-6);
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(null, 0.5))
        .hasMessageContaining("guarantee");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(g, 0))
        .hasMessageContaining("gamma");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(g, 1.01))
        .hasMessageContaining("gamma");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(g, Double.NaN))
        .hasMessageContaining("gamma");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(g, 0, 1))
        .hasMessageContaining("datasetSize must be >= 1");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(g, 10, 11))
        .hasMessageContaining("sampleSize");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplify(g, 10, 0))
        .hasMessageContaining("sampleSize");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplifiedEpsilon(-1, 0.5))
        .hasMessageContaining("epsilon must be >= 0");
    assertThatThrownBy(() -> WithoutReplacementAmplification.amplifiedEpsilon(Double.NaN, 0.5))
        .hasMessageContaining("epsilon");
  }
}
