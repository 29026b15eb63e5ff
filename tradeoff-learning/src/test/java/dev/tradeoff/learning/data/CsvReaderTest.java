package dev.tradeoff.learning.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvReaderTest {

  @TempDir Path dir;

  static ClassData read(String text) throws IOException {
    return CsvReader.read(new StringReader(text), "t.csv", "label");
  }

  @Test
  void readsFeaturesInFileOrderAndTheLabelColumnAnywhere() throws IOException {
    Path file = dir.resolve("d.csv");
    Files.writeString(file, "a, label ,b\n1.5,1,-2\n\n 0 ,0, 3e-1\n");
    ClassData data = CsvReader.read(file, "label");
    assertThat(data.size()).isEqualTo(2);
    assertThat(data.dimension()).isEqualTo(2);
    Dataset binary = data.binary(0, 1);
    assertThat(binary.row(0)).containsExactly(1.5, -2);
    assertThat(binary.row(1)).containsExactly(0, 0.3);
    assertThat(binary.labels()).containsExactly(1, 0);
  }

  @Test
  void rejectsRaggedRowsWithTheLineNumber() {
    assertThatThrownBy(() -> read("x,label\n1,0\n2\n"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("CSV file t.csv line 3 has 1 cells, but the header has 2");
  }

  @Test
  void rejectsNonNumericAndNonFiniteCells() {
    assertThatThrownBy(() -> read("x,label\nabc,0\n"))
        .hasMessage("CSV file t.csv line 2 column 'x' must be a number, but was 'abc'");
    assertThatThrownBy(() -> read("x,label\nNaN,0\n"))
        .hasMessage("CSV file t.csv line 2 column 'x' must be finite, but was 'NaN'");
    assertThatThrownBy(() -> read("x,label\n1,0.5\n"))
        .hasMessage(
            "CSV file t.csv line 2 label column 'label' must be an integer class, but was '0.5'");
    assertThatThrownBy(() -> read("x,label\n\"1\",0\n"))
        .hasMessageContaining("quoted cells are not supported");
  }

  @Test
  void rejectsBadHeadersAndEmptyFiles() {
    assertThatThrownBy(() -> read("")).hasMessage("CSV file t.csv is empty: no header line");
    assertThatThrownBy(() -> read("x,y\n1,2\n"))
        .hasMessage("CSV file t.csv: label column 'label' not in header [x, y]");
    assertThatThrownBy(() -> read("label,label\n1,2\n"))
        .hasMessageContaining("appears twice");
    assertThatThrownBy(() -> read("label\n1\n")).hasMessageContaining("no feature columns");
    assertThatThrownBy(() -> read("x,label\n")).hasMessage("CSV file t.csv has a header but no records");
    assertThatThrownBy(() -> CsvReader.read(dir.resolve("missing.csv"), "label"))
        .hasMessageContaining("does not exist");
  }
}
