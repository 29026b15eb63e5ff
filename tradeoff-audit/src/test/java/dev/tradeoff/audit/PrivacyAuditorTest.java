package dev.tradeoff.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrivacyAuditorTest {

  private static final ApproxDp EPSILON_ONE = new ApproxDp(1.0, 0);

  private static double[] repeat(double value, int times) {
    double[] values = new double[times];
    Arrays.fill(values, value);
    return values;
  }

  private static double[] concat(double[] a, double[] b) {
    double[] c = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  private static AuditResult auditLaplace(double scale, long seed) {
    AuditCase<Double, Double> laplace =
        new AuditCase<>(
            "laplace(scale=" + scale + ")",
            ReferenceMechanisms.laplaceMechanism(scale),
            0.0,
            1.0,
            EPSILON_ONE,
            EventFamily.forRealOutputs());
    return PrivacyAuditor.withSamples(50_000).audit(laplace, new SplittableRandom(seed));
  }

  @Test
  void catchesLaplaceWhoseScaleIsThirtyPercentTooSmall() {
    AuditResult result = auditLaplace(0.7, 1);

    assertThat(result.passed()).isFalse();
    assertThat(result.epsilonLowerBound()).isGreaterThan(1.1).isLessThanOrEqualTo(1 / 0.7);
  }

  @Test
  void passesCorrectLaplaceWithANearTightBound() {
    AuditResult result = auditLaplace(1.0, 1);

    assertThat(result.passed()).isTrue();
    assertThat(result.epsilonLowerBound()).isGreaterThan(0.8).isLessThanOrEqualTo(1.0);
    assertThat(result.direction()).isNotEqualTo("none");
  }

  /** D: u = (1, 0, ..., 0), D′: u = (0, 1, ..., 1); every utility moves by at most Δ = 1. */
  private static AuditResult auditExponentialMechanism(double divisor) {
    int candidates = 50;
    double[] first = repeat(0, candidates);
    first[0] = 1;
    double[] second = repeat(1, candidates);
    second[0] = 0;
    AuditCase<double[], Integer> mechanism =
        new AuditCase<>(
            "exponential(divisor=" + divisor + ")",
            ReferenceMechanisms.exponentialMechanism(1.0, 1.0, divisor),
            first,
            second,
            EPSILON_ONE,
            EventFamily.categories(candidates));
    return PrivacyAuditor.withSamples(100_000).audit(mechanism, new SplittableRandom(7));
  }

  @Test
  void catchesExponentialMechanismThatUsesHalfTheSensitivity() {
    AuditResult result = auditExponentialMechanism(1);

    assertThat(result.passed()).isFalse();
    assertThat(result.bestEvent()).isEqualTo("output = 0");
    // true privacy loss of this pair: 1 + log((1 + 49e) / (e + 49)) ≈ 1.954
    assertThat(result.epsilonLowerBound()).isGreaterThan(1.5).isLessThan(1.954);
  }

  @Test
  void passesCorrectExponentialMechanism() {
    AuditResult result = auditExponentialMechanism(2);

    assertThat(result.passed()).isTrue();
    // true privacy loss of this pair: 0.5 + log((1 + 49√e) / (√e + 49)) ≈ 0.979
    assertThat(result.epsilonLowerBound()).isGreaterThan(0.6).isLessThan(0.979);
  }

  private static EventFamily<String> svtEvents(int half) {
    return EventFamily.union(
        EventFamily.categories(64),
        EventFamily.thresholds(
            "#T(first " + half + ") - #T(rest)",
            answers -> {
              int balance = 0;
              for (int i = 0; i < answers.length(); i++) {
                if (answers.charAt(i) == 'T') {
                  balance += i < half ? 1 : -1;
                }
              }
              return balance;
            },
            32));
  }

  private static AuditResult auditSvt(
      AuditedMechanism<double[], String> svt, double[] first, double[] second, int samples) {
    return PrivacyAuditor.withSamples(samples)
        .audit(
            new AuditCase<>("svt", svt, first, second, EPSILON_ONE, svtEvents(first.length / 2)),
            new SplittableRandom(3));
  }

  @Test
  void catchesSparseVectorWithoutQueryNoiseLyuSuLiAlgorithm5() {
    // With ρ the only noise, pattern ⊥⊤ is possible on (0, 1) and impossible on (1, 0).
    AuditResult broken =
        auditSvt(ReferenceMechanisms.svtNoQueryNoise(1), new double[] {0, 1},
            new double[] {1, 0}, 20_000);
    AuditResult correct =
        auditSvt(ReferenceMechanisms.svtCorrect(1, 1), new double[] {0, 1},
            new double[] {1, 0}, 20_000);

    assertThat(broken.passed()).isFalse();
    assertThat(broken.bestEvent()).isEqualTo("output = FT");
    assertThat(broken.countDenominator()).isZero();
    assertThat(broken.epsilonLowerBound()).isGreaterThan(4);
    assertThat(correct.passed()).isTrue();
  }

  @Test
  void userSuppliedPatternEventAloneCatchesSparseVectorWithoutQueryNoise() {
    AuditCase<double[], String> svt =
        new AuditCase<>(
            "svt-alg5",
            ReferenceMechanisms.svtNoQueryNoise(1),
            new double[] {0, 1},
            new double[] {1, 0},
            EPSILON_ONE,
            EventFamily.of(List.of(OutputEvent.equalTo("FT"))));

    AuditResult result = PrivacyAuditor.withSamples(2_000).audit(svt, new SplittableRandom(2));

    assertThat(result.candidateEvents()).isEqualTo(1);
    assertThat(result.certifiedEvents()).isEqualTo(1);
    assertThat(result.direction()).isEqualTo("D vs D'");
    assertThat(result.passed()).isFalse();
  }

  @Test
  void catchesSparseVectorWithoutCutoffLyuSuLiAlgorithm6() {
    // Ten queries move up and ten move down: without a cutoff and with query noise not scaled by
    // the number of answers, the privacy loss grows with the number of queries.
    double[] first = repeat(0, 20);
    double[] second = concat(repeat(1, 10), repeat(-1, 10));
    AuditResult broken = auditSvt(ReferenceMechanisms.svtNoCutoff(1), first, second, 20_000);
    AuditResult correct = auditSvt(ReferenceMechanisms.svtCorrect(1, 20), first, second, 20_000);

    assertThat(broken.passed()).isFalse();
    assertThat(broken.epsilonLowerBound()).isGreaterThan(2.5);
    assertThat(correct.passed()).isTrue();
  }

  @Test
  void catchesSparseVectorWithUnscaledQueryNoiseLyuSuLiAlgorithm4() {
    // c = 1: five ⊥ answers pin ρ, then one ⊤ whose query moved the other way; true loss up to
    // (1 + 6c)/4 · ε = 1.75.
    double[] first = concat(repeat(0, 5), new double[] {1});
    double[] second = concat(repeat(1, 5), new double[] {0});
    AuditedMechanism<double[], String> broken = ReferenceMechanisms.svtUnscaledQueryNoise(1, 1);
    AuditedMechanism<double[], String> correct = ReferenceMechanisms.svtCorrect(1, 1);

    AuditResult brokenResult =
        PrivacyAuditor.withSamples(100_000)
            .audit(
                new AuditCase<>("alg4", broken, first, second, EPSILON_ONE,
                    EventFamily.categories(64)),
                new SplittableRandom(1));
    AuditResult correctResult =
        PrivacyAuditor.withSamples(100_000)
            .audit(
                new AuditCase<>("alg1", correct, first, second, EPSILON_ONE,
                    EventFamily.categories(64)),
                new SplittableRandom(1));

    assertThat(brokenResult.passed()).isFalse();
    assertThat(brokenResult.epsilonLowerBound()).isLessThanOrEqualTo(1.75);
    assertThat(correctResult.passed()).isTrue();
  }

  private static AuditCase<Integer, Integer> randomizedResponse(double epsilon) {
    return new AuditCase<>(
        "randomized-response",
        ReferenceMechanisms.randomizedResponse(epsilon),
        0,
        1,
        new ApproxDp(epsilon, 0),
        EventFamily.categories(2));
  }

  @Test
  void randomizedResponseBoundReachesNinetyPercentOfEpsilonWithAMillionSamples() {
    // 10^6 draws in all: 500 000 per input, of which 250 000 certify.
    AuditResult result =
        PrivacyAuditor.withSamples(500_000).audit(randomizedResponse(1.0), new SplittableRandom(11));

    assertThat(result.epsilonLowerBound()).isGreaterThanOrEqualTo(0.9).isLessThanOrEqualTo(1.0);
    assertThat(result.passed()).isTrue();
    assertThat(result.certificationSamples()).isEqualTo(250_000);
  }

  @Test
  void correctRandomizedResponsePassesAcrossSeedsAndEpsilons() {
    SplittableRandom seeds = new SplittableRandom(2024);
    for (int trial = 0; trial < 12; trial++) {
      double epsilon = 0.1 + 3 * seeds.nextDouble();
      AuditResult result =
          PrivacyAuditor.withSamples(20_000)
              .audit(randomizedResponse(epsilon), new SplittableRandom(seeds.nextLong()));
      assertThat(result.passed()).as("epsilon %s", epsilon).isTrue();
      assertThat(result.epsilonLowerBound()).isLessThanOrEqualTo(epsilon);
    }
  }

  @Test
  void sameSeedReproducesTheAudit() {
    assertThat(auditLaplace(1.0, 42)).isEqualTo(auditLaplace(1.0, 42));
  }

  @Test
  void identicalOutputDistributionsCertifyAlmostNothing() {
    AuditCase<Double, Double> constantInput =
        new AuditCase<>(
            "input-independent",
            (input, random) -> ReferenceMechanisms.laplace(1, random),
            0.0,
            1.0,
            new ApproxDp(0.05, 0),
            EventFamily.forRealOutputs());

    AuditResult result =
        PrivacyAuditor.withSamples(40_000).audit(constantInput, new SplittableRandom(5));

    assertThat(result.passed()).isTrue();
    assertThat(result.epsilonLowerBound()).isLessThan(0.05);
  }

  /** RR that, on D only, announces "leak" (2) with probability 0.01: (1, 0.01)-DP, not pure. */
  private static AuditCase<Integer, Integer> leakyResponse(ApproxDp claimed) {
    AuditedMechanism<Integer, Integer> rr = ReferenceMechanisms.randomizedResponse(1.0);
    return new AuditCase<>(
        "leaky-rr",
        (bit, random) -> bit == 0 && random.nextDouble() < 0.01 ? 2 : rr.apply(bit, random),
        0,
        1,
        claimed,
        EventFamily.categories(3));
  }

  @Test
  void deltaAbsorbsAnEventThatOnlyOneInputCanProduce() {
    PrivacyAuditor auditor = PrivacyAuditor.withSamples(100_000);

    AuditResult pure = auditor.audit(leakyResponse(new ApproxDp(1, 0)), new SplittableRandom(9));
    AuditResult approx =
        auditor.audit(leakyResponse(new ApproxDp(1, 0.01)), new SplittableRandom(9));

    assertThat(pure.passed()).isFalse();
    assertThat(pure.bestEvent()).isEqualTo("output = 2");
    assertThat(approx.passed()).isTrue();
    assertThat(approx.delta()).isEqualTo(0.01);
  }

  @Test
  void lowConfidenceGivesAHigherBoundThanHighConfidence() {
    PrivacyAuditor auditor = PrivacyAuditor.withSamples(20_000);
    AuditResult loose =
        auditor.withConfidence(0.5).audit(randomizedResponse(1), new SplittableRandom(4));
    AuditResult strict =
        auditor.withConfidence(0.999).audit(randomizedResponse(1), new SplittableRandom(4));

    assertThat(loose.epsilonLowerBound()).isGreaterThan(strict.epsilonLowerBound());
    assertThat(strict.confidence()).isEqualTo(0.999);
  }

  @Test
  void mechanismReturningNullAbortsTheAudit() {
    AuditCase<Integer, Integer> nullMechanism =
        new AuditCase<>("null", (bit, random) -> null, 0, 1, EPSILON_ONE,
            EventFamily.categories(2));

    assertThatThrownBy(
            () -> PrivacyAuditor.withSamples(10).audit(nullMechanism, new SplittableRandom(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("returned null");
  }

  @Test
  void mechanismFailureAbortsTheAudit() {
    AuditCase<Integer, Integer> failing =
        new AuditCase<>(
            "failing",
            (bit, random) -> {
              throw new ArithmeticException("boom");
            },
            0,
            1,
            EPSILON_ONE,
            EventFamily.categories(2));

    assertThatThrownBy(() -> PrivacyAuditor.withSamples(10).audit(failing, new SplittableRandom(1)))
        .isInstanceOf(ArithmeticException.class);
  }

  @Test
  void rejectsInvalidSettings() {
    assertThatThrownBy(() -> new PrivacyAuditor(1, 0.95, 8))
        .hasMessage("samplesPerInput must be >= 2, but was 1");
    assertThatThrownBy(() -> new PrivacyAuditor(100, 1.0, 8))
        .hasMessage("confidence must be in (0, 1), but was 1.0");
    assertThatThrownBy(() -> new PrivacyAuditor(100, Double.NaN, 8))
        .hasMessage("confidence must be in (0, 1), but was NaN");
    assertThatThrownBy(() -> new PrivacyAuditor(100, 0.95, 0))
        .hasMessage("certifiedEvents must be >= 1, but was 0");
  }

  @Test
  void logRatioBoundIsMinusInfinityWhenTheLowerBoundDoesNotExceedDelta() {
    assertThat(PrivacyAuditor.logRatioBound(0, 0, 100, 0, 0.01))
        .isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(PrivacyAuditor.logRatioBound(10, 0, 100, 0.5, 0.01))
        .isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(PrivacyAuditor.logRatioBound(100, 0, 100, 0, 0.01)).isFinite().isPositive();
  }
}
