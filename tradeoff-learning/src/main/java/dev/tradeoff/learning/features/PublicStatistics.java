package dev.tradeoff.learning.features;

import dev.tradeoff.accounting.internal.Require;
import java.util.Arrays;

/**
 * Per-column statistics of a <strong>public</strong> table, accumulated one row at a time: for each
 * column the number of non-empty cells, whether every non-empty cell parses as a finite number, and
 * the mean and standard deviation of those numbers by Welford's (1962) numerically stable update.
 *
 * <p>Feed it the public query set (or other data that is public input), <strong>never the
 * sensitive training rows</strong>: {@link FeatureMap#fromPublic} turns these statistics into the
 * feature map without noise, so statistics of sensitive data would leak them into every model and
 * every manifest.
 *
 * <p>A mutable accumulator, not thread-safe; cells are read as {@link ColumnEncoder} reads them
 * (stripped; {@link Double#parseDouble}; NaN and infinities are not numbers).
 */
public final class PublicStatistics {

  private final long[] nonEmpty;
  private final boolean[] numeric;
  private final double[] mean;
  private final double[] sumOfSquares;
  private long rows;

  /** An accumulator for rows of the given width ≥ 1 (cells beyond it are ignored). */
  public PublicStatistics(int width) {
    Require.positive("width", width);
    nonEmpty = new long[width];
    numeric = new boolean[width];
    Arrays.fill(numeric, true);
    mean = new double[width];
    sumOfSquares = new double[width];
  }

  /** Adds one public row; a short row's absent cells and null cells count as empty. */
  public void add(String[] cells) {
    Require.nonNull("cells", cells);
    rows++;
    for (int j = 0; j < nonEmpty.length; j++) {
      String cell = Cells.stripped(cells, j);
      if (cell.isEmpty()) {
        continue;
      }
      nonEmpty[j]++;
      double v = Cells.number(cell);
      if (Double.isNaN(v)) {
        numeric[j] = false;
      } else if (numeric[j]) {
        // Welford: every non-empty cell so far was a number, so nonEmpty[j] counts them
        double delta = v - mean[j];
        mean[j] += delta / nonEmpty[j];
        sumOfSquares[j] += delta * (v - mean[j]);
      }
    }
  }

  /** The width given at construction. */
  public int width() {
    return nonEmpty.length;
  }

  /** The number of rows added. */
  public long rows() {
    return rows;
  }

  /** The number of non-empty cells in the column. */
  public long nonEmpty(int column) {
    return nonEmpty[checked(column)];
  }

  /** Whether every non-empty cell of the column parsed as a finite number (true if none was seen). */
  public boolean numeric(int column) {
    return numeric[checked(column)];
  }

  /** The mean of the column's numbers; NaN if the column is not numeric or has no values. */
  public double mean(int column) {
    checked(column);
    return numeric[column] && nonEmpty[column] > 0 ? mean[column] : Double.NaN;
  }

  /**
   * The sample standard deviation (divisor n − 1) of the column's numbers; NaN if the column is not
   * numeric or has fewer than 2 values.
   */
  public double standardDeviation(int column) {
    checked(column);
    long n = nonEmpty[column];
    return numeric[column] && n >= 2 ? Math.sqrt(sumOfSquares[column] / (n - 1)) : Double.NaN;
  }

  private int checked(int column) {
    return Require.inClosedRange("column", column, 0, nonEmpty.length - 1);
  }
}
