package dev.tradeoff.audit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.gaussian.DiscreteGaussianMechanism;
import dev.tradeoff.mechanisms.gaussian.GaussianMechanism;
import dev.tradeoff.mechanisms.laplace.DiscreteLaplaceMechanism;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.mechanisms.response.RandomizedResponse;
import dev.tradeoff.mechanisms.selection.ExponentialMechanism;
import dev.tradeoff.mechanisms.selection.PermuteAndFlip;
import dev.tradeoff.mechanisms.selection.ReportNoisyMax;
import dev.tradeoff.mechanisms.sparsevector.AboveThreshold;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every mechanism of {@code tradeoff-mechanisms} passes the auditor at its claimed ε, on the
 * neighbouring inputs that make its privacy loss largest, and the auditor's bound comes close to
 * the claim where the mechanism is tight (so the pass is not for lack of power).
 */
class TradeoffMechanismsPassTheAuditTest {

  private static AuditResult audit(AuditCase<?, ?> auditCase, int samples, long seed) {
    return PrivacyAuditor.withSamples(samples).audit(auditCase, Randomness.seeded(seed));
  }

  @Test
  void laplaceMechanismPassesWithANearTightBound() {
    LaplaceMechanism laplace = LaplaceMechanism.of(1.0, 1.0);
    AuditResult result =
        audit(
            new AuditCase<>("laplace", laplace::release, 0.0, 1.0, laplace.guarantee().toApproxDp(),
                EventFamily.forRealOutputs()),
            40_000,
            1);

    assertThat(result.passed()).isTrue();
    assertThat(result.epsilonLowerBound()).isGreaterThan(0.75);
  }

  @Test
  void gaussianMechanismPassesAtItsClaimedDelta() {
    GaussianMechanism gaussian = GaussianMechanism.of(1.0, 1e-3, 1.0);
    AuditResult result =
        audit(
            new AuditCase<>("gaussian", gaussian::release, 0.0, 1.0, gaussian.guarantee(),
                EventFamily.forRealOutputs()),
            10_000,
            2);

    assertThat(result.passed()).isTrue();
    assertThat(result.delta()).isEqualTo(1e-3);
    assertThat(result.epsilonLowerBound()).isPositive();
  }

  @Test
  void discreteLaplaceMechanismPassesWithANearTightBound() {
    DiscreteLaplaceMechanism laplace = DiscreteLaplaceMechanism.of(1.0, 1);
    AuditResult result =
        audit(
            new AuditCase<>("discrete-laplace", laplace::release, 0L, 1L,
                ((PureDp) laplace.guarantee()).toApproxDp(),
                EventFamily.<Long>forIntegerOutputs()),
            40_000,
            3);

    assertThat(result.passed()).isTrue();
    assertThat(result.epsilonLowerBound()).isGreaterThan(0.75);
  }

  @Test
  void discreteGaussianMechanismPassesAtTheEpsilonItsZcdpImplies() {
    DiscreteGaussianMechanism gaussian = DiscreteGaussianMechanism.of(2.0, 1);
    double rho = gaussian.guarantee().rho();
    double delta = 1e-3;
    // ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP (Bun and Steinke 2016, Proposition 1.3)
    double epsilon = rho + 2 * Math.sqrt(rho * Math.log(1 / delta));
    AuditResult result =
        audit(
            new AuditCase<>("discrete-gaussian", gaussian::release, 0L, 1L,
                new ApproxDp(epsilon, delta), EventFamily.<Long>forIntegerOutputs()),
            40_000,
            4);

    assertThat(result.passed()).isTrue();
  }

  @Test
  void randomizedResponsePassesWithANearTightBound() {
    for (int k : new int[] {2, 5}) {
      RandomizedResponse response = RandomizedResponse.kAry(1.0, k);
      AuditResult result =
          audit(
              new AuditCase<>("rr-" + k, response::release, 0, 1,
                  response.guarantee().toApproxDp(), EventFamily.<Integer>categories(k)),
              100_000,
              5);

      assertThat(result.passed()).as("k=%d", k).isTrue();
      assertThat(result.epsilonLowerBound()).as("k=%d", k).isGreaterThan(0.85);
    }
  }

  /** u(D) = (1, 0, ..., 0), u(D′) = (0, 1, ..., 1): the exponential mechanism's worst pair. */
  private static double[][] selectionPair(int candidates) {
    double[] first = new double[candidates];
    first[0] = 1;
    double[] second = new double[candidates];
    Arrays.fill(second, 1);
    second[0] = 0;
    return new double[][] {first, second};
  }

  @Test
  void selectionMechanismsPassOnTheirWorstCasePair() {
    double[][] pair = selectionPair(8);
    ExponentialMechanism exponential =
        ExponentialMechanism.of(1.0, 1.0);
    PermuteAndFlip permuteAndFlip = PermuteAndFlip.of(1.0, 1.0, false);
    List<AuditCase<double[], Integer>> cases = new ArrayList<>();
    cases.add(
        new AuditCase<>("exponential", exponential::release, pair[0], pair[1],
            exponential.guarantee().toApproxDp(), EventFamily.categories(8)));
    cases.add(
        new AuditCase<>("permute-and-flip", permuteAndFlip::release, pair[0], pair[1],
            permuteAndFlip.guarantee().toApproxDp(), EventFamily.categories(8)));
    for (ReportNoisyMax.Noise noise : ReportNoisyMax.Noise.values()) {
      ReportNoisyMax noisyMax =
          ReportNoisyMax.of(1.0, 1.0, false, noise);
      cases.add(
          new AuditCase<>("report-noisy-max-" + noise, noisyMax::release, pair[0], pair[1],
              ((PureDp) noisyMax.guarantee()).toApproxDp(), EventFamily.categories(8)));
    }
    long seed = 6;
    for (AuditCase<double[], Integer> auditCase : cases) {
      AuditResult result = audit(auditCase, 6_000, seed++);
      assertThat(result.passed()).as(auditCase.name()).isTrue();
      assertThat(result.epsilonLowerBound()).as(auditCase.name()).isPositive();
    }
  }

  @Test
  void aboveThresholdPassesOnThePairsThatBreakItsBrokenVariants() {
    AboveThreshold svt =
        AboveThreshold.builder().epsilon(1.0).sensitivity(1.0).threshold(0.5).maxAbove(1).build();
    double[][][] pairs = {
      {{0, 1}, {1, 0}},
      {{0, 0, 0, 0, 0, 1}, {1, 1, 1, 1, 1, 0}},
    };
    long seed = 20;
    for (double[][] pair : pairs) {
      AuditResult result =
          audit(
              new AuditCase<>("above-threshold", svt::release, pair[0], pair[1],
                  svt.guarantee().toApproxDp(), EventFamily.categories(64)),
              20_000,
              seed++);
      assertThat(result.passed()).as(Arrays.deepToString(pair)).isTrue();
    }
  }
}
