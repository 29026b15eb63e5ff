package dev.tradeoff.learning.softmax;

import dev.tradeoff.learning.data.MulticlassData;
import java.util.SplittableRandom;

/** Generated C-class Gaussian blobs with a bias feature, for the softmax tests. */
final class Blobs {

  private Blobs() {}

  /**
   * n rows: class c drawn with probabilities proportional to c + 1 (so the majority class is not
   * 1/C), features center_c + N(0, spread²) in d − 1 dimensions, then a constant 1. The centers are
   * drawn once from the seed, so two calls with the same seed share them.
   */
  static MulticlassData of(int classes, int d, int n, double spread, long seed, long rowSeed) {
    SplittableRandom centers = new SplittableRandom(seed);
    double[][] center = new double[classes][d - 1];
    for (int c = 0; c < classes; c++) {
      for (int j = 0; j < d - 1; j++) {
        center[c][j] = centers.nextGaussian();
      }
    }
    SplittableRandom random = new SplittableRandom(rowSeed);
    double total = classes * (classes + 1) / 2.0;
    double[] features = new double[n * d];
    int[] labels = new int[n];
    for (int i = 0; i < n; i++) {
      double u = random.nextDouble() * total;
      int c = 0;
      while (u >= c + 1) {
        u -= c + 1;
        c++;
      }
      labels[i] = c;
      for (int j = 0; j < d - 1; j++) {
        features[i * d + j] = center[c][j] + spread * random.nextGaussian();
      }
      features[i * d + d - 1] = 1;
    }
    return new MulticlassData(classes, d, features, labels);
  }

  /** The fraction of rows in the most frequent class. */
  static double majorityFraction(MulticlassData data) {
    int[] counts = new int[data.classes()];
    for (int i = 0; i < data.size(); i++) {
      counts[data.label(i)]++;
    }
    int max = 0;
    for (int count : counts) {
      max = Math.max(max, count);
    }
    return (double) max / data.size();
  }
}
