package dev.tradeoff.learning.features;

import dev.tradeoff.accounting.internal.Require;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A data-independent feature map for raw CSV rows: an ordered list of {@link ColumnEncoder}s, each
 * writing its features in turn, then a constant bias feature 1.0. The map acts on each row alone,
 * so it preserves neighbouring datasets and every privacy guarantee of what is trained on its
 * output — <strong>provided its parameters do not depend on the sensitive data</strong>. Centres,
 * scales and ranges must come from public data (the query set, through {@link PublicStatistics})
 * or from the user; never from the training rows.
 *
 * <p>{@link #encode} never throws on a cell's content, and values end up O(1): standardised and
 * clipped, mapped into [−1, 1], or ±1 in a hash bucket, with 0/1 missing indicators.
 *
 * @param encoders the column encoders in feature order (copied), with distinct names
 */
public record FeatureMap(List<ColumnEncoder> encoders) implements Serializable {

  public FeatureMap {
    Require.nonNull("encoders", encoders);
    Set<String> names = new HashSet<>();
    for (int k = 0; k < encoders.size(); k++) {
      ColumnEncoder encoder = Require.nonNull("encoders[" + k + "]", encoders.get(k));
      Require.that(names.add(encoder.name()), "encoders[" + k + "].name", "must be distinct",
          encoder.name());
    }
    encoders = List.copyOf(encoders);
  }

  /**
   * A user-given range for a numeric column, mapped onto [−1, 1] by {@link ColumnEncoder.Ranged}.
   *
   * @param low the finite lower end
   * @param high the upper end, with high − low &gt; 0 and finite
   */
  public record Range(double low, double high) implements Serializable {

    public Range {
      Require.finite("low", low);
      Require.finite("high", high);
      Require.that(high > low && Double.isFinite(high - low), "high",
          "must be > low " + low + " with a finite difference", high);
    }
  }

  /**
   * Chooses an encoder per column from public statistics and user input: a user range gives
   * {@link ColumnEncoder.Ranged}; otherwise a column whose every non-empty public cell parsed as a
   * finite number, and which is not forced categorical, gives {@link ColumnEncoder.Numeric} with
   * centre the public mean (0 if there was none) and scale the public standard deviation (1 if it
   * is 0, not finite, or there were fewer than 2 values); every other column gives
   * {@link ColumnEncoder.Hashed}.
   *
   * <p>{@code stats} must have been fed <strong>public rows only</strong> (the query set): the
   * choice of encoder and its parameters are released without noise.
   *
   * @param names the columns' distinct names, in feature order
   * @param columns each name's cell index, in [0, stats.width())
   * @param userRanges ranges by column name (names must be among {@code names})
   * @param forcedCategorical names of columns to hash even if numeric (among {@code names}, none
   *     with a user range)
   * @param hashBuckets buckets per hashed column ≥ 1
   * @param clip the bound &gt; 0 on standardised values
   */
  public static FeatureMap fromPublic(
      PublicStatistics stats,
      List<String> names,
      int[] columns,
      Map<String, Range> userRanges,
      Set<String> forcedCategorical,
      int hashBuckets,
      double clip) {
    Require.nonNull("stats", stats);
    Require.nonNull("names", names);
    Require.nonNull("columns", columns);
    Require.nonNull("userRanges", userRanges);
    Require.nonNull("forcedCategorical", forcedCategorical);
    Require.positive("hashBuckets", hashBuckets);
    Require.positive("clip", clip);
    Require.that(columns.length == names.size(), "columns.length",
        "must equal names.size() " + names.size(), columns.length);
    for (String name : userRanges.keySet()) {
      Require.that(names.contains(name), "userRanges", "must name only columns in " + names, name);
    }
    for (String name : forcedCategorical) {
      Require.that(names.contains(name), "forcedCategorical",
          "must name only columns in " + names, name);
      Require.that(!userRanges.containsKey(name), "forcedCategorical",
          "must not name a column with a user range", name);
    }
    List<ColumnEncoder> encoders = new ArrayList<>(names.size());
    for (int k = 0; k < columns.length; k++) {
      String name = Require.nonNull("names[" + k + "]", names.get(k));
      int column = Require.inClosedRange("columns[" + k + "]", columns[k], 0, stats.width() - 1);
      Range range = userRanges.get(name);
      if (range != null) {
        encoders.add(new ColumnEncoder.Ranged(name, column, range.low(), range.high()));
      } else if (stats.numeric(column) && !forcedCategorical.contains(name)) {
        double mean = stats.mean(column);
        double sd = stats.standardDeviation(column);
        double center = Double.isFinite(mean) ? mean : 0;
        double scale = Double.isFinite(sd) && sd > 0 ? sd : 1;
        encoders.add(new ColumnEncoder.Numeric(name, column, center, scale, clip));
      } else {
        encoders.add(new ColumnEncoder.Hashed(name, column, hashBuckets));
      }
    }
    return new FeatureMap(encoders);
  }

  /** The number of features: the encoders' dimensions plus 1 for the bias. */
  public int dimension() {
    int d = 1;
    for (ColumnEncoder encoder : encoders) {
      d += encoder.dimension();
    }
    return d;
  }

  /**
   * The features of one row, the last being the bias 1.0. Never throws on a cell's content; a
   * column beyond {@code cells.length} or a null cell counts as missing.
   */
  public double[] encode(String[] cells) {
    Require.nonNull("cells", cells);
    double[] out = new double[dimension()];
    int offset = 0;
    for (ColumnEncoder encoder : encoders) {
      encoder.encode(cells, out, offset);
      offset += encoder.dimension();
    }
    out[offset] = 1;
    return out;
  }

  /** One line per encoder, in feature order, for a manifest (the bias feature is not listed). */
  public List<String> describe() {
    return encoders.stream().map(ColumnEncoder::describe).toList();
  }
}
