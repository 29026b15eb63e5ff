package dev.tradeoff.ensemble.pate;

import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.NEAR_UNANIMOUS;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.SPLIT;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.SPREAD;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.STRONG;
import static dev.tradeoff.ensemble.pate.TensorFlowPrivacyFixturesTest.UNANIMOUS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.tradeoff.accounting.guarantee.ApproxDp;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class GnssReleaseTest {

  static final PateAggregator.ConfidentGnmax AGG = new PateAggregator.ConfidentGnmax(150, 30, 40);
  static final VoteTable TABLE = VoteTable.of(List.of(new Votes("a", STRONG),
      new Votes("b", NEAR_UNANIMOUS), new Votes("c", SPLIT), new Votes("d", UNANIMOUS),
      new Votes("e", SPREAD)));
  static final List<Answer> ANSWERS = List.of(new Answer.Labelled(0), new Answer.Labelled(0),
      new Answer.Abstained(), new Answer.Labelled(0), new Answer.Abstained());
  static final PateRun RUN = new PateRun(ANSWERS, 3, PateRun.exAnteEvent(AGG, 5),
      new ApproxDp(1, 1e-5));

  /**
   * f(D) and SS_β(D) of a run against the sums of TensorFlow Privacy's per-query functions ({@code
   * core.compute_rdp_threshold}, {@code core.rdp_gaussian}, {@code
   * smooth_sensitivity.compute_local_sensitivity_bounds_threshold} and {@code _gnmax}, then {@code
   * compute_discounted_max}) over the same answered queries (numpy 2.4.6, scipy 1.17.1), each
   * query's local sensitivities replaced by their running maximum over d ({@code
   * np.maximum.accumulate}) before the sum. Summing them as they are, as TensorFlow Privacy's
   * {@code smooth_sensitivity_table.py} does, gives 0.0015388668201920665: 11% lower, and not a
   * bound (the threshold check's LS at distance 50 of the near-unanimous query is 0, at distance
   * 10 it is 1.6e-4, and a histogram 50 teachers away can sit at distance 10's maximum).
   */
  @Test
  void aRunsDataDependentRdpAndSmoothSensitivityMatchTensorFlowPrivacy() {
    GnssRelease gnss = new GnssRelease(20, 0.02, 2);
    assertThat(gnss.exact(RUN, TABLE, AGG))
        .isCloseTo(0.026326495662995827, withinPercentage(1e-4));
    assertThat(gnss.smoothSensitivity(RUN, TABLE, AGG))
        .isCloseTo(0.0017382202976968897, withinPercentage(1e-4));
    assertThat(gnss.cost()).isCloseTo(5.2674601318154695, withinPercentage(1e-4));
  }

  /**
   * The shares a pipeline adds on its workers: in any order and grouping the sum is the same
   * (integers on the 2^−44 grid), each query's value rounded up by less than one unit.
   */
  @Test
  void sharesSumExactlyInAnyOrderAndRoundUp() {
    GnssRelease gnss = new GnssRelease(20, 0.02, 2);
    SmoothSensitivity.Gnmax gnmax = gnss.requireConditions(AGG, TABLE.classes());
    List<GnssRelease.Share> shares = new ArrayList<>();
    for (int q = 0; q < TABLE.size(); q++) {
      GnssRelease.Share s = gnss.share(AGG, gnmax, TABLE.rows().get(q), ANSWERS.get(q));
      double f = AGG.dataDependentRdp(TABLE.rows().get(q), ANSWERS.get(q)
          instanceof Answer.Labelled, 20);
      assertThat(s.rdpValue()).isGreaterThanOrEqualTo(f)
          .isLessThan(f + GnssRelease.Share.UNIT);
      shares.add(s);
    }
    GnssRelease.Share inOrder = gnss.total(RUN, TABLE, AGG);
    SplittableRandom random = new SplittableRandom(8);
    for (int trial = 0; trial < 20; trial++) {
      List<GnssRelease.Share> shuffled = new ArrayList<>(shares);
      java.util.Collections.shuffle(shuffled, new java.util.Random(random.nextLong()));
      // pairwise, as a combiner on several workers would
      GnssRelease.Share left = GnssRelease.Share.none(TABLE.teachers());
      GnssRelease.Share right = GnssRelease.Share.none(TABLE.teachers());
      for (int i = 0; i < shuffled.size(); i++) {
        if (i % 2 == 0) {
          left = left.plus(shuffled.get(i));
        } else {
          right = right.plus(shuffled.get(i));
        }
      }
      assertThat(right.plus(left)).isEqualTo(inOrder);
    }
    assertThatThrownBy(() -> shares.get(0).plus(GnssRelease.Share.none(7)))
        .hasMessageContaining("teachers of the share");
  }

  @Test
  void theReleasedEpsilonAddsTheReleaseCostAndTheDeltaTerm() {
    GnssRelease gnss = GnssRelease.of(20, 10);
    assertThat(gnss.beta()).isEqualTo(0.02);
    GnssRelease.Released r = gnss.release(RUN, TABLE, AGG, 1e-5, new SplittableRandom(3));
    assertThat(r.releasedRdp()).isGreaterThanOrEqualTo(0);
    assertThat(r.releasedRdp() / GnssRelease.GRID).isEqualTo(Math.rint(r.releasedRdp()
        / GnssRelease.GRID));
    assertThat(r.epsilon()).isCloseTo(r.releasedRdp() + gnss.cost() + Math.log(1e5) / 19,
        within(1e-12));
    // the worst case at λ = 20: μ² = 5/30² + 5·2/40², RDP 20μ²/2
    double mu2 = 5 / 900.0 + 10 / 1600.0;
    assertThat(r.dataIndependentEpsilon()).isCloseTo(10 * mu2 + gnss.cost() + Math.log(1e5) / 19,
        within(1e-12));
    assertThat(r.charged().epsilon()).isEqualTo(Math.min(r.epsilon(), r.dataIndependentEpsilon()));
    assertThat(r.dataDependentCharged()).isTrue();
  }

  @Test
  void theReleaseIsTheExactValuePlusGaussianNoiseOfScaleSmoothSensitivityTimesSigma() {
    GnssRelease gnss = GnssRelease.of(20, 10);
    double f = gnss.exact(RUN, TABLE, AGG);
    double scale = gnss.smoothSensitivity(RUN, TABLE, AGG) * 10;
    SplittableRandom random = new SplittableRandom(17);
    int n = 500;
    double sum = 0;
    double sumSq = 0;
    for (int i = 0; i < n; i++) {
      double x = gnss.release(RUN, TABLE, AGG, 1e-5, random).releasedRdp();
      sum += x;
      sumSq += x * x;
    }
    double mean = sum / n;
    double sd = Math.sqrt(sumSq / n - mean * mean);
    // f ≈ 0.026 is 1.7 noise standard deviations above 0, so the clamp at 0 biases little
    assertThat(sd).isCloseTo(scale, withinPercentage(12));
    assertThat(mean).isCloseTo(f, within(5 * scale / Math.sqrt(n) + 0.005));
  }

  /**
   * The two facts the release's proof rests on, on seeded random tables and neighbours (one
   * teacher's vote moves on every query): |f(D) − f(D′)| is at most the summed local sensitivity at
   * distance 0, and SS_β is β-smooth, SS_β(D) ≤ e^β SS_β(D′).
   */
  @Test
  void localSensitivityBoundsNeighboursAndTheSmoothSensitivityIsBetaSmooth() {
    SplittableRandom random = new SplittableRandom(2018);
    GnssRelease gnss = GnssRelease.of(16, 5);
    SmoothSensitivity.Gnmax gnmax = new SmoothSensitivity.Gnmax(40, 16, 4);
    for (int trial = 0; trial < 200; trial++) {
      int k = 30 + random.nextInt(120);
      List<Votes> rows = new ArrayList<>();
      List<Votes> neighbours = new ArrayList<>();
      List<Answer> answers = new ArrayList<>();
      for (int q = 0; q < 4; q++) {
        int[] counts = new int[4];
        double skew = random.nextDouble();
        for (int t = 0; t < k; t++) {
          counts[random.nextDouble() < skew ? 0 : random.nextInt(4)]++;
        }
        int[] moved = counts.clone();
        int from;
        do {
          from = random.nextInt(4);
        } while (moved[from] == 0);
        int to = (from + 1 + random.nextInt(3)) % 4;
        moved[from]--;
        moved[to]++;
        rows.add(new Votes("q" + q, counts));
        neighbours.add(new Votes("q" + q, moved));
        answers.add(random.nextBoolean() ? new Answer.Labelled(0) : new Answer.Abstained());
        double ls0 = gnmax.localSensitivities(counts)[0];
        double change = Math.abs(gnmax.rdp(dev.tradeoff.ensemble.gnmax.GnMax.logQ(counts, 40))
            - gnmax.rdp(dev.tradeoff.ensemble.gnmax.GnMax.logQ(moved, 40)));
        assertThat(change).as("trial %s %s -> %s", trial, counts, moved)
            .isLessThanOrEqualTo(ls0 * (1 + 1e-9) + 1e-15);
      }
      PateAggregator agg = new PateAggregator.ConfidentGnmax(0.6 * k, 0.2 * k, 40);
      int answered = (int) answers.stream().filter(a -> a instanceof Answer.Labelled).count();
      PateRun run = new PateRun(answers, answered, PateRun.exAnteEvent(agg, 4),
          new ApproxDp(1, 1e-5));
      VoteTable d = VoteTable.of(rows);
      VoteTable dPrime = VoteTable.of(neighbours);
      double ss = gnss.smoothSensitivity(run, d, agg);
      double ssPrime = gnss.smoothSensitivity(run, dPrime, agg);
      assertThat(ss).as("trial %s", trial)
          .isLessThanOrEqualTo(Math.exp(gnss.beta()) * ssPrime * (1 + 1e-9));
      assertThat(Math.abs(gnss.exact(run, d, agg) - gnss.exact(run, dPrime, agg)))
          .as("trial %s", trial).isLessThanOrEqualTo(ss * (1 + 1e-9) + 1e-15);
    }
  }

  @Test
  void parametersOutsideTheoremTwentyThreeOrConditionsC5C6AreRefused() {
    assertThatThrownBy(() -> new GnssRelease(20, 0.025, 1))
        .hasMessageContaining("beta").hasMessageContaining("0.025");
    assertThatThrownBy(() -> new GnssRelease(1, 0.1, 1)).hasMessageContaining("order");
    assertThatThrownBy(() -> new GnssRelease(20, 0.01, 0)).hasMessageContaining("sigma");
    // σ₂ = 20 with ten classes at λ = 20: C6 fails (TensorFlow Privacy's check_conditions agrees)
    PateAggregator agg = new PateAggregator.ConfidentGnmax(150, 30, 20);
    assertThatThrownBy(() -> GnssRelease.of(20, 10).release(RUN, TABLE, agg, 1e-5,
        new SplittableRandom(1))).hasMessageContaining("C5 and C6")
        .hasMessageContaining("sigma2 = 20.0");
  }
}
