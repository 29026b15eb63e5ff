package dev.tradeoff.learning.features;

/** Reading one cell of a raw CSV row without ever throwing on its content. */
final class Cells {

  private Cells() {}

  /** The cell at the column stripped of leading and trailing white space; "" if absent or null. */
  static String stripped(String[] cells, int column) {
    if (column >= cells.length || cells[column] == null) {
      return "";
    }
    return cells[column].strip();
  }

  /**
   * The cell as a finite double ({@link Double#parseDouble} of the stripped text), or NaN when it is
   * empty, unparsable, NaN or infinite.
   */
  static double number(String stripped) {
    if (stripped.isEmpty()) {
      return Double.NaN;
    }
    try {
      double v = Double.parseDouble(stripped);
      return Double.isFinite(v) ? v : Double.NaN;
    } catch (NumberFormatException e) {
      return Double.NaN;
    }
  }
}
