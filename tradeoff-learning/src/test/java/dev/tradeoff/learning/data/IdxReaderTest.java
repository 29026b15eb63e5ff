package dev.tradeoff.learning.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IdxReaderTest {

  @TempDir Path dir;

  static byte[] idx(int magic, int[] sizes, byte[] body) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(magic);
      for (int s : sizes) {
        out.writeInt(s);
      }
      out.write(body);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Path write(String name, byte[] bytes, boolean gzip) throws IOException {
    Path path = dir.resolve(name);
    try (OutputStream out =
        gzip ? new GZIPOutputStream(Files.newOutputStream(path)) : Files.newOutputStream(path)) {
      out.write(bytes);
    }
    return path;
  }

  /** Two 2 × 3 images with pixel values 0..11 (one of them 255) and labels 7, 9. */
  static byte[] twoImages() {
    byte[] body = new byte[12];
    for (int k = 0; k < 12; k++) {
      body[k] = (byte) k;
    }
    body[11] = (byte) 255;
    return idx(IdxReader.IMAGES_MAGIC, new int[] {2, 2, 3}, body);
  }

  @Test
  void readsRawAndGzippedImagesAndLabelsAlike() throws IOException {
    for (boolean gzip : new boolean[] {false, true}) {
      IdxImages images = IdxReader.readImages(write("img" + gzip, twoImages(), gzip));
      assertThat(images.count()).isEqualTo(2);
      assertThat(images.rows()).isEqualTo(2);
      assertThat(images.columns()).isEqualTo(3);
      assertThat(images.pixel(0, 1, 2)).isEqualTo(5);
      assertThat(images.pixel(1, 1, 2)).isEqualTo(255);
      int[] labels =
          IdxReader.readLabels(
              write("lab" + gzip, idx(IdxReader.LABELS_MAGIC, new int[] {2}, new byte[] {7, 9}),
                  gzip));
      assertThat(labels).containsExactly(7, 9);
      ClassData data = images.toClassData(labels);
      assertThat(data.dimension()).isEqualTo(6);
      assertThat(data.distinctClasses()).containsExactly(7, 9);
      assertThat(data.binary(9, 7).row(1)[5]).isEqualTo(1.0);
      assertThat(data.binary(9, 7).label(1)).isZero();
    }
  }

  @Test
  void rejectsAWrongMagicNumberNamingBothValues() throws IOException {
    Path labels = write("labels", idx(IdxReader.LABELS_MAGIC, new int[] {1}, new byte[] {1}), true);
    assertThatThrownBy(() -> IdxReader.readImages(labels))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "IDX file " + labels + ": magic number must be 0x00000803 (images), but was 0x00000801");
    Path images = write("images", twoImages(), false);
    assertThatThrownBy(() -> IdxReader.readLabels(images))
        .hasMessageContaining("magic number must be 0x00000801 (labels), but was 0x00000803");
  }

  @Test
  void rejectsTruncatedFiles() throws IOException {
    byte[] full = twoImages();
    Path shortBody = write("short", Arrays.copyOf(full, full.length - 1), true);
    assertThatThrownBy(() -> IdxReader.readImages(shortBody))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is truncated: the header declares 2 images of 2x3 (12 bytes)")
        .hasMessageContaining("only 11 bytes follow");
    Path shortHeader = write("header", Arrays.copyOf(full, 9), false);
    assertThatThrownBy(() -> IdxReader.readImages(shortHeader))
        .hasMessageContaining("is truncated: header ends before the row count");
    Path empty = write("empty", new byte[0], false);
    assertThatThrownBy(() -> IdxReader.readLabels(empty)).hasMessageContaining("no header");
  }

  @Test
  void rejectsTrailingBytesAndNonPositiveSizes() throws IOException {
    byte[] full = twoImages();
    Path longer = write("long", Arrays.copyOf(full, full.length + 3), false);
    assertThatThrownBy(() -> IdxReader.readImages(longer)).hasMessageContaining("trailing bytes");
    Path zero = write("zero", idx(IdxReader.LABELS_MAGIC, new int[] {0}, new byte[0]), false);
    assertThatThrownBy(() -> IdxReader.readLabels(zero))
        .hasMessageContaining("label count must be >= 1, but was 0");
  }

  @Test
  void rejectsMissingPaths() {
    Path missing = dir.resolve("nope-idx3-ubyte.gz");
    assertThatThrownBy(() -> IdxReader.readImages(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("IDX file " + missing + " does not exist or is not a file");
    assertThatThrownBy(() -> FashionMnist.load(dir.resolve("none"), FashionMnist.Split.TRAIN, 1))
        .hasMessageContaining("dataset directory " + dir.resolve("none") + " does not exist");
    assertThatThrownBy(() -> FashionMnist.load(dir, FashionMnist.Split.TEST, 1))
        .hasMessageContaining("t10k-images-idx3-ubyte")
        .hasMessageContaining("does not exist");
  }

  @Test
  void loadsADirectoryOfRawOrGzippedFilesAndChecksCounts() throws IOException {
    write("train-images-idx3-ubyte", twoImages(), false);
    write("train-labels-idx1-ubyte.gz", idx(IdxReader.LABELS_MAGIC, new int[] {2},
        new byte[] {5, 8}), true);
    ClassData data = FashionMnist.load(dir, FashionMnist.Split.TRAIN, 1);
    assertThat(data.size()).isEqualTo(2);
    write("t10k-images-idx3-ubyte", twoImages(), false);
    write("t10k-labels-idx1-ubyte", idx(IdxReader.LABELS_MAGIC, new int[] {1}, new byte[] {5}),
        false);
    assertThatThrownBy(() -> FashionMnist.load(dir, FashionMnist.Split.TEST, 1))
        .hasMessageContaining("must equal its image count 2");
  }

  @Test
  void downsamplingAveragesBlocksRoundingHalfUp() {
    byte[] body = new byte[16];
    // a 4 × 4 image; top-left 2 × 2 block {0, 1, 4, 5} has mean 2.5 → 3
    for (int k = 0; k < 16; k++) {
      body[k] = (byte) k;
    }
    IdxImages image = new IdxImages(1, 4, 4, body);
    IdxImages small = image.downsampled(2);
    assertThat(small.rows()).isEqualTo(2);
    assertThat(small.pixel(0, 0, 0)).isEqualTo(3);
    assertThat(small.pixel(0, 1, 1)).isEqualTo(13); // {10, 11, 14, 15}: 12.5 → 13
    assertThat(image.downsampled(1)).isSameAs(image);
    assertThatThrownBy(() -> image.downsampled(3))
        .hasMessage("pool must divide the image size 4x4, but was 3");
  }

  @Test
  void binaryRejectsAClassNotInTheData() {
    ClassData data = new ClassData(1, new double[] {0, 1, 2}, new int[] {5, 8, 5});
    assertThatThrownBy(() -> data.binary(5, 3))
        .hasMessage("positiveClass must be a class present in the data [5, 8], but was 3");
    assertThatThrownBy(() -> data.binary(5, 5))
        .hasMessage("positiveClass must differ from negativeClass 5, but was 5");
    Dataset binary = data.binary(8, 5);
    assertThat(binary.labels()).containsExactly(1, 0, 1);
  }

  @Test
  void aHeaderClaimingMoreThanTheFileHoldsIsRefusedBeforeAllocating() throws IOException {
    // 2,000,000 images of 28x28 declared, 12 bytes present: refused from the file size alone
    Path raw = write("huge-raw", idx(IdxReader.IMAGES_MAGIC, new int[] {2_000_000, 28, 28},
        new byte[12]), false);
    long before = Runtime.getRuntime().totalMemory();
    assertThatThrownBy(() -> IdxReader.readImages(raw))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("declares 2000000 images of 28x28 (1568000000 bytes), more than the file can hold");
    assertThat(Runtime.getRuntime().totalMemory() - before).isLessThan(256L << 20);
    // gzip: the bound is the DEFLATE ratio, then the body is read in chunks as it arrives
    Path gz = write("huge.gz", idx(IdxReader.IMAGES_MAGIC, new int[] {2_000_000, 28, 28},
        new byte[12]), true);
    assertThatThrownBy(() -> IdxReader.readImages(gz))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is truncated");
  }

  @Test
  void gzipGarbageIsRefusedWithTheFileNamed() throws IOException {
    byte[] garbage = new byte[200];
    new java.util.Random(5).nextBytes(garbage);
    garbage[0] = 0x1f;
    garbage[1] = (byte) 0x8b; // the gzip magic, then garbage
    Path bad = dir.resolve("garbage.gz");
    Files.write(bad, garbage);
    assertThatThrownBy(() -> IdxReader.readImages(bad))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("garbage.gz").hasMessageContaining("not valid gzip content");
    Path truncated = dir.resolve("truncated.gz");
    byte[] whole = Files.readAllBytes(write("whole.gz", twoImages(), true));
    Files.write(truncated, Arrays.copyOf(whole, whole.length / 2));
    assertThatThrownBy(() -> IdxReader.readImages(truncated))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("truncated.gz");
  }
}
