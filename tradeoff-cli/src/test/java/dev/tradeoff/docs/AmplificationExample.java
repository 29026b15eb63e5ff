package dev.tradeoff.docs;

import dev.tradeoff.amplification.bernoulli.BernoulliSampling;

/** docs/amplification.md. */
final class AmplificationExample {
  private AmplificationExample() {}

  static double run() {
    // [example]
    // Renyi order 50, Bernoulli parameter c = 0.1, dimension 1, one sample.
    BernoulliSampling sampling = new BernoulliSampling(50, 0.1, 1, 1);
    double amplified = sampling.lowerBound(1.0); // about 0.77307 (from epsilon = 1)
    // [/example]
    return amplified;
  }
}
