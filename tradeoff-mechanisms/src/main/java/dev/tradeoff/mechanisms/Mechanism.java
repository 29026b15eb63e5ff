package dev.tradeoff.mechanisms;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import java.util.random.RandomGenerator;

/**
 * A differentially private mechanism: it maps an input to a random output using randomness the
 * caller passes explicitly, and it states what it guarantees as an accounting value.
 *
 * <p>Production callers pass {@code Randomness.secure()}; tests and simulations pass
 * {@code Randomness.seeded(seed)} on purpose. Inputs are the values a query computes on a dataset
 * (a count, a sum, a vector of utilities); neighbouring datasets move them by at most the
 * mechanism's sensitivity.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
public interface Mechanism<I, O> {

  /** One run of the mechanism on {@code input}. */
  O release(I input, RandomGenerator random);

  /** What one run guarantees, for every pair of neighbouring inputs. */
  PrivacyGuarantee guarantee();

  /**
   * One run as an accounting event, so that runs can be composed by an accountant. By default the
   * mechanism is accounted as the worst mechanism with its stated guarantee; mechanisms with an
   * exact privacy-loss analysis (randomized response, discrete noise) return their own event.
   */
  default DpEvent event() {
    return new GuaranteeEvent(guarantee());
  }
}
