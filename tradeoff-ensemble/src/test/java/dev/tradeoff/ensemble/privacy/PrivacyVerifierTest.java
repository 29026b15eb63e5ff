package dev.tradeoff.ensemble.privacy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.ensemble.noise.NoiseFunction;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PrivacyVerifierTest {

  /** f of Lemma 3.4 for explicit per-teacher pairs, Poisson-binomial by the direct recursion. */
  static double privacyCost(DarrmSetting s, NoiseFunction gamma, double[] p, double[] pp) {
    int k = s.teachers();
    double[] a = new double[k + 1];
    double[] b = new double[k + 1];
    a[0] = 1;
    b[0] = 1;
    for (int i = 0; i < k; i++) {
      PrivacyVerifier.addBernoulli(a, i, p[i]);
      PrivacyVerifier.addBernoulli(b, i, pp[i]);
    }
    double e = s.expTarget();
    double f = 0;
    for (int l = 0; l <= k; l++) {
      f += l <= (k - 1) / 2 ? (e * b[l] - a[l]) * gamma.at(l) : (a[l] - e * b[l]) * gamma.at(l);
    }
    return f;
  }

  /** Max of f over all 8^K (or 4^K) ordered corner assignments. */
  static double bruteForceMax(DarrmSetting s, NoiseFunction gamma) {
    List<Corner> corners = Corner.of(s.epsilon(), s.teacherDelta());
    int k = s.teachers();
    int n = corners.size();
    int total = (int) Math.pow(n, k);
    double best = Double.NEGATIVE_INFINITY;
    double[] p = new double[k];
    double[] pp = new double[k];
    for (int code = 0; code < total; code++) {
      int x = code;
      for (int i = 0; i < k; i++) {
        Corner c = corners.get(x % n);
        x /= n;
        p[i] = c.p();
        pp[i] = c.pPrime();
      }
      best = Math.max(best, privacyCost(s, gamma, p, pp));
    }
    return best;
  }

  @Test
  void multisetEnumerationEqualsBruteForceOverOrderedCornerAssignments() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int trial = 0; trial < 12; trial++) {
      int k = trial % 2 == 0 ? 3 : 5;
      double delta = trial % 3 == 0 ? 0 : 0.05;
      DarrmSetting s = new DarrmSetting(k, new dev.tradeoff.accounting.guarantee.ApproxDp(
          0.3 + rnd.nextDouble(), delta), 1 + rnd.nextDouble() * (k - 1), delta * 2);
      double[] free = new double[(k + 1) / 2];
      for (int u = 0; u < free.length; u++) {
        free[u] = rnd.nextDouble();
      }
      NoiseFunction gamma = NoiseFunction.fromFreeValues(k, free);
      PrivacyCertificate c = new PrivacyVerifier(s).certify(gamma);
      assertThat(c.maxPrivacyCost()).isCloseTo(bruteForceMax(s, gamma), within(1e-12));
      assertThat(c.worstCase().stream().mapToInt(CornerCount::count).sum()).isEqualTo(k);
    }
  }

  @Test
  void randomPointsOfTheFeasibleRegionsNeverExceedTheCornerMaximum() {
    SplittableRandom rnd = new SplittableRandom(5);
    DarrmSetting s = DarrmSetting.withDefaultDelta(7, 0.4, 0.02, 2);
    NoiseFunction gamma = NoiseFunction.subsampling(7, 3);
    double max = new PrivacyVerifier(s).certify(gamma).maxPrivacyCost();
    double e = Math.exp(0.4);
    double[] p = new double[7];
    double[] pp = new double[7];
    for (int trial = 0; trial < 20_000; trial++) {
      for (int i = 0; i < 7; i++) {
        do {
          p[i] = rnd.nextDouble();
          pp[i] = rnd.nextDouble();
        } while (p[i] > e * pp[i] + 0.02 || pp[i] > e * p[i] + 0.02
            || 1 - p[i] > e * (1 - pp[i]) + 0.02 || 1 - pp[i] > e * (1 - p[i]) + 0.02);
      }
      assertThat(privacyCost(s, gamma, p, pp)).isLessThanOrEqualTo(max + 1e-12);
    }
  }

  @Test
  void doubleSubsamplingIsPureDpAsTheorem41States() {
    for (int m = 1; m <= 11; m++) {
      DarrmSetting s = new DarrmSetting(11, new dev.tradeoff.accounting.guarantee.ApproxDp(0.1, 0),
          m, 0);
      PrivacyCertificate c = new PrivacyVerifier(s).certify(NoiseFunction.doubleSubsampling(11, m));
      assertThat(c.isPrivate()).as("m=%d slack=%s", m, c.slack()).isTrue();
    }
  }

  @Test
  void trueMajorityIsPrivateExactlyFromHalfTheTeachersOnAndTightAtAllZero() {
    DarrmSetting six = new DarrmSetting(11, new dev.tradeoff.accounting.guarantee.ApproxDp(0.1, 0),
        6, 0);
    PrivacyCertificate c = new PrivacyVerifier(six).certify(NoiseFunction.constant(11, 1));
    assertThat(c.isPrivate()).isTrue();
    assertThat(c.slack()).isCloseTo(0, within(1e-13));
    DarrmSetting five = new DarrmSetting(11, new dev.tradeoff.accounting.guarantee.ApproxDp(0.1, 0),
        5, 0);
    assertThat(new PrivacyVerifier(five).certify(NoiseFunction.constant(11, 1)).isPrivate())
        .isFalse();
  }

  @Test
  void subsamplingIsPrivateWithSimpleCompositionDelta() {
    for (int m = 1; m <= 11; m += 2) {
      DarrmSetting s = new DarrmSetting(11, new dev.tradeoff.accounting.guarantee.ApproxDp(0.1,
          1e-5), m, m * 1e-5);
      assertThat(new PrivacyVerifier(s).certify(NoiseFunction.subsampling(11, m)).isPrivate())
          .isTrue();
    }
  }

  @Test
  void scalingBringsAFailingGammaExactlyOntoTheBound() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 2);
    PrivacyVerifier v = new PrivacyVerifier(s);
    PrivacyVerifier.Certified cert = v.certifyOrScale(NoiseFunction.constant(11, 1));
    assertThat(cert.scale()).isLessThan(1);
    assertThat(cert.certificate().isPrivate()).isTrue();
    assertThat(cert.certificate().slack()).isCloseTo(0, within(1e-12));
  }

  @Test
  void shiftSumCostsAgreeWithDirectPoissonBinomialEvaluation() {
    SplittableRandom rnd = new SplittableRandom(21);
    for (int trial = 0; trial < 5; trial++) {
      int k = 9 + 2 * trial;
      DarrmSetting s = DarrmSetting.withDefaultDelta(k, 0.2, 1e-3, 1 + rnd.nextInt(k));
      double[] free = new double[(k + 1) / 2];
      for (int u = 0; u < free.length; u++) {
        free[u] = rnd.nextDouble();
      }
      NoiseFunction gamma = NoiseFunction.fromFreeValues(k, free);
      PrivacyVerifier v = new PrivacyVerifier(s);
      List<PrivacyVerifier.ScoredMultiset> worst = v.worst(gamma, 40);
      for (int i = 0; i < worst.size(); i++) {
        PrivacyVerifier.ScoredMultiset w = worst.get(i);
        assertThat(v.privacyCost(gamma, w.multiset())).isCloseTo(w.cost(), within(1e-13));
        if (i > 0) {
          assertThat(w.cost()).isLessThanOrEqualTo(worst.get(i - 1).cost());
        }
      }
    }
  }

  /** Max of f over every multiset of all 8 (or 4) corners, C(K + 7, 7) of them, by direct pmfs. */
  static double multisetBruteForceMax(DarrmSetting s, NoiseFunction gamma) {
    List<Corner> corners = Corner.of(s.epsilon(), s.teacherDelta());
    return multisetMax(s, gamma, corners, 0, s.teachers(), new double[s.teachers()],
        new double[s.teachers()], 0);
  }

  private static double multisetMax(DarrmSetting s, NoiseFunction gamma, List<Corner> corners,
      int type, int left, double[] p, double[] pp, int filled) {
    if (type == corners.size() - 1) {
      for (int i = filled; i < filled + left; i++) {
        p[i] = corners.get(type).p();
        pp[i] = corners.get(type).pPrime();
      }
      return privacyCost(s, gamma, p, pp);
    }
    double best = Double.NEGATIVE_INFINITY;
    for (int n = 0; n <= left; n++) {
      for (int i = filled; i < filled + n; i++) {
        p[i] = corners.get(type).p();
        pp[i] = corners.get(type).pPrime();
      }
      best = Math.max(best, multisetMax(s, gamma, corners, type + 1, left - n, p, pp, filled + n));
    }
    return best;
  }

  @Test
  void mirrorPairReducedSearchFindsTheWorstMultisetOfTheFullEnumeration() {
    SplittableRandom rnd = new SplittableRandom(1313);
    for (int trial = 0; trial < 60; trial++) {
      int k = 1 + 2 * rnd.nextInt(5); // 1..9
      double teacherDelta = trial % 3 == 0 ? 0 : Math.pow(10, -1 - 4 * rnd.nextDouble());
      double epsilon = 0.05 + 1.5 * rnd.nextDouble();
      double m = 1 + rnd.nextDouble() * (k - 1);
      DarrmSetting s = new DarrmSetting(k, new dev.tradeoff.accounting.guarantee.ApproxDp(
          epsilon, teacherDelta), m, DarrmSetting.defaultDelta(teacherDelta, m));
      double[] free = new double[(k + 1) / 2];
      for (int u = 0; u < free.length; u++) {
        // Arbitrary gammas, including non-monotone ones and exact 0/1 plateaus.
        double x = rnd.nextDouble();
        free[u] = x < 0.15 ? 0 : x > 0.85 ? 1 : rnd.nextDouble();
      }
      NoiseFunction gamma = NoiseFunction.fromFreeValues(k, free);
      PrivacyVerifier v = new PrivacyVerifier(s);
      PrivacyCertificate c = v.certify(gamma);
      double brute = multisetBruteForceMax(s, gamma);
      assertThat(c.maxPrivacyCost()).as("trial %d: K=%d eps=%s Delta=%s m=%s", trial, k, epsilon,
          teacherDelta, m).isCloseTo(brute, within(c.tolerance() / 4));
      assertThat(c.isPrivate()).isEqualTo(brute <= c.bound() + c.tolerance());
    }
  }

  @Test
  void certifiedDeltaIsTheTargetWithAmpleSlackAndCoversTheToleranceOnTheBound() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    PrivacyVerifier v = new PrivacyVerifier(s);
    PrivacyCertificate loose = v.certify(NoiseFunction.constant(11, 0.1));
    assertThat(loose.slack()).isGreaterThan(loose.tolerance());
    assertThat(loose.certifiedDelta()).isEqualTo(s.delta());
    PrivacyCertificate tight = v.certifyOrScale(NoiseFunction.constant(11, 1)).certificate();
    assertThat(tight.certifiedDelta()).isGreaterThanOrEqualTo(
        s.delta() + (tight.tolerance() - tight.slack()) / 2);
    assertThat(tight.certifiedDelta()).isLessThanOrEqualTo(s.delta() + tight.tolerance());
    assertThat(tight.certifiedGuarantee().epsilon()).isEqualTo(s.target().epsilon());
  }

  /** γ's signed values c(l) = −γ(l) below the middle, +γ(l) above (Lemma 3.4). */
  private static double[] signed(NoiseFunction gamma) {
    int k = gamma.teachers();
    double[] c = new double[k + 1];
    for (int l = 0; l <= k; l++) {
      c[l] = l <= k / 2 ? -gamma.at(l) : gamma.at(l);
    }
    return c;
  }

  /** K teachers with the given Δ, ε in [0.05, 1.05), m in [1, K] and DaRRM's default δ. */
  private static DarrmSetting randomSetting(SplittableRandom rnd, int k, double teacherDelta) {
    double m = 1 + rnd.nextDouble() * (k - 1);
    return new DarrmSetting(k, new dev.tradeoff.accounting.guarantee.ApproxDp(
        0.05 + rnd.nextDouble(), teacherDelta), m, DarrmSetting.defaultDelta(teacherDelta, m));
  }

  /** A random γ: smooth (a scaled subsampling γ) or arbitrary, with 0/1 plateaus. */
  private static NoiseFunction randomGamma(SplittableRandom rnd, int k, int trial) {
    if (trial % 2 == 0) {
      return NoiseFunction.subsampling(k, 1 + rnd.nextInt(k)).scaled(0.5 + rnd.nextDouble() / 2);
    }
    double[] free = new double[(k + 1) / 2];
    for (int u = 0; u < free.length; u++) {
      double x = rnd.nextDouble();
      free[u] = x < 0.15 ? 0 : x > 0.85 ? 1 : rnd.nextDouble();
    }
    return NoiseFunction.fromFreeValues(k, free);
  }

  /**
   * For every multiset of the random corners with at most one corner of each mirror pair (the
   * re-pairing lemma's reduced space) and {@code firstPair} teachers at H (negative: at H̄; all
   * first-pair counts when null), the largest cost over the splits of the other teachers between
   * (0, 0) and (1, 1), by direct pmfs.
   */
  private static List<Double> reducedSpaceCosts(DarrmSetting s, NoiseFunction gamma,
      Integer firstPair) {
    List<Corner> corners = Corner.of(s.epsilon(), s.teacherDelta());
    int k = s.teachers();
    List<Double> out = new java.util.ArrayList<>();
    double[] p = new double[k];
    double[] pp = new double[k];
    for (int h = -k; h <= k; h++) {
      if (firstPair != null && h != firstPair) {
        continue;
      }
      for (int a = -(k - Math.abs(h)); a <= k - Math.abs(h); a++) {
        int rest = k - Math.abs(h) - Math.abs(a);
        for (int b = -rest; b <= rest; b++) {
          int det = rest - Math.abs(b);
          double best = Double.NEGATIVE_INFINITY;
          for (int ones = 0; ones <= det; ones++) {
            int i = 0;
            int[] signedCounts = {h, a, b};
            for (int pair = 0; pair < 3; pair++) {
              Corner c = corners.get(2 + 2 * pair + (signedCounts[pair] < 0 ? 1 : 0));
              for (int j = 0; j < Math.abs(signedCounts[pair]); j++, i++) {
                p[i] = c.p();
                pp[i] = c.pPrime();
              }
            }
            for (int j = 0; j < det; j++, i++) {
              p[i] = j < ones ? 1 : 0;
              pp[i] = j < ones ? 1 : 0;
            }
            best = Math.max(best, privacyCost(s, gamma, p, pp));
          }
          out.add(best);
        }
      }
    }
    return out;
  }

  /**
   * The slice lemma: a slice's bound is at least the privacy cost of every multiset in it (by
   * direct enumeration), and exceeds the slice's maximum by at most 2(1 + e^{mε}) (π_1 + π_2 +
   * π_3), the most its excess terms can add.
   */
  @Test
  void sliceBoundIsAnUpperBoundOnEveryMultisetOfTheSlice() {
    SplittableRandom rnd = new SplittableRandom(2525);
    for (int trial = 0; trial < 16; trial++) {
      int k = 3 + 2 * rnd.nextInt(4); // 3..9
      double teacherDelta = Math.pow(10, -1 - 4 * rnd.nextDouble());
      DarrmSetting s = randomSetting(rnd, k, teacherDelta);
      NoiseFunction gamma = randomGamma(rnd, k, trial);
      PrivacyVerifier v = new PrivacyVerifier(s);
      for (PrivacyVerifier.Slice slice : v.slices(signed(gamma))) {
        int firstPair = slice.side() == 0 ? slice.count() : -slice.count();
        double max = reducedSpaceCosts(s, gamma, firstPair).stream()
            .mapToDouble(Double::doubleValue).max().orElseThrow();
        int r = k - slice.count();
        double excess = 0;
        for (int d = 1; d <= 3; d++) {
          excess += binomial(r, d) * Math.pow(teacherDelta, d);
        }
        assertThat(slice.bound()).as("trial %d slice %d", trial, firstPair)
            .isGreaterThanOrEqualTo(max - 1e-13)
            .isLessThanOrEqualTo(max + 2 * (1 + s.expTarget()) * excess + 1e-13);
      }
    }
  }

  private static double binomial(int n, int d) {
    double b = 1;
    for (int i = 1; i <= d; i++) {
      b = b * Math.max(0, n - i + 1) / i;
    }
    return b;
  }

  /**
   * The search that skips slices by their bound returns the same list as the enumeration of the
   * whole reduced space, for small Δ and smooth γ (where most slices are skipped: checked) and
   * for arbitrary γ.
   */
  @Test
  void skippingSlicesKeepsTheExactListOfTheWholeReducedSpace() {
    SplittableRandom rnd = new SplittableRandom(77);
    int skipped = 0;
    for (int trial = 0; trial < 16; trial++) {
      int k = 5 + 2 * rnd.nextInt(4); // 5..11
      double teacherDelta = Math.pow(10, -2 - 4 * rnd.nextDouble());
      DarrmSetting s = randomSetting(rnd, k, teacherDelta);
      NoiseFunction gamma = randomGamma(rnd, k, trial);
      PrivacyVerifier v = new PrivacyVerifier(s);
      int limit = 1 + rnd.nextInt(30);
      List<Double> all = reducedSpaceCosts(s, gamma, null);
      all.sort(java.util.Comparator.reverseOrder());
      List<PrivacyVerifier.ScoredMultiset> worst = v.worst(gamma, limit);
      assertThat(worst).hasSize(limit);
      for (int i = 0; i < limit; i++) {
        assertThat(worst.get(i).cost()).as("trial %d rank %d", trial, i)
            .isCloseTo(all.get(i), within(1e-13));
        assertThat(v.privacyCost(gamma, worst.get(i).multiset()))
            .isCloseTo(worst.get(i).cost(), within(1e-13));
      }
      double floor = worst.get(limit - 1).cost();
      skipped += (int) v.slices(signed(gamma)).stream()
          .filter(slice -> slice.bound() + v.tolerance() / 2 < floor).count();
    }
    assertThat(skipped).as("slices the bound rules out").isGreaterThan(50);
  }

  /**
   * The support-tracking product is bit for bit the product over the whole array, for tiny and
   * near-1 probabilities (whose tails underflow and are dropped from the support) and moderate ones.
   */
  @Test
  void supportTrackingBernoulliProductIsExactlyTheWholeArrayProduct() {
    SplittableRandom rnd = new SplittableRandom(404);
    for (int trial = 0; trial < 40; trial++) {
      int k = 1 + rnd.nextInt(400);
      int start = rnd.nextInt(k);
      double[] whole = new double[k + 1];
      double[] tracked = new double[k + 1];
      whole[start] = 1;
      tracked[start] = 1;
      int[] support = {start, start};
      for (int i = start; i < k; i++) {
        double x = rnd.nextDouble();
        double p = x < 0.3 ? Math.pow(10, -1 - 6 * rnd.nextDouble())
            : x < 0.6 ? 1 - Math.pow(10, -1 - 6 * rnd.nextDouble()) : rnd.nextDouble();
        PrivacyVerifier.addBernoulli(whole, i, p);
        PrivacyVerifier.addBernoulli(tracked, support, p);
      }
      assertThat(tracked).as("trial %d", trial).containsExactly(whole);
    }
  }
}
