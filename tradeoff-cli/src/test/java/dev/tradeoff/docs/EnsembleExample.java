package dev.tradeoff.docs;

import dev.tradeoff.ensemble.aggregate.Darrm;
import dev.tradeoff.ensemble.noise.NoiseFunction;
import dev.tradeoff.ensemble.optimize.Baseline;
import dev.tradeoff.ensemble.privacy.DarrmSetting;
import dev.tradeoff.ensemble.privacy.PrivacyVerifier;
import dev.tradeoff.mechanisms.random.Randomness;

/** docs/ensemble.md. */
final class EnsembleExample {
  private EnsembleExample() {}

  record Out(int label, boolean certified) {}

  static Out run() {
    // [example]
    // K = 11 teachers, each (0.1, 1e-5)-DP; the released label may cost m = 3 teachers' worth.
    DarrmSetting setting = DarrmSetting.withDefaultDelta(11, 0.1, 1e-5, 3);
    PrivacyVerifier verifier = new PrivacyVerifier(setting);
    NoiseFunction gammaSub = Baseline.SUBSAMPLING.certified(verifier).gamma();
    boolean certified = verifier.certify(gammaSub).isPrivate(); // true
    int[] votes = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
    int label = Darrm.aggregate(votes, gammaSub, Randomness.secure()); // (0.3, ~3e-5)-DP
    // [/example]
    return new Out(label, certified);
  }
}
