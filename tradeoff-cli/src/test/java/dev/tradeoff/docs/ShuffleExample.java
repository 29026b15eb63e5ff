package dev.tradeoff.docs;

import dev.tradeoff.accounting.fdp.GaussianTradeoff;
import dev.tradeoff.mechanisms.random.Randomness;
import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.BinarySumProtocol;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import dev.tradeoff.shuffle.protocol.SumEstimate;
import java.util.Arrays;

/** docs/shuffle.md. */
final class ShuffleExample {
  private ShuffleExample() {}

  record Out(SumEstimate sum, double epsilon, double mu, double paperMu, boolean confirmed,
      double paperEpsilon) {}

  static Out run() {
    // [example]
    // n = 100 users; each reports a fair coin instead of their bit with probability 58/100.
    ShuffleParameters parameters = new ShuffleParameters(100, 58);
    BinarySumProtocol protocol = new BinarySumProtocol(parameters);
    int[] bits = new int[100];
    Arrays.fill(bits, 0, 30, 1); // the true sum is 30
    // Seeded: a reproducible simulation, not private (production passes Randomness.secure()).
    SumEstimate sum = protocol.run(bits, Randomness.seeded(2024));
    // sum.value() is 11.9 with this seed: unbiased for 30, standard error 10.8 for every input

    // The exact worst-case f-DP of the shuffled output, and the paper's claim (Cor. 3.2).
    ShuffleReport report = ShuffleReport.of(parameters, 1, 1e-6);
    double epsilon = report.exact().epsilon(); // about 0.417 at delta = 1e-6
    double mu = report.exact().mu();           // about 0.111
    double paperMu = report.paper().mu();      // about 0.479
    boolean confirmed = report.paper().validLowerBound(); // true here; false for (100, 10)
    double paperEpsilon = new GaussianTradeoff(paperMu).profile().epsilon(1e-6); // about 2.15
    // [/example]
    return new Out(sum, epsilon, mu, paperMu, confirmed, paperEpsilon);
  }
}
