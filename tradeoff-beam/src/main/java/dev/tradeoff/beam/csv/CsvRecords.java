package dev.tradeoff.beam.csv;

import dev.tradeoff.accounting.internal.Require;
import java.io.FilterReader;
import java.io.IOException;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * <p>Malformed text is an {@link IllegalArgumentException} naming where it is as
 * {@code WHERE:LINE, column C} (the line of the file, the 1-based cell of the record): a quoted
 * cell never closed, or text after a closing quote; so is text in which no record ends for twice
 * {@link #MAX_RECORD_CHARS} characters after a record starts (a quote opened and never closed in
 * a large file would otherwise be held in memory to the file's end). Records of up to
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
    long records = 0;
    try (Limited text = new Limited(source.open()); CSVParser parser = FORMAT.parse(text)) {
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
        } catch (TooLong e) {
          throw new IllegalArgumentException(where + ":" + (firstLine + before) + ": a record "
              + "must be at most " + MAX_RECORD_CHARS + " characters, but the one starting here "
              + "is longer (a quote never closed?)");
        }
        text.recordAt(record.getCharacterPosition());
        String[] cells = record.values();
        if (cells.length > 1 || cells.length == 1 && !cells[0].isEmpty()) {
          records++;
          visitor.record(cells, firstLine + before);
        }
      }
    }
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
    try {
      read(() -> new StringReader(line), where, number, (cells, at) -> out[0] = cells);
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

  /** Thrown from inside the parser's reads: the current record is too long. */
  private static final class TooLong extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLong() {
      super(null, null, false, false);
    }
  }

  /**
   * The text as the parser reads it, refusing to hand out more than twice
   * {@link #MAX_RECORD_CHARS} (and the parser's read-ahead) past the start of the last record
   * read: that record and the one being read are then not both of at most
   * {@code MAX_RECORD_CHARS}.
   */
  private static final class Limited extends FilterReader {
    private static final int READ_AHEAD = 1 << 16;
    private long delivered;
    private long recordStart;

    Limited(Reader in) {
      super(in);
    }

    void recordAt(long position) {
      recordStart = position;
    }

    @Override
    public int read() throws IOException {
      char[] one = new char[1];
      return read(one, 0, 1) < 0 ? -1 : one[0];
    }

    @Override
    public int read(char[] buffer, int offset, int length) throws IOException {
      int n = super.read(buffer, offset, length);
      if (n > 0 && (delivered += n) - recordStart > 2L * MAX_RECORD_CHARS + READ_AHEAD) {
        throw new TooLong();
      }
      return n;
    }
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
