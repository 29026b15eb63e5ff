package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

/**
 * Regenerates the shipped Fashion-MNIST subset ({@link FashionMnist#shipped}): the first
 * {@code perClass} images of classes 5 and 8, in file order, from each split of a full copy,
 * downsampled by {@link FashionMnist#SHIPPED_POOL} ({@link IdxImages#downsampled}) and written as
 * gzipped IDX files. Deterministic: the same input gives byte-identical IDX content (the test
 * {@code ShippedSubsetTest} checks the shipped files against the Debian package when present).
 *
 * <pre>
 * ./mvnw -B -o -q -pl tradeoff-learning -am compile
 * java -cp tradeoff-learning/target/classes:tradeoff-accounting/target/classes \
 *     dev.tradeoff.learning.data.SubsetWriter /usr/share/datasets/fashion-mnist \
 *     tradeoff-learning/src/main/resources/dev/tradeoff/learning/data/fashion-mnist-5-8
 * </pre>
 */
public final class SubsetWriter {

  private SubsetWriter() {}

  /** Arguments: source directory (the full IDX files), target directory. */
  public static void main(String[] args) {
    Require.that(args.length == 2, "arguments", "must be SOURCE TARGET", args.length);
    Path target = Path.of(args[1]);
    write(Path.of(args[0]), target, FashionMnist.Split.TRAIN, FashionMnist.SHIPPED_TRAIN_PER_CLASS);
    write(Path.of(args[0]), target, FashionMnist.Split.TEST, FashionMnist.SHIPPED_TEST_PER_CLASS);
  }

  /** Writes the subset of one split (classes 5 and 8) as gzipped IDX files into the target. */
  public static void write(Path source, Path target, FashionMnist.Split split, int perClass) {
    IdxImages images =
        IdxReader.readImages(FashionMnist.find(source, split.imagesFile()))
            .downsampled(FashionMnist.SHIPPED_POOL);
    int[] labels = IdxReader.readLabels(FashionMnist.find(source, split.labelsFile()));
    byte[][] idx = subset(images, labels, new int[] {FashionMnist.SANDAL, FashionMnist.BAG}, perClass);
    try {
      Files.createDirectories(target);
      gzip(idx[0], target.resolve(split.imagesFile() + ".gz"));
      gzip(idx[1], target.resolve(split.labelsFile() + ".gz"));
    } catch (IOException e) {
      throw new UncheckedIOException("writing the subset to " + target + " failed", e);
    }
  }

  /**
   * The uncompressed IDX bytes {images, labels} of the first {@code perClass} images of each class,
   * in file order.
   */
  public static byte[][] subset(IdxImages images, int[] labels, int[] classes, int perClass) {
    Require.positive("perClass", perClass);
    int pixels = images.rows() * images.columns();
    int[] taken = new int[classes.length];
    ByteArrayOutputStream imageBody = new ByteArrayOutputStream();
    ByteArrayOutputStream labelBody = new ByteArrayOutputStream();
    int count = 0;
    for (int i = 0; i < images.count(); i++) {
      for (int c = 0; c < classes.length; c++) {
        if (labels[i] == classes[c] && taken[c] < perClass) {
          taken[c]++;
          count++;
          imageBody.write(images.pixels(), i * pixels, pixels);
          labelBody.write(labels[i]);
        }
      }
    }
    for (int c = 0; c < classes.length; c++) {
      Require.that(
          taken[c] == perClass,
          "perClass",
          "must be at most the " + taken[c] + " images of class " + classes[c],
          perClass);
    }
    try {
      ByteArrayOutputStream imageFile = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(imageFile);
      out.writeInt(IdxReader.IMAGES_MAGIC);
      out.writeInt(count);
      out.writeInt(images.rows());
      out.writeInt(images.columns());
      imageBody.writeTo(out);
      ByteArrayOutputStream labelFile = new ByteArrayOutputStream();
      DataOutputStream lout = new DataOutputStream(labelFile);
      lout.writeInt(IdxReader.LABELS_MAGIC);
      lout.writeInt(count);
      labelBody.writeTo(lout);
      return new byte[][] {imageFile.toByteArray(), labelFile.toByteArray()};
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void gzip(byte[] bytes, Path file) throws IOException {
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(bytes);
    }
  }
}
