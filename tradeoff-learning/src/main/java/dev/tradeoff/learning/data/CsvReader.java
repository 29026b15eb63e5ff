package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reader of labelled numeric CSV: a header line of column names, then one record per line, cells
 * separated by commas (surrounding spaces ignored, blank lines skipped, no quoting). One named
 * column holds the integer class; every other column is a real feature, in file order.
 *
 * <p>Malformed input is an {@link IllegalArgumentException} naming the file, line and column: a
 * missing file, an empty file, a missing or duplicate label column, a row with the wrong number of
 * cells, a non-numeric or non-finite feature, a non-integer label, a quoted cell, no records.
 */
public final class CsvReader {

  private CsvReader() {}

  /** Reads the file, with classes from the named column. */
  public static ClassData read(Path path, String labelColumn) {
    Require.nonNull("path", path);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("CSV file " + path + " does not exist or is not a file");
    }
    try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      return read(reader, path.toString(), labelColumn);
    } catch (IOException e) {
      throw new UncheckedIOException("reading CSV file " + path + " failed: " + e.getMessage(), e);
    }
  }

  /** Reads CSV text; {@code name} is used in error messages. */
  public static ClassData read(Reader reader, String name, String labelColumn) throws IOException {
    Require.nonNull("reader", reader);
    Require.nonNull("labelColumn", labelColumn);
    BufferedReader in = new BufferedReader(reader);
    String header = in.readLine();
    int lineNumber = 1;
    while (header != null && header.isBlank()) {
      header = in.readLine();
      lineNumber++;
    }
    if (header == null) {
      throw new IllegalArgumentException("CSV file " + name + " is empty: no header line");
    }
    String[] columns = cells(header, name, lineNumber);
    int labelIndex = -1;
    for (int c = 0; c < columns.length; c++) {
      if (columns[c].equals(labelColumn)) {
        if (labelIndex >= 0) {
          throw new IllegalArgumentException(
              "CSV file " + name + ": label column '" + labelColumn + "' appears twice");
        }
        labelIndex = c;
      }
    }
    if (labelIndex < 0) {
      throw new IllegalArgumentException(
          "CSV file " + name + ": label column '" + labelColumn + "' not in header "
              + Arrays.toString(columns));
    }
    if (columns.length < 2) {
      throw new IllegalArgumentException(
          "CSV file " + name + " has no feature columns besides the label '" + labelColumn + "'");
    }
    int d = columns.length - 1;
    List<double[]> rows = new ArrayList<>();
    List<Integer> labels = new ArrayList<>();
    String line;
    while ((line = in.readLine()) != null) {
      lineNumber++;
      if (line.isBlank()) {
        continue;
      }
      String[] cells = cells(line, name, lineNumber);
      if (cells.length != columns.length) {
        throw new IllegalArgumentException(
            "CSV file " + name + " line " + lineNumber + " has " + cells.length
                + " cells, but the header has " + columns.length);
      }
      double[] row = new double[d];
      int j = 0;
      for (int c = 0; c < cells.length; c++) {
        if (c == labelIndex) {
          labels.add(label(cells[c], name, lineNumber, columns[c]));
        } else {
          row[j++] = number(cells[c], name, lineNumber, columns[c]);
        }
      }
      rows.add(row);
    }
    if (rows.isEmpty()) {
      throw new IllegalArgumentException("CSV file " + name + " has a header but no records");
    }
    double[] flat = new double[rows.size() * d];
    int[] classes = new int[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      System.arraycopy(rows.get(i), 0, flat, i * d, d);
      classes[i] = labels.get(i);
    }
    return new ClassData(d, flat, classes);
  }

  private static String[] cells(String line, String name, int lineNumber) {
    if (line.indexOf('"') >= 0) {
      throw new IllegalArgumentException(
          "CSV file " + name + " line " + lineNumber + ": quoted cells are not supported");
    }
    String[] cells = line.split(",", -1);
    for (int c = 0; c < cells.length; c++) {
      cells[c] = cells[c].strip();
    }
    return cells;
  }

  private static double number(String cell, String name, int lineNumber, String column) {
    double value;
    try {
      value = Double.parseDouble(cell);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "CSV file " + name + " line " + lineNumber + " column '" + column
              + "' must be a number, but was '" + cell + "'", e);
    }
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(
          "CSV file " + name + " line " + lineNumber + " column '" + column
              + "' must be finite, but was '" + cell + "'");
    }
    return value;
  }

  private static int label(String cell, String name, int lineNumber, String column) {
    try {
      return Integer.parseInt(cell);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "CSV file " + name + " line " + lineNumber + " label column '" + column
              + "' must be an integer class, but was '" + cell + "'", e);
    }
  }
}
