package dev.tradeoff.mechanisms;

import dev.tradeoff.accounting.internal.Require;
import java.util.random.RandomGenerator;

/**
 * A mechanism that adds integer noise from an exact sampler to an integer query, f(D) + Y. The
 * primitive {@link #release(long, RandomGenerator)} is the one to call; the boxed form serves the
 * generic {@link Mechanism} interface (auditors, pipelines).
 */
public interface IntegerNoiseMechanism extends Mechanism<Long, Long> {

  /** f(D) + Y for one integer-valued query; fails on overflow rather than wrapping. */
  long release(long value, RandomGenerator random);

  @Override
  default Long release(Long value, RandomGenerator random) {
    Require.nonNull("value", value);
    return release(value.longValue(), random);
  }
}
