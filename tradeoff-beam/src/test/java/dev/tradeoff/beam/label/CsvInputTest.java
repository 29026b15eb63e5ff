package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Locations that cannot be read are refused naming the input, never with Beam's bare message. */
class CsvInputTest {

  @TempDir Path dir;

  @Test
  void anInvalidGlobNamesTheInput() throws Exception {
    Files.createDirectories(dir.resolve("tr"));
    assertThatThrownBy(() -> CsvInput.resolve("train", dir.resolve("tr/[a.csv").toString()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("train must be a file, a directory or a glob")
        .hasMessageContaining("is not a valid glob");
  }

  @Test
  void aFileSystemThisBuildDoesNotHaveNamesTheInput() {
    for (String location : new String[] {"hdfs://nn:8020/train.csv", "nosuch://bucket/train.csv"}) {
      assertThatThrownBy(() -> CsvInput.resolve("train", location))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("train must be a local file, directory or glob")
          .hasMessageContaining(location);
    }
  }

  @Test
  void aBlankFirstLineIsNotCalledEmpty() throws Exception {
    Path blank = dir.resolve("blank.csv");
    Files.writeString(blank, "\nid,x\nq1,1\n");
    assertThatThrownBy(() -> CsvInput.resolve("queries", blank.toString()))
        .hasMessageContaining("its first line is blank");
    Path empty = dir.resolve("empty.csv");
    Files.writeString(empty, "");
    assertThatThrownBy(() -> CsvInput.resolve("queries", empty.toString()))
        .hasMessageContaining("but is empty");
  }
}
