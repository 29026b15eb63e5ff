package dev.tradeoff.learning.data;

import dev.tradeoff.accounting.internal.Require;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Reader of the IDX format of MNIST and Fashion-MNIST: a big-endian header (magic number, then one
 * 32-bit size per dimension) followed by unsigned bytes. Images have magic 0x00000803 (three
 * dimensions: count, rows, columns), labels 0x00000801 (one dimension: count). Files may be raw or
 * gzip-compressed; compression is detected from the content (the gzip magic 1f 8b), not the name.
 *
 * <p>Every malformed input is an {@link IllegalArgumentException} naming the file: a missing path,
 * a wrong magic number, a non-positive size, a header that declares more bytes than the file can
 * hold (checked before anything is allocated: at most the file's size for a raw file, {@value
 * #MAX_DEFLATE_RATIO} times it for gzip), a truncated body, trailing bytes, or gzip content that
 * does not decompress. The body is read in chunks, so memory grows only with the bytes that
 * actually arrive, never with what a header claims. Other I/O failures are {@link
 * UncheckedIOException}s.
 */
public final class IdxReader {

  /** Magic number of an IDX file of unsigned-byte images (3 dimensions). */
  public static final int IMAGES_MAGIC = 0x00000803;

  /** Magic number of an IDX file of unsigned-byte labels (1 dimension). */
  public static final int LABELS_MAGIC = 0x00000801;

  private static final int MAX_BYTES = Integer.MAX_VALUE - 16;

  /** The largest expansion of DEFLATE (about 1032:1), bounding a gzip file's content. */
  static final long MAX_DEFLATE_RATIO = 1032;

  private static final int CHUNK = 1 << 20;

  private IdxReader() {}

  /** Reads an images file. */
  public static IdxImages readImages(Path path) {
    return read(path, (in, limit) -> readImages(in, path.toString(), limit));
  }

  /** Reads a labels file; each label is an unsigned byte 0..255. */
  public static int[] readLabels(Path path) {
    return read(path, (in, limit) -> readLabels(in, path.toString(), limit));
  }

  /** Reads an images stream (raw or gzip); {@code name} is used in error messages. */
  public static IdxImages readImages(InputStream stream, String name) throws IOException {
    return readImages(stream, name, Long.MAX_VALUE);
  }

  private static IdxImages readImages(InputStream stream, String name, long limit)
      throws IOException {
    DataInputStream in = open(stream);
    magic(in, name, IMAGES_MAGIC, "images");
    int count = size(in, name, "image count");
    int rows = size(in, name, "row count");
    int columns = size(in, name, "column count");
    long bytes = (long) count * rows * columns;
    if (bytes > MAX_BYTES) {
      throw new IllegalArgumentException(
          "IDX file " + name + " declares " + bytes + " bytes of pixels, more than can be read");
    }
    fits(name, bytes, limit, count + " images of " + rows + "x" + columns);
    byte[] pixels = body(in, name, (int) bytes, count + " images of " + rows + "x" + columns);
    return new IdxImages(count, rows, columns, pixels);
  }

  /** Reads a labels stream (raw or gzip); {@code name} is used in error messages. */
  public static int[] readLabels(InputStream stream, String name) throws IOException {
    return readLabels(stream, name, Long.MAX_VALUE);
  }

  private static int[] readLabels(InputStream stream, String name, long limit) throws IOException {
    DataInputStream in = open(stream);
    magic(in, name, LABELS_MAGIC, "labels");
    int count = size(in, name, "label count");
    fits(name, count, limit, count + " labels");
    byte[] raw = body(in, name, count, count + " labels");
    int[] labels = new int[count];
    for (int i = 0; i < count; i++) {
      labels[i] = raw[i] & 0xff;
    }
    return labels;
  }

  private interface Body<T> {
    /** Reads the stream, whose content holds at most {@code limit} bytes. */
    T read(InputStream in, long limit) throws IOException;
  }

  private static void fits(String name, long declared, long limit, String what) {
    if (declared > limit) {
      throw new IllegalArgumentException("IDX file " + name + " is truncated: the header declares "
          + what + " (" + declared + " bytes), more than the file can hold (" + limit + ")");
    }
  }

  private static <T> T read(Path path, Body<T> body) {
    Require.nonNull("path", path);
    if (!Files.isRegularFile(path)) {
      throw new IllegalArgumentException("IDX file " + path + " does not exist or is not a file");
    }
    try (InputStream in = Files.newInputStream(path)) {
      long size = Files.size(path);
      byte[] head = new byte[2];
      boolean gzip;
      try (InputStream peek = Files.newInputStream(path)) {
        gzip = peek.readNBytes(head, 0, 2) == 2 && (head[0] & 0xff) == 0x1f
            && (head[1] & 0xff) == 0x8b;
      }
      return body.read(in, gzip ? size * MAX_DEFLATE_RATIO : size);
    } catch (ZipException | EOFException e) {
      throw new IllegalArgumentException("IDX file " + path + " is not valid gzip content ("
          + e.getMessage() + ")", e);
    } catch (IOException e) {
      throw new UncheckedIOException("reading IDX file " + path + " failed: " + e.getMessage(), e);
    }
  }

  private static DataInputStream open(InputStream stream) throws IOException {
    Require.nonNull("stream", stream);
    BufferedInputStream buffered = new BufferedInputStream(stream, 1 << 16);
    buffered.mark(2);
    int b0 = buffered.read();
    int b1 = buffered.read();
    buffered.reset();
    InputStream in =
        b0 == 0x1f && b1 == 0x8b
            ? new BufferedInputStream(new GZIPInputStream(buffered, 1 << 16), 1 << 16)
            : buffered;
    return new DataInputStream(in);
  }

  private static void magic(DataInputStream in, String name, int expected, String kind)
      throws IOException {
    int magic;
    try {
      magic = in.readInt();
    } catch (EOFException e) {
      throw new IllegalArgumentException("IDX file " + name + " is truncated: no header", e);
    }
    if (magic != expected) {
      throw new IllegalArgumentException(
          String.format(
              "IDX file %s: magic number must be 0x%08x (%s), but was 0x%08x", name, expected,
              kind, magic));
    }
  }

  private static int size(DataInputStream in, String name, String what) throws IOException {
    int value;
    try {
      value = in.readInt();
    } catch (EOFException e) {
      throw new IllegalArgumentException(
          "IDX file " + name + " is truncated: header ends before the " + what, e);
    }
    if (value < 1) {
      throw new IllegalArgumentException(
          "IDX file " + name + ": " + what + " must be >= 1, but was " + value);
    }
    return value;
  }

  private static byte[] body(DataInputStream in, String name, int length, String what)
      throws IOException {
    // in chunks: memory grows with the bytes that arrive, not with what the header declares
    byte[] bytes = new byte[Math.min(length, CHUNK)];
    int read = 0;
    while (read < length) {
      if (read == bytes.length) {
        bytes = java.util.Arrays.copyOf(bytes, (int) Math.min(length, 2L * bytes.length));
      }
      int n = in.readNBytes(bytes, read, bytes.length - read);
      if (n == 0) {
        break;
      }
      read += n;
    }
    if (read < length) {
      throw new IllegalArgumentException(
          "IDX file " + name + " is truncated: the header declares " + what + " (" + length
              + " bytes) but only " + read + " bytes follow");
    }
    if (in.read() != -1) {
      throw new IllegalArgumentException(
          "IDX file " + name + " has trailing bytes after the " + what + " its header declares");
    }
    return bytes;
  }
}
