package dev.tradeoff.beam.csv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
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
}
