package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.Require;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Where the fields of a training or query row are: the training file's {@code label} column and
 * its numeric feature columns (any order), and the query file's {@code id} column and the same
 * features, found by name. Rows are parsed against it on the workers.
 *
 * @param width the number of cells of every row
 * @param keyColumn the {@code label} (training) or {@code id} (queries) column
 * @param featureNames the feature names, in the training file's order
 * @param featureColumns the column of each feature in this file
 */
public record CsvSchema(int width, int keyColumn, List<String> featureNames, int[] featureColumns)
    implements Serializable {

  /** The training file's label column. */
  public static final String LABEL = "label";

  /** The query file's identifier column. */
  public static final String ID = "id";

  public CsvSchema {
    featureNames = List.copyOf(featureNames);
    featureColumns = featureColumns.clone();
  }

  /** The training schema from its header: a {@code label} column and at least one feature. */
  public static CsvSchema training(String[] header, String where) {
    int label = column(header, LABEL, where);
    List<String> names = new ArrayList<>();
    List<Integer> columns = new ArrayList<>();
    for (int c = 0; c < header.length; c++) {
      if (c != label) {
        names.add(header[c]);
        columns.add(c);
      }
    }
    Require.that(!names.isEmpty(), "train", where + ": must have at least one feature column "
        + "besides " + LABEL, Arrays.toString(header));
    return new CsvSchema(header.length, label,
        names, columns.stream().mapToInt(Integer::intValue).toArray());
  }

  /**
   * The query schema: an {@code id} column and exactly the training features, by name, in any
   * order.
   */
  public static CsvSchema queries(String[] header, String where, CsvSchema training) {
    int id = column(header, ID, where);
    Set<String> expected = new HashSet<>(training.featureNames());
    Set<String> found = new HashSet<>(Arrays.asList(header));
    found.remove(ID);
    if (!found.equals(expected) || header.length != expected.size() + 1) {
      throw new IllegalArgumentException("queries " + where + ": the feature columns must be the "
          + "training file's " + training.featureNames() + " (any order), but were "
          + found.stream().sorted().toList());
    }
    int[] columns = new int[training.featureNames().size()];
    for (int j = 0; j < columns.length; j++) {
      columns[j] = Arrays.asList(header).indexOf(training.featureNames().get(j));
    }
    return new CsvSchema(header.length, id, training.featureNames(), columns);
  }

  private static int column(String[] header, String name, String where) {
    int found = -1;
    Set<String> seen = new HashSet<>();
    for (int c = 0; c < header.length; c++) {
      if (!seen.add(header[c])) {
        throw new IllegalArgumentException(where + ": column " + header[c]
            + " must appear once in the header, but appears more often");
      }
      if (header[c].equals(name)) {
        found = c;
      }
    }
    if (found < 0) {
      throw new IllegalArgumentException(where + ": the header must have a column named " + name
          + ", but was " + String.join(",", header));
    }
    return found;
  }

  /** The number of features d. */
  public int dimension() {
    return featureColumns.length;
  }

  /**
   * One parsed row: its key cell (label or id) and its features in training order.
   *
   * @throws IllegalArgumentException for a ragged row or a non-numeric or non-finite feature
   */
  public Row parse(String line, String where) {
    String[] cells = CsvLine.cells(line, where);
    if (cells.length != width) {
      throw new IllegalArgumentException(where + ": row must have " + width + " cells like the "
          + "header, but has " + cells.length);
    }
    double[] x = new double[featureColumns.length];
    for (int j = 0; j < x.length; j++) {
      String cell = cells[featureColumns[j]];
      double v;
      try {
        v = Double.parseDouble(cell);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(where + ": feature " + featureNames.get(j)
            + " must be a number, but was '" + cell + "'");
      }
      if (!Double.isFinite(v)) {
        throw new IllegalArgumentException(where + ": feature " + featureNames.get(j)
            + " must be finite, but was " + cell);
      }
      x[j] = v;
    }
    String key = cells[keyColumn];
    if (key.isEmpty()) {
      throw new IllegalArgumentException(where + ": the label or id cell must not be empty");
    }
    return new Row(key, x);
  }

  /** A parsed row: the label (training) or id (queries), and the features. */
  public record Row(String key, double[] features) {}

  /**
   * The features as the teachers see them: with a constant bias feature 1 appended, the vector
   * scaled to unit L2 norm (a per-row map that needs no statistics of the data, so it costs no
   * privacy).
   */
  public static double[] unitWithBias(double[] x) {
    double s = 1;
    for (double v : x) {
      s += v * v;
    }
    double norm = Math.sqrt(s);
    double[] out = new double[x.length + 1];
    for (int j = 0; j < x.length; j++) {
      out[j] = x[j] / norm;
    }
    out[x.length] = 1 / norm;
    return out;
  }
}
