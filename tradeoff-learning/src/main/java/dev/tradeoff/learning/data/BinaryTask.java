package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.nio.file.Path;

/**
 * A two-class learning task: training records and labelled query records, both mapped by
 * {@link Dataset#withBiasUnitNorm}(1) so that ‖x‖ ≤ 1 (as output perturbation and the teachers
 * require) and so that queries see the same feature map as training.
 *
 * @param train the (sensitive) training records
 * @param test the query records, with their true labels for measuring accuracy
 */
public record BinaryTask(Dataset train, Dataset test) {

  public BinaryTask {
    Require.nonNull("train", train);
    Require.nonNull("test", test);
    Require.that(
        train.dimension() == test.dimension(),
        "test.dimension",
        "must equal train.dimension " + train.dimension(),
        test.dimension());
  }

  /** Classes {@code negative} (label 0) vs {@code positive} (label 1) of two class datasets. */
  public static BinaryTask of(ClassData train, ClassData test, int negative, int positive) {
    Require.nonNull("train", train);
    Require.nonNull("test", test);
    return new BinaryTask(
        train.binary(negative, positive).withBiasUnitNorm(1),
        test.binary(negative, positive).withBiasUnitNorm(1));
  }

  /** The shipped Fashion-MNIST split (7 × 7; classes 5 and 8 only). */
  public static BinaryTask shipped(int negative, int positive) {
    return of(
        FashionMnist.shipped(FashionMnist.Split.TRAIN),
        FashionMnist.shipped(FashionMnist.Split.TEST),
        negative,
        positive);
  }

  /**
   * Fashion-MNIST (or MNIST) IDX files in a directory, downsampled like the shipped split
   * ({@link FashionMnist#SHIPPED_POOL}); fails before reading anything else if the directory or a
   * file is missing.
   */
  public static BinaryTask fromDirectory(Path directory, int negative, int positive) {
    return of(
        FashionMnist.load(directory, FashionMnist.Split.TRAIN, FashionMnist.SHIPPED_POOL),
        FashionMnist.load(directory, FashionMnist.Split.TEST, FashionMnist.SHIPPED_POOL),
        negative,
        positive);
  }
}
