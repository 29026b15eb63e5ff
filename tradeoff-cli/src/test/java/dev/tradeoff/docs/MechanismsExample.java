package dev.tradeoff.docs;

import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.mechanisms.laplace.LaplaceMechanism;
import dev.tradeoff.mechanisms.random.Randomness;
import java.util.random.RandomGenerator;

/** docs/mechanisms.md. */
final class MechanismsExample {
  private MechanismsExample() {}

  record Out(double noisy, PureDp guarantee) {}

  static Out run() {
    // [example]
    LaplaceMechanism laplace = LaplaceMechanism.of(1.0, 1.0); // epsilon = 1, sensitivity 1
    RandomGenerator random = Randomness.secure();              // production noise
    double noisyCount = laplace.release(42.0, random);
    PureDp guarantee = laplace.guarantee();                   // PureDp[epsilon=1.0]
    // [/example]
    return new Out(noisyCount, guarantee);
  }
}
