package dev.tradeoff.ensemble.pate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.ensemble.gnmax.GnMax;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The data-dependent RDP of Papernot et al. 2018 (Theorem 6 with Proposition 7; the threshold check
 * of Algorithm 1) against the analysis code of TensorFlow Privacy, {@code research/pate_2018/core.py}
 * ({@code compute_logq_gaussian}, {@code rdp_gaussian}, {@code compute_logpr_answered}, {@code
 * compute_rdp_threshold}, {@code compute_eps_from_delta}), run locally with Debian's numpy 2.4.6 and
 * scipy 1.17.1 on the votes below, at orders 1.5, 2, 5, 10, 20, 50, 100. Agreement to 1e-6 relative.
 */
class TensorFlowPrivacyFixturesTest {

  static final double[] ORDERS = {1.5, 2, 5, 10, 20, 50, 100};
  static final double TOLERANCE_PERCENT = 1e-4; // 1e-6 relative

  static int[] tenClasses(int... top) {
    int[] counts = new int[10];
    System.arraycopy(top, 0, counts, 0, top.length);
    return counts;
  }

  static final int[] STRONG = tenClasses(200, 30, 20);
  static final int[] NEAR_UNANIMOUS = tenClasses(240, 5, 5);
  static final int[] SPLIT = tenClasses(130, 120);
  static final int[] UNANIMOUS = tenClasses(250);
  static final int[] SPREAD = {60, 50, 40, 30, 20, 20, 10, 10, 5, 5};

  static void assertCurve(double[] actual, double[] expected) {
    for (int i = 0; i < expected.length; i++) {
      assertThat(actual[i]).as("order %s", ORDERS[i])
          .isCloseTo(expected[i], withinPercentage(TOLERANCE_PERCENT));
    }
  }

  static double[] gnmax(int[] counts, double sigma) {
    double[] out = new double[ORDERS.length];
    for (int i = 0; i < ORDERS.length; i++) {
      out[i] = GnMax.theorem6(GnMax.logQ(counts, sigma), sigma, ORDERS[i]);
    }
    return out;
  }

  static double[] threshold(int[] counts, double t, double sigma1) {
    PateAggregator.ConfidentGnmax c = new PateAggregator.ConfidentGnmax(t, sigma1, 1);
    double[] out = new double[ORDERS.length];
    for (int i = 0; i < ORDERS.length; i++) {
      out[i] = c.dataDependentRdp(new Votes("q", counts), false, ORDERS[i]);
    }
    return out;
  }

  @Test
  void proposition7LogQMatchesComputeLogqGaussian() {
    assertThat(GnMax.logQ(STRONG, 40)).isCloseTo(-5.659945978483009,
        withinPercentage(TOLERANCE_PERCENT));
    assertThat(GnMax.logQ(NEAR_UNANIMOUS, 40)).isCloseTo(-9.115466408731283,
        withinPercentage(TOLERANCE_PERCENT));
    assertThat(GnMax.logQ(UNANIMOUS, 20)).isCloseTo(-39.97578315157457,
        withinPercentage(TOLERANCE_PERCENT));
    assertThat(GnMax.logQ(SPLIT, 20)).isCloseTo(-1.0165144191168693,
        withinPercentage(TOLERANCE_PERCENT));
  }

