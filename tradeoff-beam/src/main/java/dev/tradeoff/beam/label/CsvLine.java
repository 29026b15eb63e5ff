package dev.tradeoff.beam.label;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of RFC 4180 CSV: cells separated by commas, a cell optionally in double quotes (a quote
 * inside a quoted cell is doubled). A record never spans lines. Surrounding spaces of unquoted cells
 * are trimmed.
 */
public final class CsvLine {

  private CsvLine() {}

  /**
   * The cells of one line.
   *
   * @param where file and line number, for the error message
   * @throws IllegalArgumentException for an unterminated quote or text after a closing quote
   */
  public static String[] cells(String line, String where) {
    List<String> out = new ArrayList<>();
    int i = 0;
    int n = line.length();
    while (true) {
      while (i < n && line.charAt(i) == ' ') {
        i++;
      }
      if (i < n && line.charAt(i) == '"') {
        StringBuilder cell = new StringBuilder();
        i++;
        while (true) {
          if (i >= n) {
            throw new IllegalArgumentException(where + ": unterminated quoted cell");
          }
          char c = line.charAt(i++);
          if (c == '"') {
            if (i < n && line.charAt(i) == '"') {
              cell.append('"');
              i++;
            } else {
              break;
            }
          } else {
            cell.append(c);
          }
        }
        while (i < n && line.charAt(i) == ' ') {
          i++;
        }
        out.add(cell.toString());
        if (i == n) {
          break;
        }
        if (line.charAt(i) != ',') {
          throw new IllegalArgumentException(where + ": text after a closing quote");
        }
        i++;
      } else {
        int comma = line.indexOf(',', i);
        int end = comma < 0 ? n : comma;
        out.add(line.substring(i, end).trim());
        if (comma < 0) {
          break;
        }
        i = comma + 1;
      }
    }
    return out.toArray(String[]::new);
  }

  /** The cell as CSV: quoted when it holds a comma, a quote or leading/trailing space. */
  public static String quote(String cell) {
    boolean plain = cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0
        && cell.indexOf('\r') < 0 && cell.equals(cell.trim());
    return plain ? cell : '"' + cell.replace("\"", "\"\"") + '"';
  }
}
