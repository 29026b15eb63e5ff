package dev.tradeoff.cli.aggregate;

import dev.tradeoff.beam.csv.CsvRecords;
import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.ensemble.pate.VoteTable;
import dev.tradeoff.ensemble.pate.Votes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the teacher votes of {@code tradeoff aggregate}: CSV (RFC 4180, {@link CsvRecords}) with a
 * header. Two forms:
 *
 * <ul>
 *   <li>{@code counts}: the id column and one column per class, each cell the number of teachers
 *       that predicted that class (a whole number ≥ 0); the classes are the column names;
 *   <li>{@code predictions}: the id column and one column per teacher, each cell the class that
 *       teacher predicted, one of the public {@code --classes}.
 * </ul>
 *
 * Every row must have as many cells as the header, a non-blank id, and (counts) the same total
 * number of teachers; anything else is refused with the line and the column.
 */
final class VotesCsv {

  /** Largest votes file read. */
  static final long MAX_BYTES = 512L << 20;

  /** The table and the class names, in the order of the counts. */
  record Read(VoteTable table, List<String> classes) {}

  /** A non-blank record of the file, its cells, with the 1-based line it starts on. */
  private record Line(int number, String[] cells) {}

  private VotesCsv() {}

  static Read counts(Path file, String idColumn) {
    List<Line> rows = lines("--votes", file);
    String[] header = rows.get(0).cells();
    int idAt = idIndex("--votes", file, header, idColumn);
    List<String> classes = new ArrayList<>();
    for (int c = 0; c < header.length; c++) {
      if (c != idAt) {
        classes.add(header[c]);
      }
    }
    if (classes.stream().anyMatch(String::isEmpty)
        || classes.stream().distinct().count() != classes.size()) {
      throw new IllegalArgumentException("--votes " + file + " must name each class column once "
          + "and not blank, but its class columns are " + classes);
    }
    if (classes.size() < 2) {
      throw new IllegalArgumentException("--votes " + file + " must have at least two class "
          + "columns besides '" + idColumn + "', but has " + classes.size());
    }
    List<Votes> votes = new ArrayList<>(rows.size() - 1);
    for (int r = 1; r < rows.size(); r++) {
      String[] cells = rows.get(r).cells();
      int n = rows.get(r).number();
      int[] counts = new int[classes.size()];
      int j = 0;
      for (int c = 0; c < cells.length; c++) {
        if (c != idAt) {
          counts[j++] = count(file, n, header[c], cells[c]);
        }
      }
      votes.add(row(file, n, id(file, n, cells[idAt]), counts, votes));
    }
    return new Read(table(file, votes), classes);
  }

  static Read predictions(Path file, String idColumn, List<String> classes) {
    List<Line> rows = lines("--votes", file);
    String[] header = rows.get(0).cells();
    int idAt = idIndex("--votes", file, header, idColumn);
    if (header.length < 2) {
      throw new IllegalArgumentException("--votes " + file + " must have at least one teacher "
          + "column besides '" + idColumn + "'");
    }
    List<Votes> votes = new ArrayList<>(rows.size() - 1);
    for (int r = 1; r < rows.size(); r++) {
      String[] cells = rows.get(r).cells();
      int n = rows.get(r).number();
      int[] counts = new int[classes.size()];
      for (int c = 0; c < cells.length; c++) {
        if (c != idAt) {
          int k = classes.indexOf(cells[c].strip());
          if (k < 0) {
            throw new IllegalArgumentException("--votes " + file + " line " + n
                + " column '" + header[c] + "' must be one of --classes " + classes
                + ", but was '" + cells[c] + "'");
          }
          counts[k]++;
        }
      }
      votes.add(row(file, n, id(file, n, cells[idAt]), counts, votes));
    }
    return new Read(table(file, votes), List.copyOf(classes));
  }

