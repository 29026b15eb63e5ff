package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fashion-MNIST (Xiao, Rasul and Vollgraf 2017): 28 × 28 grey images in 10 classes (5 = sandal,
 * 8 = bag, the two classes of [DaRRM24, Section 6.2]), 60 000 training and 10 000 test
 * images, in IDX files named {@code train-images-idx3-ubyte}, {@code train-labels-idx1-ubyte},
 * {@code t10k-images-idx3-ubyte} and {@code t10k-labels-idx1-ubyte}, each optionally gzipped
 * ({@code .gz}).
 *
 * <p>The full data comes from Debian's {@code dataset-fashion-mnist} package, installed at
 * {@link #DEBIAN_DIRECTORY}. A subset of classes 5 and 8 ships inside this module
 * ({@link #shipped}): the first {@value #SHIPPED_TRAIN_PER_CLASS} training and
 * {@value #SHIPPED_TEST_PER_CLASS} test images of each class (the paper's 10 000 / 2 000 split
 * sizes), downsampled by {@value #SHIPPED_POOL} × {@value #SHIPPED_POOL} block means to 7 × 7;
 * {@link SubsetWriter} regenerates it from the Debian files, and {@code load(dir, split,
 * SHIPPED_POOL)} of the full data yields byte-identical images for those records.
 */
public final class FashionMnist {

  /** Where Debian's {@code dataset-fashion-mnist} package installs the gzipped IDX files. */
  public static final Path DEBIAN_DIRECTORY = Path.of("/usr/share/datasets/fashion-mnist");

  /** Class 5 of Fashion-MNIST. */
  public static final int SANDAL = 5;

  /** Class 8 of Fashion-MNIST. */
  public static final int BAG = 8;

  /** Block side of the shipped subset's downsampling (28 × 28 → 7 × 7). */
  public static final int SHIPPED_POOL = 4;

  /** Training images per class in the shipped subset. */
  public static final int SHIPPED_TRAIN_PER_CLASS = 5000;

  /** Test images per class in the shipped subset. */
  public static final int SHIPPED_TEST_PER_CLASS = 1000;

  /** Classpath folder of the shipped 5-vs-8 subset. */
  public static final String SHIPPED_RESOURCE = "/dev/tradeoff/learning/data/fashion-mnist-5-8/";

  private FashionMnist() {}

  /** The training or test half of the data. */
  public enum Split {
    TRAIN("train"),
    TEST("t10k");

    private final String prefix;

    Split(String prefix) {
      this.prefix = prefix;
    }

    /** The file-name prefix: {@code train} or {@code t10k}. */
    public String prefix() {
      return prefix;
    }

    public String imagesFile() {
      return prefix + "-images-idx3-ubyte";
    }

    public String labelsFile() {
      return prefix + "-labels-idx1-ubyte";
    }
  }

  /**
   * Images and labels of one split read from a directory, downsampled by pool × pool block means
   * ({@link IdxImages#downsampled}; pool 1 keeps 28 × 28).
   */
  public static ClassData load(Path directory, Split split, int pool) {
    Require.nonNull("directory", directory);
    Require.nonNull("split", split);
    if (!Files.isDirectory(directory)) {
      throw new IllegalArgumentException(
          "dataset directory "
              + directory
              + " does not exist (install Debian's dataset-fashion-mnist package for "
              + DEBIAN_DIRECTORY
              + ")");
    }
    IdxImages images = IdxReader.readImages(find(directory, split.imagesFile()));
    int[] labels = IdxReader.readLabels(find(directory, split.labelsFile()));
    return checked(images, labels, directory + "/" + split.prefix())
        .downsampled(pool)
        .toClassData(labels);
  }

  /** {@link #load(Path, Split, int)} from {@link #DEBIAN_DIRECTORY}. */
  public static ClassData loadDebian(Split split, int pool) {
    return load(DEBIAN_DIRECTORY, split, pool);
  }

  /** Images and labels (classes 5 and 8) of one split of the shipped 7 × 7 subset. */
  public static ClassData shipped(Split split) {
    Require.nonNull("split", split);
    IdxImages images;
    int[] labels;
    try {
      images = IdxReader.readImages(resource(split.imagesFile() + ".gz"), split.imagesFile());
      labels = IdxReader.readLabels(resource(split.labelsFile() + ".gz"), split.labelsFile());
    } catch (IOException e) {
      throw new UncheckedIOException("reading the shipped Fashion-MNIST subset failed", e);
    }
    return checked(images, labels, "shipped " + split.prefix()).toClassData(labels);
  }

  private static InputStream resource(String file) {
    InputStream in = FashionMnist.class.getResourceAsStream(SHIPPED_RESOURCE + file);
    if (in == null) {
      throw new IllegalStateException("shipped resource " + SHIPPED_RESOURCE + file + " missing");
    }
    return in;
  }

  private static IdxImages checked(IdxImages images, int[] labels, String name) {
    Require.that(
        labels.length == images.count(),
        "label count of " + name,
        "must equal its image count " + images.count(),
        labels.length);
    return images;
  }

  /** The file {@code name} or {@code name.gz} in the directory. */
  static Path find(Path directory, String name) {
    Path raw = directory.resolve(name);
    if (Files.isRegularFile(raw)) {
      return raw;
    }
    Path gz = directory.resolve(name + ".gz");
    if (Files.isRegularFile(gz)) {
      return gz;
    }
    throw new IllegalArgumentException(
        "dataset file " + raw + " (or " + gz.getFileName() + ") does not exist");
  }
}
