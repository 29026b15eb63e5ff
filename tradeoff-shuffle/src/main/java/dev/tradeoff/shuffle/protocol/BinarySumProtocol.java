package dev.tradeoff.shuffle.protocol;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The shuffled protocol P^{0/1}_{n,λ} for a sum of bits ([ShuffleGDP21, Algorithm 1]; Cheu et al.
 * 2019): every user applies {@link LocalRandomizer R_{n,λ}}, the {@link Shuffler} permutes the n
 * reports, and the analyzer returns z = n/(n − λ) · (Σ y_i − λ/2).
 *
 * <p>Each report is y_i ~ Ber(p) for x_i = 0 and Ber(1 − p) for x_i = 1 with p = λ/(2n), so
 * E[Σ y_i] = (1 − λ/n) Σ x_i + λ/2 and z is unbiased. The reports are independent with variance
 * p(1 − p) each whatever the input, so Var z = (n/(n − λ))² · n p (1 − p) exactly.
 */
public final class BinarySumProtocol {

  private final ShuffleParameters parameters;
  private final LocalRandomizer randomizer;

  public BinarySumProtocol(ShuffleParameters parameters) {
    this.parameters = Require.nonNull("parameters", parameters);
    this.randomizer = new LocalRandomizer(parameters);
  }

  /** The n local reports, shuffled: what the analyzer receives. */
  public int[] shuffledReports(int[] bits, RandomGenerator random) {
    Require.nonNull("bits", bits);
    Require.that(bits.length == parameters.users(), "bits.length",
        "must equal the number of users " + parameters.users(), bits.length);
    int[] reports = new int[bits.length];
    for (int i = 0; i < bits.length; i++) {
      Require.that(bits[i] == 0 || bits[i] == 1, "bits[" + i + "]", "must be 0 or 1", bits[i]);
      reports[i] = randomizer.randomize(bits[i], random);
    }
    return Shuffler.shuffle(reports, random);
  }

  /** The analyzer A: the debiased sum of the (shuffled) reports. */
  public SumEstimate analyze(int[] shuffledReports) {
    Require.nonNull("shuffledReports", shuffledReports);
    Require.that(shuffledReports.length == parameters.users(), "shuffledReports.length",
        "must equal the number of users " + parameters.users(), shuffledReports.length);
    long ones = 0;
    for (int y : shuffledReports) {
      ones += y;
    }
    int n = parameters.users();
    double lambda = parameters.lambda();
    return new SumEstimate(n / (n - lambda) * (ones - lambda / 2), variance());
  }

  /** Runs the whole protocol on the users' bits. */
  public SumEstimate run(int[] bits, RandomGenerator random) {
    return analyze(shuffledReports(bits, random));
  }

  /** The exact variance (n/(n − λ))² · n p (1 − p), p = λ/(2n), the same for every input. */
  public double variance() {
    int n = parameters.users();
    double p = parameters.flipProbability();
    double scale = n / (n - parameters.lambda());
    return scale * scale * n * p * (1 - p);
  }

  public ShuffleParameters parameters() {
    return parameters;
  }
}
