package dev.tradeoff.shuffle.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.numerics.LogMath;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class AmplificationAndCheuTest {

  /** Reference: independent scipy evaluation with full (untruncated) pmfs. */
  @Test
  void feldmanMcMillanTalwarMatchesAnIndependentEvaluation() {
    FeldmanMcMillanTalwar small = new FeldmanMcMillanTalwar(100, Math.log(142.0 / 58));
    assertThat(small.delta(0.3)).isCloseTo(0.0006201809445605835, Percentage.withPercentage(1e-8));
    assertThat(small.delta(0.5)).isCloseTo(3.7672422761026356e-06, Percentage.withPercentage(1e-7));
    FeldmanMcMillanTalwar large = new FeldmanMcMillanTalwar(1000, 2.0);
    assertThat(large.delta(0.5)).isCloseTo(3.9336372609497645e-06, Percentage.withPercentage(1e-7));
    assertThat(large.delta(1.0)).isCloseTo(4.0735202256223604e-14, Percentage.withPercentage(1e-5));
  }

  @Test
  void feldmanMcMillanTalwarNumericalBoundIsBelowTheirClosedForm() {
    int n = 10_000;
    double eps0 = 1.5;
    double delta = 1e-6;
    double closed = Math.log1p((Math.exp(eps0) - 1) / (Math.exp(eps0) + 1)
        * (8 * Math.sqrt(Math.exp(eps0) * Math.log(4 / delta)) / Math.sqrt(n)
            + 8 * Math.exp(eps0) / n));
    double numerical = new FeldmanMcMillanTalwar(n, eps0).epsilon(delta);
    assertThat(numerical).isLessThan(closed).isGreaterThan(0);
  }

  @Test
  void exactAnalysisIsNeverWeakerThanTheGenericAmplificationBound() {
    ShuffleParameters params = new ShuffleParameters(100, 58);
    PowerCurve exact = ExactShuffleAnalysis.worstCase(params, 1);
    FeldmanMcMillanTalwar generic = new FeldmanMcMillanTalwar(100, params.localEpsilon());
    for (double eps : new double[] {0.05, 0.1, 0.2, 0.3, 0.5, 0.8}) {
      assertThat(exact.delta(eps)).isLessThanOrEqualTo(generic.delta(eps));
    }
  }

  @Test
  void claimC1FormulaAndItsRangeOfValidity() {
    double delta = 1e-3;
    assertThat(CheuBound.epsilon(50, delta)).isEmpty(); // 8 ln(4000) = 66.4 > 50
    assertThat(CheuBound.epsilon(100, delta).getAsDouble())
        .isCloseTo(Math.log(1 + Math.sqrt(32 * Math.log(4000) / 100)), within(1e-15));
  }

  @Test
  void protocolBoundUsesTheExactLowerQuantileOfTheRandomizingSet() {
    ShuffleParameters params = new ShuffleParameters(1000, 500);
    double budget = 1e-4;
    int h0 = CheuBound.lowerQuantile(params, budget);
    double below = 0;
    for (int h = 0; h < h0; h++) {
      below += Math.exp(LogMath.logBinomialPmf(1000, h, 0.5));
    }
    double next = below + Math.exp(LogMath.logBinomialPmf(1000, h0, 0.5));
    assertThat(below).isLessThanOrEqualTo(budget);
    assertThat(next).isGreaterThan(budget);
    assertThat(CheuBound.protocolEpsilon(params, 2 * budget).getAsDouble())
        .isEqualTo(CheuBound.epsilon(h0, 2 * budget).getAsDouble());
  }
}
