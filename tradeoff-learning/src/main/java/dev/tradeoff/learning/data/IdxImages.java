package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;

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
   * The images shrunk by averaging non-overlapping pool × pool blocks, each mean rounded half up to
   * an unsigned byte (pool 1 returns this; pool 4 turns 28 × 28 into 7 × 7).
   *
   * @param pool the block side ≥ 1, dividing both rows and columns
   */
  public IdxImages downsampled(int pool) {
    Require.positive("pool", pool);
    Require.that(
        rows % pool == 0 && columns % pool == 0,
        "pool",
        "must divide the image size " + rows + "x" + columns,
        pool);
    if (pool == 1) {
      return this;
    }
    int pr = rows / pool;
    int pc = columns / pool;
    int area = pool * pool;
    byte[] out = new byte[count * pr * pc];
    for (int i = 0; i < count; i++) {
      for (int r = 0; r < pr; r++) {
        for (int c = 0; c < pc; c++) {
          int sum = 0;
          for (int dr = 0; dr < pool; dr++) {
            for (int dc = 0; dc < pool; dc++) {
              sum += pixel(i, r * pool + dr, c * pool + dc);
            }
          }
          out[(i * pr + r) * pc + c] = (byte) ((2 * sum + area) / (2 * area));
        }
      }
    }
    return new IdxImages(count, pr, pc, out);
  }

  /**
   * Features for learning: each image's pixels divided by 255, row-major.
   *
   * @param labels one class per image
   */
  public ClassData toClassData(int[] labels) {
    Require.nonNull("labels", labels);
    Require.that(
        labels.length == count, "labels.length", "must equal the image count " + count,
        labels.length);
    int d = rows * columns;
    double[] features = new double[count * d];
    for (int k = 0; k < features.length; k++) {
      features[k] = (pixels[k] & 0xff) / 255.0;
    }
    return new ClassData(d, features, labels);
  }
}
