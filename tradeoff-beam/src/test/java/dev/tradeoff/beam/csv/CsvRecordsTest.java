package dev.tradeoff.beam.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CsvRecordsTest {

  /** Every record read from the text, each as its line and its cells. */
  static List<String> records(String text, long firstLine) throws IOException {
    List<String> out = new ArrayList<>();
    CsvRecords.read(() -> new StringReader(text), "f.csv", firstLine,
        (cells, line) -> out.add(line + ":" + String.join("|", cells)));
    return out;
  }

  @Test
  void spaceIsCharacterIsWhitespaceForEveryChar() {
    for (int c = Character.MIN_VALUE; c <= Character.MAX_VALUE; c++) {
      assertThat(CsvRecords.space((char) c)).as("U+%04X", c)
          .isEqualTo(Character.isWhitespace((char) c));
    }
  }

  @Test
  void readsRfc4180QuotesLineBreaksAndEveryLineEnd() throws IOException {
    String text = "a, b ,c\r\n"
        + "\"x,1\",\"say \"\"hi\"\"\", \"  kept  \" \n"
        + "\n"
        + "   \r"
        + "\"two\nlines\",\"and\r\nthree\",z\n"
        + "last,,row";
    assertThat(records(text, 1)).containsExactly(
        "1:a|b|c",
        "2:x,1|say \"hi\"|  kept  ",
        "5:two\nlines|and\r\nthree|z",
        "8:last||row");
  }

  @Test
  void linesCountFromWhereTheTextStartsInItsFile() throws IOException {
    assertThat(records("p,q\n\"r\ns\",t\nu,v\n", 40)).containsExactly("40:p|q", "41:r\ns|t",
        "43:u|v");
  }

  @Test
  void aByteOrderMarkIsRemovedOnlyAtTheStart() {
    assertThat(CsvRecords.cells(CsvRecords.withoutBom("\uFEFFid,x"), "f", 1)).containsExactly("id",
        "x");
    assertThat(CsvRecords.withoutBom("id,\uFEFF")).isEqualTo("id,\uFEFF");
  }

  @Test
  void textAfterAClosingQuoteNamesTheFileLineAndColumn() {
    assertThatThrownBy(() -> records("id,x\nq1,1\nq2,\"1\"5\n", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("f.csv:3, column 2: text after a closing quote");
    // the record starts two lines before the error; the column counts its cells, not the line's
    assertThatThrownBy(() -> records("id,x,y\n\"a\nb\",\"c\nd\"e,f\n", 10))
        .hasMessage("f.csv:13, column 2: text after a closing quote");
    assertThatThrownBy(() -> CsvRecords.cells("a,b,\"c\"d", "header f.csv", 1))
        .hasMessage("header f.csv:1, column 3: text after a closing quote");
  }

  @Test
  void aQuotedCellNeverClosedNamesTheLineItOpensOnAndItsColumn() {
    assertThatThrownBy(() -> records("id,x\nq1,1\nq2,\"1\nq3,3\n", 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("f.csv:3, column 2: a quoted cell is never closed");
    assertThatThrownBy(() -> CsvRecords.cells("\"a\"\"", "train", 1))
        .hasMessage("train:1, column 1: a quoted cell is never closed");
  }

  /** A quote never closed: reading stops instead of holding the rest of the text in memory. */
  @Test
  void aRecordThatNeverEndsIsRefusedWithoutReadingToTheEnd() {
    long[] handedOut = {0};
    java.io.Reader endless = new java.io.Reader() {
      @Override
      public int read(char[] buffer, int offset, int length) {
        for (int i = 0; i < length; i++) {
          buffer[offset + i] = handedOut[0] + i == 4 ? '"' : 'a';
        }
        handedOut[0] += length;
        return length;
      }

      @Override
      public void close() {}
    };
    assertThatThrownBy(() -> CsvRecords.read(() -> endless, "f.csv", 1, (cells, line) -> { }))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("f.csv:1: a record must be at most 16777216 characters, but the one "
            + "starting here is longer (a quote never closed?)");
    assertThat(handedOut[0]).isLessThan(3L * CsvRecords.MAX_RECORD_CHARS);
  }

  @Test
  void aBlankLineIsOneEmptyCell() {
    assertThat(CsvRecords.cells("", "f", 1)).containsExactly("");
    assertThat(CsvRecords.cells("  ", "f", 1)).containsExactly("");
  }

  /** Quoting a cell and reading it back gives the cell, whatever it holds. */
  @Test
  void quotedCellsReadBackAsWritten() throws IOException {
    SplittableRandom r = new SplittableRandom(3);
    String alphabet = "ab ,\"\n\r\té";
    for (int trial = 0; trial < 500; trial++) {
      String[] cells = new String[r.nextInt(1, 5)];
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < cells.length; c++) {
        StringBuilder cell = new StringBuilder("x");
        for (int i = r.nextInt(0, 8); i > 0; i--) {
          cell.append(alphabet.charAt(r.nextInt(alphabet.length())));
        }
        cells[c] = cell.toString();
        line.append(c == 0 ? "" : ",").append(CsvRecords.quote(cells[c]));
      }
      List<String[]> read = new ArrayList<>();
      CsvRecords.read(() -> new StringReader(line + "\n"), "f", 1, (got, at) -> read.add(got));
      assertThat(read).as("trial %d: %s", trial, line).hasSize(1);
      assertThat(read.get(0)).as("trial %d: %s", trial, line).containsExactly(cells);
    }
  }

  /** A reader handing out the text a few characters at a time (1 to {@code most} a read). */
  private static Reader chunked(String text, SplittableRandom r, int most) {
    return new Reader() {
      private int at;

      @Override
      public int read(char[] buffer, int offset, int length) {
        if (at == text.length()) {
          return -1;
        }
        int n = Math.min(Math.min(length, r.nextInt(1, most + 1)), text.length() - at);
        text.getChars(at, at + n, buffer, offset);
        at += n;
        return n;
      }

      @Override
      public void close() {}
    };
  }

  /**
   * What a reading gives: each record with its line (a record starts where its line starts, so
   * equal lines are equal start offsets), then the count or the failure's message.
   */
  private static List<String> outcome(CsvRecords.Source source, boolean whole) {
    List<String> out = new ArrayList<>();
    try {
      long n = whole
          ? CsvRecords.parse(source, "f.csv", 7, (cells, at) -> out.add(at + ":"
              + Arrays.asList(cells)))
          : CsvRecords.read(source, "f.csv", 7, (cells, at) -> out.add(at + ":"
              + Arrays.asList(cells)));
      out.add("records: " + n);
    } catch (IllegalArgumentException | IOException e) {
      out.add(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    return out;
  }

  /** Pieces of random text: cells, quotes, delimiters, every line end, what is and is not space. */
  private static final String[] PIECES = {"a", "b", "12", "é", "\uD83D\uDE00", " ", "\t", "\u000B",
      "\u001F", "\u2028", "\u00A0", "\uFEFF", ",", ",", ",", "\n", "\r", "\r\n", "\"", "\"\"",
      "\"x,\ny\"", " \"q\" ", "\"a\"\"b\r\nc\"", "\"\""};

  private static String randomText(SplittableRandom r, int pieces) {
    StringBuilder text = new StringBuilder(r.nextInt(8) == 0 ? "\uFEFF" : "");
    boolean wellFormed = r.nextBoolean();
    for (int i = 0; i < pieces; i++) {
      if (wellFormed) {
        // whole cells: plain, or quoted with whatever inside (quotes doubled)
        StringBuilder cell = new StringBuilder();
        for (int j = r.nextInt(0, 4); j > 0; j--) {
          cell.append(PIECES[r.nextInt(PIECES.length)]);
        }
        boolean quote = r.nextInt(3) == 0;
        String body = cell.toString();
        text.append(quote ? " \"" + body.replace("\"", "\"\"") + "\"\t"
            : body.replaceAll("[\"\r\n,]", ""));
        text.append(r.nextInt(3) == 0 ? new String[] {"\n", "\r", "\r\n"}[r.nextInt(3)] : ",");
      } else {
        text.append(PIECES[r.nextInt(PIECES.length)]);
      }
    }
    return text.toString();
  }

  /**
   * The reading (quote-free lines split here, records with a quote delimited here and parsed by
   * Commons CSV alone) against one Commons CSV parse of the whole text, on 5,000 random texts,
   * a third of them malformed: the same records, on the same lines, the same count, or the same
   * failure after the same records. The texts come in chunks of random sizes, so that a record,
   * a line end or a doubled quote is cut anywhere.
   */
  @Test
  void readingRecordByRecordAgreesWithOneCommonsCsvParseOfTheWholeText() {
    SplittableRandom r = new SplittableRandom(26);
    int malformed = 0;
    for (int trial = 0; trial < 5_000; trial++) {
      String text = randomText(r, r.nextInt(0, 30));
      List<String> expected = outcome(() -> CsvRecords.withoutBom(new StringReader(text)), true);
      int most = r.nextInt(1, 9);
      List<String> actual = outcome(() -> CsvRecords.withoutBom(chunked(text, r, most)), false);
      assertThat(actual).as("trial %d: %s", trial, text).containsExactlyElementsOf(expected);
      if (expected.get(expected.size() - 1).startsWith("IllegalArgumentException")) {
        malformed++;
      }
    }
    assertThat(malformed).isBetween(700, 3_500);
  }

  /**
   * Long texts, read through a buffer that is moved and grown: records longer than the buffer (a
   * quoted cell of 200,000 characters with line breaks), then a malformed record at the end.
   */
  @Test
  void longTextsAndLongRecordsAgreeWithOneCommonsCsvParse() {
    SplittableRandom r = new SplittableRandom(27);
    for (int trial = 0; trial < 6; trial++) {
      StringBuilder text = new StringBuilder();
      while (text.length() < 300_000) {
        text.append(randomText(r, 40).replace("\"", "")).append('\n');
        if (r.nextInt(4) == 0) {
          text.append("\"").append("long\r\n cell ".repeat(r.nextInt(1, 20_000))).append("\",x\r");
        }
      }
      text.append(r.nextBoolean() ? "a,\"b\"c\n" : "a,\"b");
      String whole = text.toString();
      List<String> expected = outcome(() -> new StringReader(whole), true);
      List<String> actual = outcome(() -> chunked(whole, r, 5_000), false);
      assertThat(actual).as("trial %d", trial).containsExactlyElementsOf(expected);
      assertThat(expected.get(expected.size() - 1)).startsWith("IllegalArgumentException");
    }
  }
}
