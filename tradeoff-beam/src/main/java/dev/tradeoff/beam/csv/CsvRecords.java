package dev.tradeoff.beam.csv;

import dev.tradeoff.accounting.internal.Require;
import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVException;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * The one CSV dialect every Tradeoff command reads, through Apache Commons CSV: RFC 4180 (cells
 * separated by commas, a cell optionally in double quotes, a quote inside a quoted cell doubled,
 * a quoted cell may hold commas and line breaks; records end at {@code \r\n}, {@code \n} or
 * {@code \r}), spaces around a cell ignored, blank lines skipped. A byte-order mark is removed by
 * whoever opens the text ({@link #withoutBom}).
 *
 * <p>How a stream is read ({@link #read(Source, String, long, Visitor)}): records start at line
 * starts, and a line without a double quote is a whole record (Commons CSV enters a quoted cell
 * only at a quote), split here at its commas, each cell stripped of what
 * {@link Character#isWhitespace} accepts, as Commons CSV strips it. A record whose first line
 * holds a quote is delimited by following Commons CSV's lexer (a quote opens a quoted cell only
 * where a cell starts, after optional spaces; inside one, {@code ""} is a quote and a line break
 * is part of the cell; after its closing quote only spaces may come before the comma or the line
 * end), and its text is parsed by Commons CSV alone. That lexer carries nothing from one record
 * to the next, so every record comes out as a parse of the whole stream gives it, on the same
 * line, and malformed text fails with the same message; {@code CsvRecordsTest} checks this
 * against that parse on thousands of random texts.
 *
 * <p>Malformed text is an {@link IllegalArgumentException} naming where it is as
 * {@code WHERE:LINE, column C} (the line of the file, the 1-based cell of the record): a quoted
 * cell never closed, or text after a closing quote; so is text in which no record ends within
 * twice {@link #MAX_RECORD_CHARS} characters of its start (a quote opened and never closed in a
 * large file would otherwise be held in memory to the file's end). Records of up to
 * {@code MAX_RECORD_CHARS} characters are always read.
 */
public final class CsvRecords {

  /** RFC 4180, spaces around cells ignored; empty lines come back as records, skipped here. */
  private static final CSVFormat FORMAT = CSVFormat.RFC4180.builder()
      .setIgnoreSurroundingSpaces(true)
      .setIgnoreEmptyLines(false)
      .get();

  private static final Pattern AFTER_QUOTE =
      Pattern.compile("at line: ([\\d,]+), position: ([\\d,]+)");
  private static final Pattern UNCLOSED = Pattern.compile("startline ([\\d,]+)");

  /** The longest record that is always read: 16 Mi characters. */
  public static final int MAX_RECORD_CHARS = 1 << 24;

  private CsvRecords() {}

  /** Text to read, opened again from its start when a message needs to show where it broke. */
  @FunctionalInterface
  public interface Source {
    Reader open() throws IOException;
  }

  /** Receives each non-blank record: its cells and the line of the file it starts on. */
  @FunctionalInterface
  public interface Visitor {
    void record(String[] cells, long line) throws IOException;
  }

  /**
   * Reads every non-blank record of the text, streaming (one record in memory at a time).
   *
   * @param source the text (its BOM already removed, if it had one)
   * @param where the file, for messages ({@code queries data.csv})
   * @param firstLine the line of the file the text starts on (1 for a whole file)
   * @return the number of records read
   * @throws IllegalArgumentException for malformed text, naming where, the line and the column
   */
  public static long read(Source source, String where, long firstLine, Visitor visitor)
      throws IOException {
    Require.nonNull("visitor", visitor);
    try (Reader text = source.open()) {
      return new Records(text, where, firstLine, visitor, 1 << 13).readAll();
    }
  }

  /**
   * Reads every non-blank record of the text with Commons CSV alone, parsed as one stream: what
   * {@link #read(Source, String, long, Visitor)} hands each record with a quote to, and what it
   * agrees with.
   */
  static long parse(Source source, String where, long firstLine, Visitor visitor)
      throws IOException {
    long records = 0;
    try (CSVParser parser = FORMAT.parse(source.open())) {
      Iterator<CSVRecord> it = parser.iterator();
      while (true) {
        long before = parser.getCurrentLineNumber();
        CSVRecord record;
        try {
          if (!it.hasNext()) {
            return records;
          }
          record = it.next();
        } catch (UncheckedIOException e) {
          if (e.getCause() instanceof CSVException malformed) {
            throw malformed(source, where, firstLine, before + 1, malformed);
          }
          throw e.getCause();
        }
        String[] cells = record.values();
        if (!blank(cells)) {
          records++;
          visitor.record(cells, firstLine + before);
        }
      }
    }
  }

  /** Whether a record is a blank line: one empty cell. */
  private static boolean blank(String[] cells) {
    return cells.length == 1 && cells[0].isEmpty();
  }

  /**
   * Reads every non-blank record of a UTF-8 file, its byte-order mark removed, lines counted
   * from 1 ({@link #read(Source, String, long, Visitor)}).
   *
   * @throws java.nio.charset.MalformedInputException if the file is not UTF-8
   */
  public static long read(Path file, String where, Visitor visitor) throws IOException {
    return read(() -> withoutBom(Files.newBufferedReader(file, StandardCharsets.UTF_8)), where, 1,
        visitor);
  }

  /** The text without its leading byte-order mark (U+FEFF), if it has one. */
  public static Reader withoutBom(Reader text) throws IOException {
    PushbackReader in = new PushbackReader(text, 1);
    int first = in.read();
    if (first >= 0 && first != '\uFEFF') {
      in.unread(first);
    }
    return in;
  }

  /**
   * The cells of one line read alone (a header, or a record that must not reach into the next
   * line); a blank line is one empty cell.
   *
   * @param where the file, for messages
   * @param number the line's number in it
   * @throws IllegalArgumentException if the line is malformed (a quoted cell never closed within
   *     it, text after a closing quote), naming {@code where}, the line and the column
   */
  public static String[] cells(String line, String where, long number) {
    String[][] out = {{""}};
    try (Reader text = new StringReader(line)) {
      new Records(text, where, number, (cells, at) -> out[0] = cells, line.length() + 1)
          .readAll();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a StringReader does not fail
    }
    return out[0];
  }

  /** The text without a leading byte-order mark (U+FEFF). */
  public static String withoutBom(String text) {
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /** The cell as CSV: quoted when it holds a comma, a quote, a line break or surrounding space. */
  public static String quote(String cell) {
    boolean plain = cell.indexOf(',') < 0 && cell.indexOf('"') < 0 && cell.indexOf('\n') < 0
        && cell.indexOf('\r') < 0 && cell.equals(cell.strip());
    return plain ? cell : '"' + cell.replace("\"", "\"\"") + '"';
  }

  /**
   * The message for malformed text: the line and the cell where it broke, found by reading the
   * text again up to that point (only on this path).
   */
  private static IllegalArgumentException malformed(Source source, String where, long firstLine,
      long recordLine, CSVException e) throws IOException {
    Matcher afterQuote = AFTER_QUOTE.matcher(e.getMessage());
    Matcher unclosed = UNCLOSED.matcher(e.getMessage());
    long line;
    String what;
    String prefix;
    if (afterQuote.find()) {
      line = number(afterQuote.group(1));
      // the position counts the offending character: the record up to before it
      prefix = recordText(source, recordLine, number(afterQuote.group(2)) - 1);
      what = "text after a closing quote";
    } else if (unclosed.find()) {
      line = number(unclosed.group(1));
      prefix = recordText(source, recordLine, Long.MAX_VALUE) + '"';
      what = "a quoted cell is never closed";
    } else {
      return new IllegalArgumentException(where + ":" + (firstLine + recordLine - 1) + ": "
          + e.getMessage(), e);
    }
    int column = 1;
    try (CSVParser parser = FORMAT.parse(new StringReader(prefix))) {
      Iterator<CSVRecord> it = parser.iterator();
      column = it.hasNext() ? it.next().size() : 1;
    } catch (UncheckedIOException ignored) {
      // the record cannot be cut at that point: the column stays unknown (1)
    }
    return new IllegalArgumentException(where + ":" + (firstLine + line - 1) + ", column "
        + column + ": " + what, e);
  }

  /**
   * The records of a stream, one at a time, in a buffer that holds the record being read (it
   * grows for a long record, up to twice {@link #MAX_RECORD_CHARS} characters and one more to see
   * whether a {@code \r} is followed by {@code \n}). Offsets are from the record's start.
   */
  private static final class Records {
    private static final int MAX_BUFFER = 2 * MAX_RECORD_CHARS + 1;
    private final Reader in;
    private final String where;
    private final Visitor visitor;
    private char[] buffer;
    private int start;
    private int end;
    private boolean atEnd;
    /** The line of the file the current record starts on. */
    private long line;
    private long records;

    /** @param capacity the buffer's first size, in characters (at least 1) */
    Records(Reader in, String where, long firstLine, Visitor visitor, int capacity) {
      this.in = in;
      this.buffer = new char[Math.min(capacity, MAX_BUFFER)];
      this.where = where;
      this.line = firstLine;
      this.visitor = visitor;
    }

    long readAll() throws IOException {
      while (has(0)) {
        // to the line's end or its first quote, in the buffer (the hot loop: every record)
        int k = 0;
        int commas = 0;
        int c;
        while (true) {
          char[] b = buffer;
          int i = start + k;
          int limit = end;
          while (i < limit && b[i] != '\n' && b[i] != '\r' && b[i] != '"') {
            if (b[i] == ',') {
              commas++;
            }
            i++;
          }
          k = i - start;
          if (i < limit) {
            c = b[i];
            break;
          }
          if (!has(k)) {
            c = -1;
            break;
          }
        }
        if (c == '"') {
          quoted();
        } else {
          String[] cells = split(k, commas + 1);
          if (!blank(cells)) {
            records++;
            visitor.record(cells, line);
          }
          next(c < 0 ? k : lineEnd(k), c < 0 ? 0 : 1);
        }
      }
      return records;
    }

    /** The cells of the quote-free line [0, length), as Commons CSV reads them. */
    private String[] split(int length, int count) {
      String[] cells = new String[count];
      int from = start;
      int to = start + length;
      for (int i = 0; i < count; i++) {
        int stop = from;
        while (stop < to && buffer[stop] != ',') {
          stop++;
        }
        int a = from;
        int b = stop;
        while (a < b && space(buffer[a])) {
          a++;
        }
        while (b > a && space(buffer[b - 1])) {
          b--;
        }
        cells[i] = new String(buffer, a, b - a);
        from = stop + 1;
      }
      return cells;
    }

    /**
     * Finds where a record with a quote ends, as Commons CSV's lexer does, and has Commons CSV
     * parse it alone. Malformed text ends the record's text just after the character the lexer
     * refuses (text after a closing quote) or at the end of the stream (a quoted cell never
     * closed), where the parse fails with the message a parse of the whole stream gives.
     */
    private void quoted() throws IOException {
      int k = 0;
      long lines = 0;
      while (true) {
        int c = at(k);
        while (c >= 0 && c != '\n' && c != '\r' && Character.isWhitespace((char) c)) {
          c = at(++k);
        }
        if (c == '"') {
          for (k++, c = at(k); c != '"' || at(k + 1) == '"'; c = at(k)) {
            if (c < 0) {
              parseAlone(k, lines); // never closed: fails
              return;
            }
            if (c == '"') {
              k++; // a doubled quote
            } else if (c == '\r' || c == '\n' && at(k - 1) != '\r') {
              lines++;
            }
            k++;
          }
          c = at(++k);
          while (c >= 0 && c != ',' && c != '\n' && c != '\r') {
            if (!Character.isWhitespace((char) c)) {
              parseAlone(k + 1, lines); // text after the closing quote: fails
              return;
            }
            c = at(++k);
          }
        } else {
          while (c >= 0 && c != ',' && c != '\n' && c != '\r') {
            c = at(++k);
          }
        }
        if (c < 0) {
          parseAlone(k, lines);
          return;
        }
        if (c != ',') {
          parseAlone(lineEnd(k), lines + 1);
          return;
        }
        k++;
      }
    }

    /** Parses the record's text [0, length) with Commons CSV, then moves past it. */
    private void parseAlone(int length, long lines) throws IOException {
      String text = new String(buffer, start, length);
      records += parse(() -> new StringReader(text), where, line, visitor);
      next(length, lines);
    }

    /** The offset after the line end at {@code k} ({@code \r\n}, {@code \n} or {@code \r}). */
    private int lineEnd(int k) throws IOException {
      return at(k) == '\r' && at(k + 1) == '\n' ? k + 2 : k + 1;
    }

    /** Moves to the record after {@code length} characters holding {@code lines} line ends. */
    private void next(int length, long lines) {
      start += length;
      line += lines;
    }

    /** The character at offset {@code k}, or -1 past the end of the text. */
    private int at(int k) throws IOException {
      return has(k) ? buffer[start + k] : -1;
    }

    /** Whether the text has a character at offset {@code k}, reading more of it if needed. */
    private boolean has(int k) throws IOException {
      while (start + k >= end) {
        if (atEnd) {
          return false;
        }
        if (end == buffer.length) {
          if (start > 0) {
            System.arraycopy(buffer, start, buffer, 0, end - start);
            end -= start;
            start = 0;
          } else if (buffer.length < MAX_BUFFER) {
            buffer = Arrays.copyOf(buffer, (int) Math.min(2L * buffer.length,
                MAX_BUFFER));
          } else {
            throw new IllegalArgumentException(where + ":" + line + ": a record must be at most "
                + MAX_RECORD_CHARS + " characters, but the one starting here is longer (a "
                + "quote never closed?)");
          }
        }
        int n = in.read(buffer, end, buffer.length - end);
        if (n < 0) {
          atEnd = true;
        } else {
          end += n;
        }
      }
      return true;
    }
  }

  /**
   * {@link Character#isWhitespace}, answered without its table for the printable ASCII characters
   * (none of which it accepts), a cell's usual first and last characters.
   */
  static boolean space(char c) {
    return (c <= ' ' || c >= '\u007f') && Character.isWhitespace(c);
  }

  private static long number(String grouped) {
    return Long.parseLong(grouped.replace(",", ""));
  }

  /** The text from the start of line {@code line} (1-based) to character {@code end}. */
  private static String recordText(Source source, long line, long end) throws IOException {
    StringBuilder out = new StringBuilder();
    try (Reader text = source.open()) {
      long at = 1;
      long position = 0;
      int previous = -1;
      for (int c = text.read(); c >= 0 && position < end; c = text.read(), position++) {
        if (previous == '\r' && c != '\n' || previous == '\n') {
          at++;
        }
        if (at >= line) {
          out.append((char) c);
        }
        previous = c;
      }
    }
    return out.toString();
  }
}
