package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.Require;

/**
 * Images read from an IDX file (LeCun et al., the MNIST format, also used by Fashion-MNIST): count
 * images of rows × columns unsigned bytes, row-major, images one after another.
 *
 * @param count the number of images ≥ 1
 * @param rows pixel rows per image ≥ 1
 * @param columns pixel columns per image ≥ 1
 * @param pixels count·rows·columns bytes, read as unsigned 0..255 (not copied: treat as read-only)
 */
public record IdxImages(int count, int rows, int columns, byte[] pixels) {

  public IdxImages {
    Require.positive("count", count);
    Require.positive("rows", rows);
    Require.positive("columns", columns);
    Require.nonNull("pixels", pixels);
    Require.that(
        pixels.length == (long) count * rows * columns,
        "pixels.length",
        "must equal count * rows * columns = " + (long) count * rows * columns,
        pixels.length);
  }

  /** Pixel (r, c) of image i as an unsigned value 0..255. */
  public int pixel(int i, int r, int c) {
    return pixels[(i * rows + r) * columns + c] & 0xff;
  }

  /**
   * Features for learning: each image's pixels divided by 255, averaged over non-overlapping
   * pool × pool blocks (pool 1 keeps every pixel; pool 4 turns 28 × 28 into 7 × 7), row-major.
   *
   * @param labels one class per image
   * @param pool the block side ≥ 1, dividing both rows and columns
   */
  public ClassData toClassData(int[] labels, int pool) {
    Require.nonNull("labels", labels);
    Require.that(
        labels.length == count, "labels.length", "must equal the image count " + count,
        labels.length);
    Require.positive("pool", pool);
    Require.that(
        rows % pool == 0 && columns % pool == 0,
        "pool",
        "must divide the image size " + rows + "x" + columns,
        pool);
    int pr = rows / pool;
    int pc = columns / pool;
    int d = pr * pc;
    double[] features = new double[count * d];
    double scale = 1.0 / (255.0 * pool * pool);
    for (int i = 0; i < count; i++) {
      for (int r = 0; r < rows; r++) {
        for (int c = 0; c < columns; c++) {
          features[i * d + (r / pool) * pc + c / pool] += pixel(i, r, c);
        }
      }
      for (int j = 0; j < d; j++) {
        features[i * d + j] *= scale;
      }
    }
    return new ClassData(d, features, labels);
  }
}
