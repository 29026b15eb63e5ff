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
}
