package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import org.junit.jupiter.api.Test;

class ShuffleReportTest {

  @Test
  void paperCurveLiesBelowTheExactCurveForHundredUsersAndLambdaFiftyEight() {
    ShuffleReport report = ShuffleReport.of(new ShuffleParameters(100, 58), 1, 1e-6);
    assertThat(report.paper().validLowerBound()).isTrue();
    assertThat(report.paper().maxExcess()).isLessThanOrEqualTo(ShuffleReport.COMPARISON_TOLERANCE);
    // Check directly on the step function at a fine grid as well.
    PaperTradeoff paper = new PaperTradeoff(report.parameters());
    PowerCurve exact = report.exact().curve();
    for (int i = 0; i <= 10_000; i++) {
      double alpha = i / 10_000.0;
      assertThat(paper.beta(alpha)).isLessThanOrEqualTo(exact.beta(alpha) + 1e-13);
    }
    assertThat(report.paper().muValid()).isTrue();
    assertThat(report.exact().mu()).isLessThan(report.paper().mu());
    assertThat(report.exact().method()).isEqualTo("exact");
  }

  @Test
  void paperCurveIsNotALowerBoundForSmallLambdaAndTheReportSaysSo() {
    ShuffleReport report = ShuffleReport.of(new ShuffleParameters(100, 10), 1, 1e-6);
    assertThat(report.paper().validLowerBound()).isFalse();
    // Independent brute force (scipy, all k): the paper's corner exceeds the exact curve by 0.0148.
    assertThat(report.paper().maxExcess()).isCloseTo(0.014806093585456717, within(1e-9));
  }

  @Test
  void exactEpsilonIsConsistentWithTheProfileAndBelowLocalEpsilon() {
    ShuffleReport report = ShuffleReport.of(new ShuffleParameters(100, 58), 1, 1e-6);
    PowerCurve exact = report.exact().curve();
    double eps = report.exact().epsilon();
    assertThat(exact.delta(eps)).isLessThanOrEqualTo(1e-6);
    assertThat(exact.delta(eps * (1 - 1e-6))).isGreaterThan(1e-6);
    assertThat(eps).isLessThan(report.localEpsilon());
    assertThat(report.localEpsilon()).isCloseTo(Math.log(142.0 / 58), within(1e-15));
  }

  @Test
  void realSumReportComposesThePaperAndAnalysesAllMessagesExactly() {
    ShuffleReport report = ShuffleReport.of(new ShuffleParameters(100, 58), 10, 1e-6);
    assertThat(report.paper().mu())
        .isCloseTo(Math.sqrt(10) * new PaperTradeoff(report.parameters()).mu(), within(1e-12));
    assertThat(report.exact().method()).isEqualTo("exact");
    assertThat(report.exact().mu()).isLessThanOrEqualTo(report.paper().mu());
    // Theorem 3's f^{⊗10} is below the exact curve of all 1000 messages here.
    assertThat(report.paper().validLowerBound()).isTrue();
    double[][] composed = report.paper().tradeoff();
    assertThat(composed[0][0]).isZero(); // f(0) = 1 − F(1) < 1, so f^{⊗10}(0) < 1 as well
    for (double[] v : composed) {
      assertThat(v[1]).isLessThanOrEqualTo(report.exact().curve().beta(v[0]) + 1e-13);
    }
  }

  @Test
  void convexMinorantLiesBelowTheStepFunctionAndTouchesItsCorners() {
    PaperTradeoff paper = new PaperTradeoff(new ShuffleParameters(100, 58));
    var minorant = paper.convexMinorant();
    for (int i = 0; i <= 2000; i++) {
      double alpha = i / 2000.0;
      assertThat(minorant.beta(alpha)).isLessThanOrEqualTo(paper.beta(alpha) + 1e-15);
    }
    assertThat(paper.composed(1).lower().maxExcessOver(minorant)).isLessThanOrEqualTo(1e-12);
  }
}
