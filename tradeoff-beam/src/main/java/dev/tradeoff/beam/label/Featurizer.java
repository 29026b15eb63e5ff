package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.learning.features.FeatureMap;
import java.io.Serializable;

/**
 * The vector a teacher sees for a row's feature cells (in {@link CsvSchema} feature order): a map
 * of the row alone and of public parameters, so it costs no privacy. Serializable, so it travels
 * to the workers.
 */
public sealed interface Featurizer extends Serializable {

  /** The features of one row's cells. */
  double[] features(String[] cells);

  /** The number of features for rows of {@code cells} feature cells. */
  int dimension(int cells);

  /**
   * The map of [DaRRM24, Section 6.2]'s experiment: the cells parsed as numbers, a constant bias
   * feature 1 appended, the vector scaled to unit L2 norm.
   */
  record UnitNorm() implements Featurizer {
    /**
     * @throws IllegalArgumentException for a cell that is not a finite number (the experiment
     *     writes its own data)
     */
    @Override
    public double[] features(String[] cells) {
      double[] x = new double[cells.length + 1];
      double s = 1;
      for (int j = 0; j < cells.length; j++) {
        double v;
        try {
          v = Double.parseDouble(cells[j]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("feature " + j + " must be a number, but was '"
              + Shown.value(cells[j]) + "'");
        }
        if (!Double.isFinite(v)) {
          throw new IllegalArgumentException("feature " + j + " must be finite, but was "
              + Shown.value(cells[j]));
        }
        x[j] = v;
        s += v * v;
      }
      double norm = Math.sqrt(s);
      for (int j = 0; j < cells.length; j++) {
        x[j] /= norm;
      }
      x[cells.length] = 1 / norm;
      return x;
    }

    @Override
    public int dimension(int cells) {
      return cells + 1;
    }
  }

  /**
   * A table's columns encoded by a {@link FeatureMap} whose parameters come from the public query
   * set or the user, never from the training data: numeric columns standardised and clipped,
   * string columns hashed, empty cells flagged by a missing indicator.
   */
  record Table(FeatureMap map) implements Featurizer {
    @Override
    public double[] features(String[] cells) {
      return map.encode(cells);
    }

    @Override
    public int dimension(int cells) {
      return map.dimension();
    }
  }
}
