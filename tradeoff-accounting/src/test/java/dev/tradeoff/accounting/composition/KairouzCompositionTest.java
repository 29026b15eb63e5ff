package dev.tradeoff.accounting.composition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KairouzCompositionTest {

  /** [DaRRM24, Theorem 2.3] written out naively, as the paper prints it. */
  private static double paperEpsilon(double e, int k, double slack) {
    double mean = (Math.exp(e) - 1) * e * k / (Math.exp(e) + 1);
    return Math.min(
        k * e,
        Math.min(
            mean + e * Math.sqrt(2 * k * Math.log(Math.E + Math.sqrt(k * e * e) / slack)),
            mean + e * Math.sqrt(2 * k * Math.log(1 / slack))));
  }

  @Test
  void composeIsTheMinimumOfTheThreeTermsOfTheoremTwoThreeRoundedUp() {
    SplittableRandom random = new SplittableRandom(1);
    for (int trial = 0; trial < 500; trial++) {
      double epsilon = 0.001 + 2 * random.nextDouble();
      double delta = random.nextBoolean() ? 0 : Math.pow(10, -2 - 8 * random.nextDouble());
      int k = 1 + random.nextInt(5000);
      double slack = Math.pow(10, -1 - 11 * random.nextDouble());

      ApproxDp total = KairouzComposition.compose(new ApproxDp(epsilon, delta), k, slack);

      double expected = paperEpsilon(epsilon, k, slack);
      assertThat(total.epsilon()).isGreaterThanOrEqualTo(expected * (1 - 1e-15));
      assertThat(total.epsilon()).isCloseTo(expected, within(1e-12 * expected));
      double expectedDelta = -Math.expm1(k * Math.log1p(-delta) + Math.log1p(-slack));
      assertThat(total.delta()).isGreaterThanOrEqualTo(expectedDelta);
      assertThat(total.delta()).isCloseTo(expectedDelta, within(1e-13 * expectedDelta));
    }
  }

  @Test
  void totalDeltaHasNoCancellationForTinyDeltas() {
    ApproxDp total = KairouzComposition.compose(new ApproxDp(0.1, 1e-15), 10, 1e-14);

    // 1 − (1 − 1e-15)^10 (1 − 1e-14) = 2e-14 − 1e-28·(45 + 10) + …
    assertThat(total.delta()).isCloseTo(2e-14, within(1e-26));
  }

  @Test
  void heterogeneousTheoremReducesToTheHomogeneousOne() {
    SplittableRandom random = new SplittableRandom(2);
    for (int trial = 0; trial < 100; trial++) {
      ApproxDp g = new ApproxDp(random.nextDouble(), 1e-6 * random.nextDouble());
      int k = 1 + random.nextInt(200);
      double slack = Math.pow(10, -1 - 8 * random.nextDouble());

      ApproxDp homogeneous = KairouzComposition.compose(g, k, slack);
      ApproxDp heterogeneous = KairouzComposition.compose(Collections.nCopies(k, g), slack);

      assertThat(heterogeneous.epsilon())
          .isCloseTo(homogeneous.epsilon(), within(1e-13 * homogeneous.epsilon()));
      assertThat(heterogeneous.delta())
          .isCloseTo(homogeneous.delta(), within(1e-12 * homogeneous.delta()));
    }
  }

  @Test
  void heterogeneousBoundHoldsForTheExactOptimalComposition() {
    SplittableRandom random = new SplittableRandom(3);
    for (int trial = 0; trial < 150; trial++) {
      List<ApproxDp> sequence = randomSequence(random, 1 + random.nextInt(7));
      double slack = Math.pow(10, -0.3 - 4 * random.nextDouble());

      ApproxDp total = KairouzComposition.compose(sequence, slack);

      assertThat(CanonicalProducts.exactDelta(sequence, total.epsilon()))
          .as("%s with slack %s gives %s", sequence, slack, total)
          .isLessThanOrEqualTo(total.delta() + 1e-15);
    }
  }

  @Test
  void optimalSlackProfileHoldsForTheExactCompositionAndBeatsEveryFixedSlack() {
    SplittableRandom random = new SplittableRandom(4);
    for (int trial = 0; trial < 150; trial++) {
      List<ApproxDp> sequence = randomSequence(random, 1 + random.nextInt(7));
      PrivacyProfile profile = KairouzComposition.profile(sequence);
      double sumEpsilon = sequence.stream().mapToDouble(ApproxDp::epsilon).sum();
      double epsilon = 1.1 * sumEpsilon * random.nextDouble();

      double delta = profile.delta(epsilon);

      assertThat(CanonicalProducts.exactDelta(sequence, epsilon)).isLessThanOrEqualTo(delta + 1e-15);
      double slack = Math.pow(10, -0.5 - 6 * random.nextDouble());
      ApproxDp fixed = KairouzComposition.compose(sequence, slack);
      if (fixed.epsilon() <= epsilon) {
        assertThat(delta).isLessThanOrEqualTo(fixed.delta());
      }
      if (fixed.delta() >= profile.delta(sumEpsilon)) {
        assertThat(profile.epsilon(fixed.delta())).isLessThanOrEqualTo(fixed.epsilon());
      }
    }
  }

  @Test
  void optimalSlackEpsilonRecoversTheEpsilonOfTheSlackItSpends() {
    SplittableRandom random = new SplittableRandom(6);
    for (int trial = 0; trial < 200; trial++) {
      ApproxDp g = new ApproxDp(0.01 + random.nextDouble(), 1e-5 * random.nextDouble());
      int k = 1 + random.nextInt(1000);
      double slack = Math.pow(10, -1 - 9 * random.nextDouble());
      ApproxDp fixed = KairouzComposition.compose(g, k, slack);
      PrivacyProfile profile = KairouzComposition.profile(g, k);

      double epsilon = profile.epsilon(fixed.delta());

      // Spending the same slack, up to the downward rounding of the recovered slack.
      assertThat(epsilon).isLessThanOrEqualTo(fixed.epsilon() * (1 + 1e-12));
      // fixed.delta() is rounded up, so a slightly larger slack is recovered when kδ dominates.
      assertThat(epsilon).isCloseTo(fixed.epsilon(), within(1e-6 * fixed.epsilon()));
      assertThat(profile.delta(fixed.epsilon())).isLessThanOrEqualTo(fixed.delta());
      double floor = -Math.expm1(k * Math.log1p(-g.delta()));
      if (fixed.epsilon() < k * g.epsilon() * (1 - 1e-12)) {
        assertThat(profile.delta(fixed.epsilon()))
            .as("%s k=%d slack=%s", g, k, slack)
            .isCloseTo(fixed.delta(), within(1e-6 * fixed.delta()));
      } else {
        // The first term kε holds without slack ([KOV15, Theorem 3.3] at i = 0).
        assertThat(profile.delta(fixed.epsilon())).isCloseTo(floor, within(1e-12 * floor + 1e-300));
      }
    }
  }

  @Test
  void optimalSlackProfileIsMonotoneAndHasTheDocumentedEnds() {
    ApproxDp g = new ApproxDp(0.2676, 0.0003);
    PrivacyProfile profile = KairouzComposition.profile(g, 50);
    double floor = -Math.expm1(50 * Math.log1p(-0.0003));

    assertThat(profile.delta(13.38 * (1 + 1e-12))).isCloseTo(floor, within(1e-15));
    assertThat(profile.delta(0)).isEqualTo(1.0);
    assertThat(profile.epsilon(floor / 2)).isInfinite();
    double previous = 1;
    for (double epsilon = 0; epsilon < 14; epsilon += 0.01) {
      double delta = profile.delta(epsilon);
      assertThat(delta).isLessThanOrEqualTo(previous);
      previous = delta;
    }
  }

  @Test
  void fixedSlackProfileKnowsExactlyItsTwoStatements() {
    ApproxDp g = new ApproxDp(0.2676, 0.0003);
    ApproxDp withSlack = KairouzComposition.compose(g, 50, 1e-4);
    PrivacyProfile profile = KairouzComposition.profile(g, 50, 1e-4);

    assertThat(profile.epsilon(withSlack.delta())).isEqualTo(withSlack.epsilon());
    assertThat(profile.delta(withSlack.epsilon())).isEqualTo(withSlack.delta());
    assertThat(profile.delta(withSlack.epsilon() * 0.999)).isEqualTo(1.0);
    assertThat(profile.epsilon(0.0149)).isCloseTo(50 * 0.2676, within(1e-12));
    assertThat(profile.epsilon(0.001)).isInfinite();
  }

  @Test
  void epsilonIsMonotoneInEpsilonCountAndSlack() {
    SplittableRandom random = new SplittableRandom(8);
    for (int trial = 0; trial < 300; trial++) {
      ApproxDp g = new ApproxDp(0.001 + random.nextDouble(), 1e-6 * random.nextDouble());
      int k = 1 + random.nextInt(1000);
      double slack = Math.pow(10, -1 - 9 * random.nextDouble());
      double base = KairouzComposition.compose(g, k, slack).epsilon();

      assertThat(KairouzComposition.compose(new ApproxDp(g.epsilon() * 1.01, g.delta()), k, slack).epsilon())
          .isGreaterThanOrEqualTo(base);
      assertThat(KairouzComposition.compose(g, k + 1, slack).epsilon()).isGreaterThanOrEqualTo(base);
      assertThat(KairouzComposition.compose(g, k, slack / 2).epsilon()).isGreaterThanOrEqualTo(base);
      assertThat(KairouzComposition.compose(new ApproxDp(g.epsilon(), g.delta() * 2), k, slack).delta())
          .isGreaterThanOrEqualTo(KairouzComposition.compose(g, k, slack).delta());
    }
  }

  @Test
  void rejectsBadInput() {
    ApproxDp g = new ApproxDp(0.1, 1e-6);
    assertThatThrownBy(() -> KairouzComposition.compose(g, 10, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("deltaSlack must be in (0, 1), but was 0.0");
    assertThatThrownBy(() -> KairouzComposition.compose(g, 10, 1))
        .hasMessage("deltaSlack must be in (0, 1), but was 1.0");
    assertThatThrownBy(() -> KairouzComposition.compose(g, 10, Double.NaN))
        .hasMessage("deltaSlack must be in (0, 1), but was NaN");
    assertThatThrownBy(() -> KairouzComposition.compose(g, 0, 1e-4))
        .hasMessage("count must be >= 1, but was 0");
    assertThatThrownBy(() -> KairouzComposition.compose(g, -3, 1e-4))
        .hasMessage("count must be >= 1, but was -3");
    assertThatThrownBy(() -> KairouzComposition.compose(null, 3, 1e-4))
        .hasMessage("perMechanism must not be null");
    assertThatThrownBy(() -> KairouzComposition.compose(List.of(), 1e-4))
        .hasMessage("guarantees must not be empty");
    assertThatThrownBy(() -> KairouzComposition.profile(g, 3).delta(-0.5))
        .hasMessage("epsilon must be >= 0 and finite, but was -0.5");
    assertThatThrownBy(() -> KairouzComposition.profile(g, 3).epsilon(-1e-3))
        .hasMessage("delta must be in [0, 1), but was -0.001");
  }

  static List<ApproxDp> randomSequence(SplittableRandom random, int length) {
    List<ApproxDp> sequence = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      double delta = random.nextInt(3) == 0 ? 0 : 0.05 * random.nextDouble();
      sequence.add(new ApproxDp(0.02 + 1.5 * random.nextDouble(), delta));
    }
    return sequence;
  }
}
