package dev.tradeoff.experiments.stability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.selection.stability.BetaDensity;
import dev.tradeoff.experiments.stability.HistogramSelectionExperiment.Method;
import dev.tradeoff.experiments.stability.HistogramSelectionExperiment.MethodResult;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class HistogramSelectionExperimentTest {

  private static final BetaDensity BETA_2_5 = new BetaDensity(2, 5);

  @Test
  void fourMethodsSelectTheBinWidthOfBeta25HistogramsEndToEnd() {
    int repetitions = 12;
    HistogramSelectionExperiment.Result result = new HistogramSelectionExperiment(BETA_2_5,
        20_000, 20_000, 1.0, 1e-6, 0.5, HistogramSelectionExperiment.PAPER_BIN_COUNTS,
        repetitions, 100).run();
    assertThat(result.methods()).extracting(MethodResult::method)
        .containsExactly(Method.values());
    for (MethodResult m : result.methods()) {
      assertThat(Arrays.stream(m.chosen()).sum()).isEqualTo(repetitions);
      assertThat(m.meanIse()).isPositive().isFinite();
      assertThat(m.guarantee()).isEqualTo(
          m.method() == Method.STABILITY ? new ApproxDp(1.0, 1e-6) : new ApproxDp(1.0, 0));
    }
    // h = 1/5 is bias-dominated: its error is ‖f‖² − Σ P_i²/h plus a little noise
    double bias = 20.0 / 11;
    for (int i = 0; i < 5; i++) {
      double p = BETA_2_5.mass(i / 5.0, (i + 1) / 5.0);
      bias -= p * p * 5;
    }
    assertThat(result.fixedIse()[0]).isBetween(bias, bias * 1.1);
    // the finest candidates beat the coarsest by an order of magnitude at n = 20000
    assertThat(result.fixedIse()[3]).isLessThan(result.fixedIse()[0] / 10);
    MethodResult stability = result.methods().get(Method.STABILITY.ordinal());
    MethodResult random = result.methods().get(Method.RANDOM.ordinal());
    // Random is blind; stability-based selection is informed by the data
    assertThat(stability.meanIse()).isLessThan(random.meanIse());
    assertThat(result.noiseMean()).isPositive();
  }

  @Test
  void settingsOutsideTheoremSixAreRefusedUpFront() {
    assertThatThrownBy(() -> new HistogramSelectionExperiment(BETA_2_5, 300, 300, 0.1, 1e-6, 0.5,
            HistogramSelectionExperiment.PAPER_BIN_COUNTS, 3, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("gamma");
    assertThatThrownBy(() -> new HistogramSelectionExperiment(BETA_2_5, 20_000, 20_000, 1, 1e-6,
            1.0, HistogramSelectionExperiment.PAPER_BIN_COUNTS, 3, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stabilitySplit");
    assertThatThrownBy(() -> new HistogramSelectionExperiment(BETA_2_5, 20_000, 20_000, 1, 1e-6,
            0.5, new int[] {10}, 3, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("binCounts");
  }

  @Test
  void dataSplitPartsAreDisjointAndCoverTheTrainingSet() {
    double[] data = new double[103];
    for (int i = 0; i < data.length; i++) {
      data[i] = i;
    }
    int seen = 0;
    double expected = 0;
    for (int p = 0; p < 5; p++) {
      double[] part = HistogramSelectionExperiment.part(data, p, 5);
      assertThat(part.length).isBetween(20, 21);
      for (double x : part) {
        assertThat(x).isEqualTo(expected++);
        seen++;
      }
    }
    assertThat(seen).isEqualTo(103);
  }
}
