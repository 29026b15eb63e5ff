package dev.tradeoff.selection.stability;

import java.util.random.RandomGenerator;

/**
 * A private training procedure T = (G, F) of [StabVal13]: trains candidate θ_i
 * with privacy parameter α on the training data, all its randomness drawn from {@code random}.
 *
 * @param <M> the trained model
 */
@FunctionalInterface
public interface PrivateTrainer<M> {

  /**
   * Trains candidate {@code candidate} with an α-DP procedure on part {@code part} of the training
   * set cut into {@code parts} disjoint, nearly equal parts ({@code parts = 1}: all of it; dataSplit
   * of Theorem 5 uses k parts).
   */
  M train(int candidate, int part, int parts, double alpha, RandomGenerator random);
}
