package dev.tradeoff.ensemble.utility;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * A prior T over a teacher's probability p_i of voting 1; the teachers' p_i are drawn i.i.d. from
 * it [DaRRM24, Section 5, Eq. 2, and Appendix D.1.3].
 */
public sealed interface Prior {

  /** One draw of p_i. */
  double sample(RandomGenerator random);

  /** Uniform on [lower, upper]: T_U = Uniform([0, 1]) is {@code new Uniform(0, 1)}. */
  record Uniform(double lower, double upper) implements Prior {
    public Uniform {
      Require.probability("lower", lower);
      Require.probability("upper", upper);
      Require.that(lower <= upper, "upper", "must be >= lower " + lower, upper);
    }

    @Override
    public double sample(RandomGenerator random) {
      return lower + (upper - lower) * random.nextDouble();
    }
  }

  /** DaRRM's T_P of Appendix D.1.3: uniform on [0, 0.3] ∪ [0.7, 1] (teachers with a clear vote). */
  record Polarized() implements Prior {
    @Override
    public double sample(RandomGenerator random) {
      double u = 0.6 * random.nextDouble();
      return u < 0.3 ? u : u + 0.4;
    }
  }

  /** The empirical distribution of observed p_i values (resampled uniformly). */
  record Empirical(double[] values) implements Prior {
    public Empirical {
      values = Require.finiteValues("prior sample", values);
      for (int i = 0; i < values.length; i++) {
        Require.probability("prior sample[" + i + "]", values[i]);
      }
    }

    @Override
    public double[] values() {
      return values.clone();
    }

    @Override
    public double sample(RandomGenerator random) {
      return values[random.nextInt(values.length)];
    }
  }
}
