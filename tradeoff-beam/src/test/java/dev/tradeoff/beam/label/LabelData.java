package dev.tradeoff.beam.label;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Generated data for the labelling job (never the shipped set): two or three Gaussian classes in
 * four dimensions with string labels; the training file's columns are {@code f2,label,f0,f3,f1},
 * the queries' {@code f1,f3,id,f0,f2}. Query {@code q<i>} has the true class {@link #truth}.
 */
public final class LabelData {

  static final String[] NAMES = {"cat", "dog", "emu"};

  private LabelData() {}

  static int classOf(int i, int classes) {
    return Math.floorMod(i * 7 + 3, classes);
  }

  static double[] point(SplittableRandom r, int c) {
    double[] x = new double[4];
    for (int j = 0; j < 4; j++) {
      x[j] = (j == c ? 2.5 : -0.5) + r.nextGaussian();
    }
    return x;
  }

  /** Writes {@code shards} training shards of {@code rows} rows in total into {@code dir}. */
  public static void train(Path dir, int rows, int classes, int shards, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    try {
      Files.createDirectories(dir);
      List<StringBuilder> out = new ArrayList<>();
      for (int s = 0; s < shards; s++) {
        out.add(new StringBuilder("f2,label,f0,f3,f1\n"));
      }
      for (int i = 0; i < rows; i++) {
        int c = classOf(i, classes);
        double[] x = point(r, c);
        out.get(i % shards).append(String.format(Locale.ROOT, "%.5f,%s,%.5f,%.5f,%.5f%n", x[2],
            NAMES[c], x[0], x[3], x[1]));
      }
      for (int s = 0; s < shards; s++) {
        Files.writeString(dir.resolve("part-" + s + ".csv"), out.get(s));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes {@code rows} queries to {@code file}. */
  public static void queries(Path file, int rows, int classes, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    StringBuilder b = new StringBuilder("f1,f3,id,f0,f2\n");
    for (int i = 0; i < rows; i++) {
      double[] x = point(r, classOf(i + 1, classes));
      b.append(String.format(Locale.ROOT, "%.5f,%.5f,q%d,%.5f,%.5f%n", x[1], x[3], i, x[0],
          x[2]));
    }
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The true class name of query i. */
  public static String truth(int i, int classes) {
    return NAMES[classOf(i + 1, classes)];
  }
}