  /**
   * Interactive-GNMax's student predictions: the id column and one column per class of the votes,
   * each cell the student's probability of that class; every query of {@code table} must have a
   * row.
   */
  static Map<String, double[]> student(Path file, String idColumn, List<String> classes,
      VoteTable table) {
    List<Line> rows = lines("--student", file);
    String[] header = rows.get(0).cells();
    int idAt = idIndex("--student", file, header, idColumn);
    int[] at = new int[classes.size()];
    for (int j = 0; j < classes.size(); j++) {
      at[j] = List.of(header).indexOf(classes.get(j));
      if (at[j] < 0 || at[j] == idAt || header.length != classes.size() + 1) {
        throw new IllegalArgumentException("--student " + file + " must have the id column and "
            + "one column per class " + classes + ", but its header is "
            + String.join(",", header));
      }
    }
    Map<String, double[]> student = new HashMap<>();
    for (int r = 1; r < rows.size(); r++) {
      String[] cells = rows.get(r).cells();
      int n = rows.get(r).number();
      double[] p = new double[classes.size()];
      for (int j = 0; j < p.length; j++) {
        try {
          p[j] = Double.parseDouble(cells[at[j]]);
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException("--student " + file + " line " + n + " column '"
              + classes.get(j) + "' must be a probability, but was '" + cells[at[j]] + "'");
        }
      }
      if (student.put(cells[idAt], p) != null) {
        throw new IllegalArgumentException("--student " + file + " line " + n + " repeats the "
            + "id " + cells[idAt]);
      }
    }
    for (Votes v : table.rows()) {
      if (!student.containsKey(v.id())) {
        throw new IllegalArgumentException("--student " + file + " must have a row for every "
            + "query, but has none for id " + v.id());
      }
    }
    return student;
  }

  private static Votes row(Path file, int line, String id, int[] counts, List<Votes> before) {
    long teachers = 0;
    for (int c : counts) {
      teachers += c;
    }
    if (!before.isEmpty() && before.get(0).teachers() != teachers) {
      throw new IllegalArgumentException("--votes " + file + " line " + line + " (id " + id
          + ") counts " + teachers + " teachers, but the first query counts "
          + before.get(0).teachers() + ": every query must be voted on by the same teachers");
    }
    if (teachers == 0) {
      throw new IllegalArgumentException("--votes " + file + " line " + line + " (id " + id
          + ") has no votes");
    }
    return new Votes(id, counts);
  }

  private static VoteTable table(Path file, List<Votes> votes) {
    try {
      return VoteTable.of(votes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--votes " + file + ": " + e.getMessage(), e);
    }
  }

  private static String id(Path file, int line, String cell) {
    String id = cell.strip();
    if (id.isEmpty()) {
      throw new IllegalArgumentException("--votes " + file + " line " + line
          + " must have an id, but its id cell is empty");
    }
    return id;
  }

  private static int count(Path file, int line, String column, String cell) {
    String s = cell.strip();
    long v;
    try {
      v = Long.parseLong(s);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--votes " + file + " line " + line + " column '"
          + column + "' must be a whole number of votes >= 0, but was '" + cell + "'");
    }
    if (v < 0 || v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("--votes " + file + " line " + line + " column '"
          + column + "' must be a whole number of votes in [0, " + Integer.MAX_VALUE
          + "], but was " + v);
    }
    return (int) v;
  }

  private static int idIndex(String flag, Path file, String[] header, String idColumn) {
    int at = -1;
    for (int c = 0; c < header.length; c++) {
      if (header[c].equals(idColumn)) {
        if (at >= 0) {
          throw new IllegalArgumentException(flag + " " + file + " has the id column '"
              + idColumn + "' twice");
        }
        at = c;
      }
    }
    if (at < 0) {
      throw new IllegalArgumentException(flag + " " + file + " must have an id column '"
          + idColumn + "' (--id-column), but its header is " + String.join(",", header));
    }
    return at;
  }

  /** The header and the data rows (RFC 4180, {@link CsvRecords}), as many cells as the header. */
  private static List<Line> lines(String flag, Path file) {
    Inputs.inputFile(flag, file, MAX_BYTES);
    List<Line> rows = new ArrayList<>();
    try {
      CsvRecords.read(file, flag + " " + file, (cells, n) -> {
        if (!rows.isEmpty() && cells.length != rows.get(0).cells().length) {
          throw new IllegalArgumentException(flag + " " + file + " line " + n + " has "
              + cells.length + " cells, but the header has " + rows.get(0).cells().length);
        }
        rows.add(new Line(Math.toIntExact(n), cells));
      });
    } catch (IOException e) {
      throw new IllegalArgumentException(flag + " " + file + " cannot be read as UTF-8 text ("
          + e.getMessage() + ")", e);
    }
    if (rows.size() < 2) {
      throw new IllegalArgumentException(flag + " " + file + " must have a header and at least "
          + "one query, but has " + rows.size() + " non-blank lines");
    }
    return rows;
  }
}
