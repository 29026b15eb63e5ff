package dev.tradeoff.ensemble.noise;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.accounting.composition.PrivacyAllowance;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyCertificate;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import org.junit.jupiter.api.Test;

class RandomizedResponseTest {

  @Test
  void lemmaA1ConstantPassesTheExactVerifierAndIsAtMostTheBestConstant() {
    for (double delta : new double[] {0, 1e-5}) {
      for (int m = 1; m <= 11; m += 2) {
        DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, delta, m);
        PrivacyAllowance majority = PrivacyAllowance.simpleComposition(new ApproxDp(0.1, delta),
            11);
        NoiseFunction rr = NoiseFunction.randomizedResponse(11, m * 0.1, s.delta(),
            majority.epsilon(), majority.delta());
        PrivacyVerifier v = new PrivacyVerifier(s);
        PrivacyCertificate c = v.certify(rr);
        assertThat(c.isPrivate()).as("delta=%s m=%d", delta, m).isTrue();
        // f is linear in a constant gamma: the best constant is bound / max f(gamma = 1).
        double best = Math.min(1, s.privacyBound()
            / v.certify(NoiseFunction.constant(11, 1)).maxPrivacyCost());
        assertThat(rr.at(0)).isLessThanOrEqualTo(best + 1e-12);
      }
    }
  }

  @Test
  void largestCertifiedConstantIsTheLargestAndSeveralTimesLemmaA1s() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    PrivacyVerifier v = new PrivacyVerifier(s);
    double lemma = Baseline.RANDOMIZED_RESPONSE.certified(v).gamma().at(0);
    PrivacyVerifier.Certified largest = Baseline.LARGEST_CERTIFIED_CONSTANT.certified(v);
    double c = largest.gamma().at(0);
    assertThat(lemma).isCloseTo(0.2975, within(1e-4));
    assertThat(c).isCloseTo(0.8720, within(1e-4));
    assertThat(largest.certificate().isPrivate()).isTrue();
    assertThat(largest.certificate().slack()).isCloseTo(0, within(1e-12));
    // private at the requested δ itself: the computed max f is at least the evaluation error
    // below the bound (it was a few ulps above the largest private constant before)
    assertThat(largest.certificate().slack()).isGreaterThanOrEqualTo(v.tolerance());
    assertThat(largest.certificate().certifiedDelta()).isLessThanOrEqualTo(s.delta());
    // A hair more fails beyond the tolerance: no bisection could find a larger constant.
    assertThat(v.certify(NoiseFunction.constant(11, c * (1 + 1e-9))).isPrivate()).isFalse();
    // Pure DP from half the teachers on: the majority itself (Theorem 4.1).
    DarrmSetting pure = DarrmSetting.withDefaultDelta(11, 0.1, 0, 6);
    assertThat(Baseline.LARGEST_CERTIFIED_CONSTANT.certified(new PrivacyVerifier(pure)).gamma()
        .at(0)).isEqualTo(1.0);
  }

  @Test
  void pureLemmaA1IsAboutMOverKOnlyWhenTauEpsilonIsSmall() {
    // K = 101, eps = 0.01, m = 10: tau eps = 1.01, p_const ~ m/K = 0.099.
    assertThat(NoiseFunction.randomizedResponse(101, 0.1, 0, 1.01, 0).at(0)).isBetween(0.09, 0.12);
    // eps = 0.1: tau eps = 10.1 is far from small and p_const = 0.46, not m/K.
    assertThat(NoiseFunction.randomizedResponse(101, 1.0, 0, 10.1, 0).at(0))
        .isBetween(0.46, 0.47);
  }
}
