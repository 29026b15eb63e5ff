package dev.tradeoff.shuffle.protocol;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * The shuffled protocol P^R_{n,λ,r} for a sum of values in [0, 1] ([ShuffleGDP21, Algorithm 3];
 * Cheu et al. 2019): every user encodes x_i with {@link UnaryEncoder E_r}, applies the local
 * randomizer R_{n,λ} to each of the r bits (fresh coins per bit), the shuffler permutes all n·r
 * messages, and the analyzer returns z = n/(r(n − λ)) · (Σ_{i,j} y_{ij} − λ r/2).
 *
 * <p>E[Σ_j b_{ij}] = x_i r and E[y] = (1 − λ/n) b + λ/(2n), so z is unbiased. Within a user only
 * the bit at position μ_i is random and each message depends on one bit, so all n·r messages are
 * independent Bernoulli(π_{ij}) with π = p for a certain 0, 1 − p for a certain 1 and
 * p + (1 − 2p)·P[b_{iμ} = 1] at the random position: Var z = (n/(r(n − λ)))² Σ π(1 − π) exactly
 * ({@link #variance(double[])}); the analyzer does not see x and reports the input-free bound
 * with π(1 − π) ≤ 1/4 at each user's random position ({@link #varianceBound()}).
 */
public final class RealSumProtocol {

  private final ShuffleParameters parameters;
  private final UnaryEncoder encoder;
  private final LocalRandomizer randomizer;

  /**
   * @param parameters n and λ
   * @param bits r ≥ 1
   */
  public RealSumProtocol(ShuffleParameters parameters, int bits) {
    this.parameters = Require.nonNull("parameters", parameters);
    this.encoder = new UnaryEncoder(bits);
    this.randomizer = new LocalRandomizer(parameters);
  }

  /** The n·r messages after encoding, randomizing and shuffling. */
  public int[] shuffledReports(double[] values, RandomGenerator random) {
    checkValues(values);
    int r = encoder.bits();
    int[] reports = new int[Math.multiplyExact(values.length, r)];
    for (int i = 0; i < values.length; i++) {
      int[] b = encoder.encode(values[i], random);
      for (int j = 0; j < r; j++) {
        reports[i * r + j] = randomizer.randomize(b[j], random);
      }
    }
    return Shuffler.shuffle(reports, random);
  }

  /** The analyzer: the debiased total of the messages, with {@link #varianceBound()}. */
  public SumEstimate analyze(int[] shuffledReports) {
    Require.nonNull("shuffledReports", shuffledReports);
    int r = encoder.bits();
    int n = parameters.users();
    Require.that(shuffledReports.length == n * r, "shuffledReports.length",
        "must equal users * bits = " + (n * r), shuffledReports.length);
    long ones = 0;
    for (int y : shuffledReports) {
      ones += y;
    }
    double lambda = parameters.lambda();
    double z = n / (r * (n - lambda)) * (ones - lambda * r / 2);
    return new SumEstimate(z, varianceBound());
  }

  /** Runs the whole protocol on the users' values in [0, 1]. */
  public SumEstimate run(double[] values, RandomGenerator random) {
    return analyze(shuffledReports(values, random));
  }

  /** The exact variance of z for the given input. */
  public double variance(double[] values) {
    checkValues(values);
    double p = parameters.flipProbability();
    int r = encoder.bits();
    double sum = 0;
    for (double x : values) {
      for (int j = 1; j <= r; j++) {
        double pi = p + (1 - 2 * p) * encoder.oneProbability(x, j);
        sum += pi * (1 - pi);
      }
    }
    return scale() * scale() * sum;
  }

  /**
   * The largest variance over all inputs: (n/(r(n − λ)))² · n ((r − 1) p (1 − p) + 1/4), an upper
   * bound on {@link #variance(double[])} for every input.
   */
  public double varianceBound() {
    double p = parameters.flipProbability();
    int n = parameters.users();
    return scale() * scale() * n * ((encoder.bits() - 1) * p * (1 - p) + 0.25);
  }

  private double scale() {
    int n = parameters.users();
    return n / (encoder.bits() * (n - parameters.lambda()));
  }

  private void checkValues(double[] values) {
    Require.nonNull("values", values);
    Require.that(values.length == parameters.users(), "values.length",
        "must equal the number of users " + parameters.users(), values.length);
    for (int i = 0; i < values.length; i++) {
      Require.probability("values[" + i + "]", values[i]);
    }
  }

  public ShuffleParameters parameters() {
    return parameters;
  }

  public int bits() {
    return encoder.bits();
  }
}
