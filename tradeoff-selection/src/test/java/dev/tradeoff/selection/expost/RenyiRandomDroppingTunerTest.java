package dev.tradeoff.selection.expost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Theorem 13's ε̃ and the choice of ℓ_i. */
class RenyiRandomDroppingTunerTest {

  private static RenyiRandomDroppingTuner<Integer> tuner(double[] eps, double epsPrime, double alpha) {
    List<RdpCandidate<Integer>> cs = new ArrayList<>();
    for (double e : eps) {
      cs.add(new RdpCandidate<>(r -> new Scored<>(0, 0), RenyiDp.ofOrder(alpha, e)));
    }
    return RenyiRandomDroppingTuner.of(cs, epsPrime, alpha);
  }

  @Test
  void singleCandidateNeedsNoOffsetAndMatchesTheFormulaByHand() {
    // d = 1: τ = ε′/(ε′ + ε); ε̃ = 2ε + ε′ + log(τ + 1)/(α − 1); ε̃(⊥) = log(τ + 1)/(α − 1)
    RenyiRandomDroppingTuner<Integer> t = tuner(new double[] {0.5}, 0.1, 3);
    double tau = 0.1 / 0.6;
    assertThat(t.expectedRuns()).isCloseTo(tau, within(1e-15));
    assertThat(t.offset(0)).isZero();
    assertThat(t.epsilonOfCandidate(0))
        .isCloseTo(1.1 + Math.log1p(tau) / 2, within(1e-13))
        .isGreaterThanOrEqualTo(1.1 + Math.log1p(tau) / 2);
    assertThat(t.epsilonOfNone()).isGreaterThanOrEqualTo(Math.log1p(tau) / 2);
  }

  @Test
  void chosenOffsetMinimisesTheBoundOverAFineGrid() {
    SplittableRandom r = new SplittableRandom(7);
    for (int trial = 0; trial < 40; trial++) {
      int d = 2 + r.nextInt(30);
      double[] eps = new double[d];
      for (int i = 0; i < d; i++) {
        eps[i] = 0.01 + r.nextDouble();
      }
      double alpha = 1.5 + 30 * r.nextDouble();
      RenyiRandomDroppingTuner<Integer> t = tuner(eps, 0.01 + 0.1 * r.nextDouble(), alpha);
      for (int i = 0; i < d; i++) {
        double best = t.epsilonOfCandidate(i, t.offset(i));
        assertThat(t.epsilonOfCandidate(i)).isGreaterThanOrEqualTo(best);
        for (double l = 0; l < 50; l += 0.05) {
          assertThat(best).isLessThanOrEqualTo(t.epsilonOfCandidate(i, l) + 1e-12);
        }
      }
    }
  }

  @Test
  void manyEqualCandidatesPayLogarithmicallyAsSection42Remarks() {
    // ε_i = ε: with ℓ = O(log d/(εα)), ε̃ = 2ε + ε′ + O(log d/α); check growth is at most
    // logarithmic in d: doubling d adds at most a bounded amount
    double prev = tuner(new double[] {0.5}, 0.01, 10).epsilonOfCandidate(0);
    for (int d = 2; d <= 1024; d *= 2) {
      double[] eps = new double[d];
      java.util.Arrays.fill(eps, 0.5);
      double now = tuner(eps, 0.01, 10).epsilonOfCandidate(0);
      assertThat(now).isGreaterThanOrEqualTo(prev - 1e-12).isLessThan(prev + 0.3);
      prev = now;
    }
  }

  @Test
  void guaranteeConvertsToExPostApproximateDpByLemma7() {
    RenyiRandomDroppingTuner<Integer> t = tuner(new double[] {0.2, 0.4}, 0.05, 8);
    var approx = t.guarantee().toExPostDp(1e-6);
    TuningOutcome<Integer> o = new TuningOutcome.Selected<>(new Scored<>(0, 0), 1);
    assertThat(approx.epsilonOf(o))
        .isCloseTo(t.epsilonOfCandidate(1) + Math.log(1e6) / 7, within(1e-12));
    assertThat(approx.delta()).isEqualTo(1e-6);
  }
}