  @Test
  void theorem6ForGnmaxMatchesRdpGaussian() {
    assertCurve(gnmax(STRONG, 40), new double[] {0.0008665882727603557, 0.0008796578296676374,
        0.0009701000005208364, 0.0011803544483336209, 0.0019955507553328132,
        0.01644815367380277, 0.0625});
    assertCurve(gnmax(NEAR_UNANIMOUS, 40), new double[] {3.515148827205815e-05,
        3.583290572771615e-05, 4.075096391299932e-05, 5.341100954411614e-05,
        0.00011502762493493275, 0.0034758875465385566, 0.05953665400159056});
    // a close vote: the data-independent λ/σ²
    assertCurve(gnmax(SPLIT, 40), new double[] {0.0009375, 0.00125, 0.003125, 0.00625, 0.0125,
        0.03125, 0.0625});
    assertCurve(gnmax(STRONG, 20), new double[] {1.117520507811575e-09, 1.1854695407850544e-09,
        1.9345170290875042e-09, 7.489473620370448e-09, 3.2267698322504817e-07,
        0.03843948059266211, 0.25});
    assertCurve(gnmax(UNANIMOUS, 20), new double[] {7.069413045163854e-18, 7.676683874775886e-18,
        1.6513767709251862e-17, 1.4974271859758842e-16, 3.9613178488372607e-14,
        2.8612985382378215e-06, 0.23096826264217984});
  }

  @Test
  void thresholdCheckMatchesComputeRdpThreshold() {
    assertThat(new PateAggregator.ConfidentGnmax(150, 30, 1)
        .logProbabilityAnswered(new Votes("q", NEAR_UNANIMOUS)))
        .isCloseTo(-0.0013508099647481925, withinPercentage(TOLERANCE_PERCENT));
    assertCurve(threshold(NEAR_UNANIMOUS, 150, 30), new double[] {0.0003424772334983117,
        0.00034777002523903597, 0.0003845347107309097, 0.0004708251070330346,
        0.0008138327545543553, 0.008718447383984954, 0.05503199156809904});
    // a likely abstention is as cheap as a likely answer: q = min(Pr[answer], Pr[abstain])
    assertCurve(threshold(SPREAD, 150, 30), new double[] {0.0003424772334983117,
        0.00034777002523903597, 0.0003845347107309097, 0.0004708251070330346,
        0.0008138327545543553, 0.008718447383984954, 0.05503199156809904});
    assertCurve(threshold(UNANIMOUS, 100, 20), new double[] {2.9309941526626445e-14,
        3.083496661534208e-14, 4.61771741253137e-14, 1.3634317973971638e-13,
        3.090507424284586e-12, 1.693078930624738e-07, 0.0815372719373389});
    assertCurve(threshold(SPREAD, 100, 20), new double[] {0.0018749999999999997,
        0.0024999999999999996, 0.0062499999999999995, 0.009268194682494645,
        0.016198145789844617, 0.06249999999999999, 0.12499999999999999});
    // σ₁ = 150: the data-independent λ/(2σ₁²) everywhere
    assertCurve(threshold(STRONG, 200, 150), new double[] {3.3333333333333335e-05,
        4.4444444444444447e-05, 0.00011111111111111112, 0.00022222222222222223,
        0.00044444444444444447, 0.0011111111111111111, 0.0022222222222222222});
  }

  @Test
  void aRunsCurveAndEpsilonMatchTheSumOverQueriesAndComputeEpsFromDelta() {
    VoteTable table = VoteTable.of(List.of(new Votes("a", STRONG), new Votes("b", NEAR_UNANIMOUS),
        new Votes("c", SPLIT), new Votes("d", UNANIMOUS), new Votes("e", SPREAD)));
    PateAggregator agg = new PateAggregator.ConfidentGnmax(150, 30, 20);
    PateRun run = new PateRun(List.of(new Answer.Labelled(0), new Answer.Labelled(0),
        new Answer.Abstained(), new Answer.Labelled(0), new Answer.Abstained()), 3,
        PateRun.exAnteEvent(agg, 5), new ApproxDp(1, 1e-5));
    PateRun.DataDependent dd = run.dataDependent(table, agg, ORDERS, 1e-5);
    assertCurve(dd.rdp().epsilons(), new double[] {0.00246999999071081, 0.003038130023612038,
        0.006458990666749129, 0.012221042228753688, 0.02416302678312299, 0.11644333696375528,
        0.9940262371558073});
    assertThat(dd.epsilon()).isCloseTo(0.35140099951416814, withinPercentage(TOLERANCE_PERCENT));
    assertThat(dd.order()).isEqualTo(50);
  }
}
