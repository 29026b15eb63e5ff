package dev.tradeoff.accounting.internal;

/**
 * Text from files and flags made safe to print in a one-line message: every character that is not
 * printable (control characters such as ESC, line breaks, format and unassigned characters, lone
 * surrogates, and U+FFFD, which stands for bytes that were not UTF-8) becomes a visible escape
 * ({@code \e}, {@code \n}, {@code \r}, {@code \t}, {@code \xHH}, <code>&#92;u{HHHH}</code>), and long text is
 * cut with a note of how much was left out. A file's first line with escape sequences can then
 * neither drive the terminal nor break the one line of an error message.
 *
 * <p>{@link #value} is for a value quoted inside a message (a path, a header, a cell), where the
 * message is made; {@link #line} is applied by the command line to every message it prints (its
 * boundary). Both are idempotent: escaping an escaped text changes nothing (a backslash is left as
 * it is).
 */
public final class Shown {

  /** The most characters of a quoted value shown. */
  public static final int VALUE_LIMIT = 120;

  /** The most characters of a whole message shown. */
  public static final int LINE_LIMIT = 1000;

  private Shown() {}

  /** A value quoted in a message: escaped, and cut after {@value #VALUE_LIMIT} characters. */
  public static String value(String text) {
    return escaped(text, VALUE_LIMIT);
  }

  /** A whole message: escaped onto one line, and cut after {@value #LINE_LIMIT} characters. */
  public static String line(String text) {
    return escaped(text == null ? "" : text.strip(), LINE_LIMIT);
  }

  private static String escaped(String text, int limit) {
    if (text == null) {
      return "null";
    }
    StringBuilder s = new StringBuilder();
    int shown = 0;
    int i = 0;
    while (i < text.length() && shown < limit) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      s.append(printable(c) ? new String(Character.toChars(c)) : escape(c));
      shown++;
    }
    int left = text.codePointCount(i, text.length());
    if (left > 0) {
      s.append("... (").append(left).append(" more characters)");
    }
    return s.toString();
  }

  private static boolean printable(int c) {
    if (c == '\uFFFD') {
      return false;
    }
    return switch (Character.getType(c)) {
      case Character.CONTROL, Character.FORMAT, Character.UNASSIGNED, Character.SURROGATE,
          Character.PRIVATE_USE, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
      default -> true;
    };
  }

  private static String escape(int c) {
    return switch (c) {
      case '\n' -> "\\n";
      case '\r' -> "\\r";
      case '\t' -> "\\t";
      case 0x1b -> "\\e";
      default -> c < 0x100 ? String.format("\\x%02X", c) : String.format("\\u{%04X}", c);
    };
  }
}
