package dev.tradeoff.ensemble.optimize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.utility.DarrmError;
import org.junit.jupiter.api.Test;

class GammaOptimizerTest {

  private static GammaOptimizer.Result surrogate(DarrmSetting s) {
    return new GammaOptimizer(s).optimize(new Objective.Surrogate(0.75));
  }

  @Test
  void paperK11MEquals3ValuesAreReproduced() {
    GammaOptimizer.Result r = surrogate(DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3));
    double[] expected = {0.939241, 0.542340, 1, 1, 0.977696, 1};
    for (int i = 0; i < 6; i++) {
      assertThat(r.gamma().at(6 + i)).as("gamma(%d)", 6 + i).isCloseTo(expected[i], within(1e-5));
    }
    assertThat(r.certificate().isPrivate()).isTrue();
  }

  @Test
  void mEquals1OptimumIsSubsampling() {
    GammaOptimizer.Result r = surrogate(DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 1));
    NoiseFunction sub = NoiseFunction.subsampling(11, 1);
    for (int l = 0; l <= 11; l++) {
      assertThat(r.gamma().at(l)).as("gamma(%d)", l).isCloseTo(sub.at(l), within(1e-6));
    }
  }

  @Test
  void pureOptimumIsTheTrueMajorityWithZeroErrorFromHalfTheTeachers() {
    for (int m = 6; m <= 11; m++) {
      DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 0, m);
      GammaOptimizer.Result r = surrogate(s);
      assertThat(r.gamma().values()).containsOnly(1.0);
      assertThat(r.gamma()).isEqualTo(NoiseFunction.doubleSubsampling(11, m));
      assertThat(DarrmError.surrogate(r.gamma(), 0.75)).isZero();
    }
  }

  @Test
  void optimumHasTheLowestErrorOfAllBaselines() {
    for (double delta : new double[] {0, 1e-5}) {
      for (int m = 1; m <= 7; m += 2) {
        DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, delta, m);
        GammaOptimizer.Result r = surrogate(s);
        double opt = DarrmError.surrogate(r.gamma(), 0.75);
        assertThat(opt).isLessThanOrEqualTo(
            DarrmError.surrogate(NoiseFunction.subsampling(11, m), 0.75) + 1e-12);
        if (delta == 0) {
          assertThat(opt).isLessThanOrEqualTo(
              DarrmError.surrogate(NoiseFunction.doubleSubsampling(11, m), 0.75) + 1e-12);
        }
        assertThat(r.certificate().isPrivate()).isTrue();
      }
    }
  }

  @Test
  void expectedErrorObjectiveBeatsTheBaselinesOnAFreshMonteCarloSample() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    for (dev.tradeoff.ensemble.utility.Prior prior : java.util.List.of(
        new dev.tradeoff.ensemble.utility.Prior.Uniform(0, 1),
        new dev.tradeoff.ensemble.utility.Prior.Polarized())) {
      GammaOptimizer.Result r = new GammaOptimizer(s).optimize(
          new Objective.ExpectedError(prior, 1500, 17));
      assertThat(r.certificate().isPrivate()).isTrue();
      NoiseFunction sub = NoiseFunction.subsampling(11, 3);
      // Common random numbers: the same seed for every gamma.
      double opt = DarrmError.monteCarlo(r.gamma(), prior, 4000,
          new java.util.SplittableRandom(99)).mean();
      double subErr = DarrmError.monteCarlo(sub, prior, 4000,
          new java.util.SplittableRandom(99)).mean();
      assertThat(opt).isLessThan(subErr);
      // The SAA optimum is at least as good as gamma_Sub on its own sample.
      assertThat(r.objectiveValue()).isLessThanOrEqualTo(subErr * 1.2);
    }
  }

  @Test
  void everyReturnedGammaPassesTheVerifierEvenWithLooseLpTolerances() {
    for (int m : new int[] {2, 4}) {
      DarrmSetting s = DarrmSetting.withDefaultDelta(15, 0.2, 1e-4, m);
      GammaOptimizer.Result r = surrogate(s);
      assertThat(new dev.tradeoff.ensemble.privacy.PrivacyVerifier(s).certify(r.gamma())
          .isPrivate()).isTrue();
    }
  }

  /**
   * K = 301, Δ = 0, m = 10 runs about 30 rounds and drops cuts that stay slack from its LP: the
   * result still passes a fresh exact verifier, beats both baselines, and is within the loop's
   * 1e-4 relative gap of 5.01981774e-4, the optimum found when every cut was kept.
   */
  @Test
  void droppingSlackCutsKeepsTheCertifiedOptimumForManyTeachers() {
    DarrmSetting s = DarrmSetting.withDefaultDelta(301, 0.1, 0, 10);
    GammaOptimizer.Result r = surrogate(s);
    assertThat(new dev.tradeoff.ensemble.privacy.PrivacyVerifier(s).certify(r.gamma())
        .isPrivate()).isTrue();
    double opt = DarrmError.surrogate(r.gamma(), 0.75);
    assertThat(opt).isLessThan(DarrmError.surrogate(NoiseFunction.subsampling(301, 10), 0.75));
    assertThat(opt).isLessThan(
        DarrmError.surrogate(NoiseFunction.doubleSubsampling(301, 10), 0.75));
    assertThat(r.objectiveValue()).isCloseTo(5.01981774e-4, within(2e-4 * 5.02e-4));
  }
}
