package dev.tradeoff.experiments.expost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.selection.baseline.TruncatedNegativeBinomial;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** [ExPost25, Figure 1 and (reduced) Table 1]. The full table: reproduce expost. */
class ReproductionTest {

  @Test
  void figure1Theorem11NeedsOneHundredFiveCopiesForTenRunsWithStdAbout22() {
    assertThat(InvocationCurves.copiesForMean(0.1, 0.01, 10)).isEqualTo(105);
    InvocationCurves.Point p = InvocationCurves.theorem11(0.1, 0.01, 105).get(104);
    assertThat(p.mean()).isCloseTo(10.03, within(0.01));
    assertThat(p.standardDeviation()).isCloseTo(22.0, within(0.1));
  }

  @Test
  void figure1PapernotSteinkeIsMoreConcentratedAtEqualMean() {
    List<InvocationCurves.Point> ps = InvocationCurves.papernotSteinke(0.1, 0.01, 400);
    assertThat(ps.get(0).mean()).isLessThan(1.01);
    assertThat(ps.get(ps.size() - 1).mean()).isGreaterThan(100);
    for (double target : new double[] {5, 10, 50}) {
      InvocationCurves.Point closest =
          ps.stream().min((a, b) -> Double.compare(Math.abs(a.mean() - target), Math.abs(b.mean() - target))).orElseThrow();
      int d = InvocationCurves.copiesForMean(0.1, 0.01, closest.mean());
      InvocationCurves.Point ours = InvocationCurves.theorem11(0.1, 0.01, d).get(d - 1);
      assertThat(closest.standardDeviation()).isLessThan(ours.standardDeviation());
      // η = ε′/ε gives the same privacy 2ε + ε′ as Theorem 11
      assertThat(new TruncatedNegativeBinomial(0.1, closest.parameter()).pureEpsilon(0.1))
          .isCloseTo(0.21, within(1e-12));
    }
  }

  @Test
  void powerLawHistogramAndAcceptanceCheck() {
    long[] counts = MessageBoard.histogram(8000, Randomness.seeded(1));
    assertThat(Arrays.stream(counts).sum()).isEqualTo(8000);
    assertThat(counts[0]).isGreaterThan(counts[99]).isGreaterThan(400);
    // |(ŷ+σ)/(ŷ−σ)| ≤ 1.1 ⇔ ŷ ≥ 21σ for ŷ > σ
    assertThat(MessageBoard.accept(2100, 0.01)).isTrue();
    assertThat(MessageBoard.accept(2000, 0.01)).isFalse();
    assertThat(MessageBoard.accept(-2100, 0.01)).isTrue();
    double[] grid = MessageBoard.budgetGrid(10);
    assertThat(grid[0]).isEqualTo(0.001);
    assertThat(grid[grid.length - 1]).isLessThanOrEqualTo(10).isGreaterThan(10 / Math.sqrt(2));
  }

  @Test
  void table1DoublingColumnReproducesOnS8000() {
    AnswerCountExperiment.Outcome o =
        AnswerCountExperiment.run(AnswerCountExperiment.Method.DOUBLING, 8000, 30, Randomness.seeded(8000));
    // paper: 14.77 ± 0.47 answers, precision 0.911 ± 0.07
    assertThat(AnswerCountExperiment.Outcome.mean(o.answers())).isCloseTo(14.77, within(0.35));
    assertThat(AnswerCountExperiment.Outcome.std(o.answers())).isBetween(0.2, 0.9);
    assertThat(AnswerCountExperiment.Outcome.mean(o.precision())).isCloseTo(0.911, within(0.04));
  }

  @Test
  void table1Algorithm3RunsWithinTheBudgetOnAReducedInstance() {
    AnswerCountExperiment.Outcome o =
        AnswerCountExperiment.run(AnswerCountExperiment.Method.ALGORITHM_3, 8000, 2, Randomness.seeded(3));
    for (int r = 0; r < 2; r++) {
      assertThat(o.answers()[r]).isBetween(8.0, 20.0);
      assertThat(o.precision()[r]).isGreaterThan(0.6);
      assertThat(o.spentOnRejected()[r]).isBetween(0.0, AnswerCountExperiment.BUDGET);
    }
  }
}
