package dev.tradeoff.ensemble.optimize;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.composition.PrivacyAllowance;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.ensemble.utility.DarrmError;
import org.junit.jupiter.api.Test;

/**
 * [DaRRM24, Appendix D.1.1] / Figure 6: K = 35, ε = 0.1, Δ = 1e-5, m and δ from general composition of
 * M subsampled teachers with δ′ = 0.1.
 */
class Figure6SettingTest {

  private static final ApproxDp TEACHER = new ApproxDp(0.1, 1e-5);

  @Test
  void generalCompositionDeltaMakesTheTrueMajorityFeasible() {
    for (int bigM : new int[] {10, 13, 15, 20}) {
      PrivacyAllowance a = PrivacyAllowance.generalComposition(TEACHER, bigM, 0.1);
      DarrmSetting s = new DarrmSetting(35, TEACHER, a.multiplier(), a.delta());
      // δ ≈ 0.1001 puts 2δ ≈ 0.2 into the bound: γ ≡ 1, zero error, is already private.
      assertThat(new PrivacyVerifier(s).certify(NoiseFunction.constant(35, 1)).isPrivate())
          .as("M=%d", bigM).isTrue();
    }
  }

  @Test
  void withDeltaOneMinusOneMinusDeltaToTheMTheOptimumIsNonTrivialAndBeatsTheBaselines() {
    PrivacyAllowance a = PrivacyAllowance.generalComposition(TEACHER, 10, 0.1);
    DarrmSetting s = new DarrmSetting(35, TEACHER, a.multiplier(),
        DarrmSetting.defaultDelta(1e-5, 10));
    PrivacyVerifier v = new PrivacyVerifier(s);
    assertThat(v.certify(NoiseFunction.constant(35, 1)).isPrivate()).isFalse();
    GammaOptimizer.Result r = new GammaOptimizer(s).optimize(new Objective.Surrogate(0.75));
    assertThat(r.certificate().isPrivate()).isTrue();
    double opt = DarrmError.surrogate(r.gamma(), 0.75);
    assertThat(opt).isPositive();
    for (Baseline b : Baseline.values()) {
      assertThat(opt).as(b.name())
          .isLessThanOrEqualTo(DarrmError.surrogate(b.certified(v).gamma(), 0.75) + 1e-12);
    }
  }
}
