package dev.tradeoff.ensemble.pate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The rule that picks the smooth-sensitivity release from (ε, δ) ({@link PateCalibration}). */
class ReleaseCalibrationTest {

  /**
   * ε = 2, δ = 1e-5, worked by hand: room(λ) = 2 − (log(1e5) + 0.4 − ½ log 0.2)/(λ − 1) = 2 −
   * 12.71757/(λ − 1), μ² = 1.8·room/λ: 0.126578 at λ = 12, 0.131364 at λ = 14, 0.129618 at λ =
   * 16, so λ = 14, μ = 0.362442 and σ = √(14 e^{0.8/14}/(0.1·1.021725)) = 12.0450.
   */
  @Test
  void theWorkedExampleMatchesItsHandComputation() {
    PateCalibration.ReleaseChoice c = PateCalibration.release(new ApproxDp(2, 1e-5));
    assertThat(c.release().order()).isEqualTo(14);
    assertThat(c.release().beta()).isEqualTo(0.4 / 14);
    assertThat(c.labelsMu()).isCloseTo(0.362442, within(2e-6));
    assertThat(c.release().sigma()).isCloseTo(12.0450, within(1e-4));
  }

  /**
   * On seeded random (ε, δ, Q, K): the worst case reserved before the run — the labels' RDP at λ
   * plus the release, by Theorem 5 — fits ε and uses it to within 1e-6 relative; no other order of
   * the grid gives the labels a larger μ; and with the labels' noise given, the release fits
   * beside it with the least σ of the grid.
   */
  @Test
  void theChosenReleaseFitsTheBudgetTightlyAndIsTheBestOfTheGrid() {
    SplittableRandom random = new SplittableRandom(17);
    for (int trial = 0; trial < 300; trial++) {
      double epsilon = 1 + 9 * random.nextDouble();
      double delta = Math.pow(10, -4 - 4 * random.nextDouble());
      int queries = 1 + random.nextInt(2000);
      int teachers = 50 + random.nextInt(500);
      ApproxDp target = new ApproxDp(epsilon, delta);
      PateCalibration.ReleaseChoice c = PateCalibration.release(target);
      for (PateAggregator agg : new PateAggregator[] {
          PateCalibration.gnmax(c.labelsMu(), queries),
          PateCalibration.confidentGnmax(c.labelsMu(), queries, teachers)}) {
        DpEvent event = PateRun.exAnteEvent(agg, queries);
        double worst = c.release().dataIndependentEpsilon(event, delta);
        assertThat(worst).as("trial %s", trial).isLessThanOrEqualTo(epsilon)
            .isGreaterThan(epsilon * (1 - 1e-6));
        // the labels' noise given: the rule fits the release beside them
        PateCalibration.ReleaseChoice beside = PateCalibration.release(target, event);
        assertThat(beside.release().dataIndependentEpsilon(event, delta)).as("trial %s", trial)
            .isLessThanOrEqualTo(epsilon);
        assertThat(beside.release().sigma()).isLessThanOrEqualTo(c.release().sigma() * (1
            + 1e-6));
      }
      for (double order : PateCalibration.RELEASE_ORDERS) {
        // (the rule shrinks ε by 1e-9 relative)
        double room = epsilon - Math.log(1 / delta) / (order - 1)
            - (0.4 - 0.5 * Math.log(0.2)) / (order - 1);
        if (room > 0) {
          assertThat(Math.sqrt(1.8 * room / order)).as("trial %s order %s", trial, order)
              .isLessThanOrEqualTo(c.labelsMu() * (1 + 1e-8));
        }
      }
    }
  }

  @Test
  void aBudgetWithNoRoomForTheReleaseIsRefusedNamingEpsilon() {
    assertThatThrownBy(() -> PateCalibration.release(new ApproxDp(0.2, 1e-5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("epsilon").hasMessageContaining("0.2");
    // labels that already spend the budget at every order leave the release nothing
    DpEvent heavy = PateRun.exAnteEvent(new PateAggregator.Gnmax(1), 1000);
    assertThatThrownBy(() -> PateCalibration.release(new ApproxDp(4, 1e-5), heavy))
        .hasMessageContaining("with the given noise");
  }
}
