package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.internal.Shown;
import dev.tradeoff.beam.csv.CsvRecords;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where the fields of a training or query row are, found by name in each file's header: the
 * training file's label column, the query file's id column, an optional id column in the training
 * file (a stable record identifier the teachers' partition is keyed on), and the feature columns
 * (the same names in both files, any order). Rows are parsed against it on the workers.
 *
 * @param width the number of cells of every row
 * @param keyColumn the label (training) or id (queries) column
 * @param partitionColumn the training file's id column, or -1 (the partition is then keyed on the
 *     whole line)
 * @param featureNames the feature names, in the order the teachers see them
 * @param featureColumns the column of each feature in this file
 */
public record CsvSchema(int width, int keyColumn, int partitionColumn, List<String> featureNames,
    int[] featureColumns) implements Serializable {

  /** The training file's label column unless named otherwise. */
  public static final String LABEL = "label";

  /** The query file's identifier column unless named otherwise. */
  public static final String ID = "id";

  /** A column pandas' {@code to_csv()} writes for the index, unnamed or {@code Unnamed: 0}. */
  private static final Pattern PANDAS_INDEX = Pattern.compile("|Unnamed: \\d+");

  public CsvSchema {
    featureNames = List.copyOf(featureNames);
    featureColumns = featureColumns.clone();
  }

  /**
   * Which column plays which role.
   *
   * @param label the training file's label column
   * @param id the query file's id column; if the training file has it too, a stable record id
   *     the partition is keyed on (never a feature)
   * @param features the feature columns, or empty for every column that is not the label, the id
   *     or ignored
   * @param ignore columns that are not features
   */
  public record Columns(String label, String id, List<String> features, List<String> ignore)
      implements Serializable {
    /** {@code label}, {@code id}, every other column a feature. */
    public static final Columns DEFAULT = new Columns(LABEL, ID, List.of(), List.of());

    public Columns {
      Require.nonNull("label column", label);
      Require.nonNull("id column", id);
      features = List.copyOf(features);
      ignore = List.copyOf(ignore);
      Require.that(!label.equals(id), "label column", "must differ from the id column " + id,
          label);
      Require.that(features.isEmpty() || ignore.isEmpty(), "features",
          "must not be combined with ignore (name the features, or the columns to ignore)",
          features);
      Require.that(new HashSet<>(features).size() == features.size(), "features",
          "must name each column once", features);
    }
  }

  /**
   * The training schema from its header.
   *
   * @throws IllegalArgumentException if a named column is missing, no feature is left, or a
   *     column looks like a pandas index that would silently become a feature
   */
  public static CsvSchema training(String[] header, Columns columns, String where) {
    List<String> names = Arrays.asList(header);
    checkDistinct(header, where);
    int label = column(header, columns.label(), where, "--label-column");
    int id = names.indexOf(columns.id());
    for (String ignored : columns.ignore()) {
      Require.that(names.contains(ignored), "ignore", where + ": must name columns of the "
          + "header " + Shown.value(names.toString()), ignored);
    }
    List<String> features = new ArrayList<>();
    if (!columns.features().isEmpty()) {
      for (String f : columns.features()) {
        Require.that(names.contains(f), "features", where + ": must name columns of the header "
            + Shown.value(names.toString()), f);
        Require.that(!f.equals(columns.label()) && !f.equals(columns.id()), "features",
            "must not name the label or id column", f);
        features.add(f);
      }
    } else {
      for (int c = 0; c < header.length; c++) {
        if (c == label || c == id || columns.ignore().contains(header[c])) {
          continue;
        }
        if (PANDAS_INDEX.matcher(header[c]).matches()) {
          throw new IllegalArgumentException(where + ": column " + (c + 1) + " ('"
              + Shown.value(header[c]) + "') looks like the index pandas' to_csv() writes and would be used as a feature; "
              + "pass --ignore '" + header[c] + "' or name the features with --features");
        }
        features.add(header[c]);
      }
    }
    Require.that(!features.isEmpty(), "train", where + ": must have at least one feature column "
        + "besides " + columns.label() + " and " + columns.id(), names);
    return new CsvSchema(header.length, label, id, features, columnsOf(header, features));
  }

  /**
   * The query schema: the id column and the training features, by name, in any order; other
   * columns are not read.
   */
  public static CsvSchema queries(String[] header, Columns columns, CsvSchema training,
      String where) {
    checkDistinct(header, where);
    int id = column(header, columns.id(), where, "--id-column");
    Set<String> missing = new LinkedHashSet<>(training.featureNames());
    missing.removeAll(Arrays.asList(header));
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("queries " + where + ": must have the training "
          + "features " + Shown.value(training.featureNames().toString()) + " (any order), but"
          + " lacks " + Shown.value(missing.toString()));
    }
    return new CsvSchema(header.length, id, -1, training.featureNames(),
        columnsOf(header, training.featureNames()));
  }

  /** The training schema with the default columns. */
  public static CsvSchema training(String[] header, String where) {
    return training(header, Columns.DEFAULT, where);
  }

  /** The query schema with the default columns. */
  public static CsvSchema queries(String[] header, String where, CsvSchema training) {
    return queries(header, Columns.DEFAULT, training, where);
  }

  private static int[] columnsOf(String[] header, List<String> features) {
    List<String> names = Arrays.asList(header);
    return features.stream().mapToInt(names::indexOf).toArray();
  }

  private static void checkDistinct(String[] header, String where) {
    Set<String> seen = new HashSet<>();
    for (String name : header) {
      if (!seen.add(name)) {
        throw new IllegalArgumentException(where + ": column " + Shown.value(name)
            + " must appear once in the header, but appears more often");
      }
    }
  }

  private static int column(String[] header, String name, String where, String flag) {
    int found = Arrays.asList(header).indexOf(name);
    if (found < 0) {
      throw new IllegalArgumentException(where + ": the header must have a column named "
          + Shown.value(name) + " (" + flag + "), but was " + Shown.value(String.join(",", header)));
    }
    return found;
  }

  /** The number of features d. */
  public int dimension() {
    return featureColumns.length;
  }

  /**
   * One parsed row from its cells: its key cell (label or id), its partition key and its feature
   * cells in feature order.
   *
   * @param where the file, for messages
   * @param line the row's line in it
   * @throws IllegalArgumentException for a ragged row or an empty key, naming the file, line and
   *     (for the key) column
   */
  public Row row(String[] cells, String where, long line) {
    if (cells.length != width) {
      throw new IllegalArgumentException(where + ":" + line + ": row must have " + width
          + " cells like the header, but has " + cells.length);
    }
    String key = cells[keyColumn];
    if (key.isEmpty()) {
      throw new IllegalArgumentException(where + ":" + line + ", column " + (keyColumn + 1)
          + ": the label or id cell must not be empty");
    }
    return row(cells, null);
  }

  /**
   * A training row as the teachers read it: one line, read alone ({@link CsvRecords#cells}), so
   * that no row can change how another is read; or null for a row they skip (a malformed line, a
   * cell count other than the header's): a sensitive row never fails the run or is refused, as a
   * refusal would reveal it.
   */
  public Row parseOrSkip(String line) {
    String[] cells;
    try {
      cells = CsvRecords.cells(line, "train", 1);
    } catch (IllegalArgumentException e) {
      return null;
    }
    return cells.length == width ? row(cells, line) : null;
  }

  /** The partition key of a training line: its id cell, or the whole line if it has none. */
  public String partitionKey(String line) {
    if (partitionColumn < 0) {
      return line;
    }
    Row row = parseOrSkip(line);
    return row == null ? line : row.partitionKey();
  }

  private Row row(String[] cells, String line) {
    String[] x = new String[featureColumns.length];
    for (int j = 0; j < x.length; j++) {
      x[j] = cells[featureColumns[j]];
    }
    String partitionKey = partitionColumn < 0 ? line : cells[partitionColumn].trim();
    return new Row(cells[keyColumn], partitionKey, x);
  }

  /**
   * A parsed row.
   *
   * @param key the label (training) or id (queries) cell
   * @param partitionKey what the teachers' partition is keyed on: the id cell, or the whole line
   *     (null for a row that is not a training line)
   * @param features the feature cells in feature order
   */
  public record Row(String key, String partitionKey, String[] features) {}
}
