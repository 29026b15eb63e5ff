package dev.tradeoff.beam.label;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Locale;
import org.apache.beam.sdk.io.Compression;
import org.apache.beam.sdk.io.FileSystems;

/**
 * How an input file is compressed, decided by what it holds (its first bytes) and checked against
 * its name: gzip ({@code 1f 8b}), bzip2 ({@code BZh1}–{@code BZh9} and a block or end-of-stream
 * marker), zstd ({@code 28 b5 2f fd}) are recognised under any name; deflate (a zlib stream, whose
 * two-byte header can also start plain text such as {@code "x^"}) only under a {@code .deflate}
 * name. A file whose name says one format and whose bytes another (plain text named {@code .gz},
 * bzip2 named {@code .gz}) is refused, as are zip archives (several files in one) and the formats
 * Beam reads only with native libraries (LZO, Snappy): a misnamed file is never read as raw bytes.
 * The file is then read through Beam's {@link Compression} of that kind.
 */
final class InputCompression {

  /** The compressions a CSV input may have. */
  static final java.util.Set<Compression> READ = java.util.EnumSet.of(Compression.UNCOMPRESSED,
      Compression.GZIP, Compression.BZIP2, Compression.ZSTD, Compression.DEFLATE);

  private static final int HEAD = 10;

  private InputCompression() {}

  /**
   * The compression of the file at {@code path}, of which the first {@code size} bytes are read.
   *
   * @param name what the input is called in messages ({@code train}, {@code queries})
   * @throws IllegalArgumentException if the name and the contents disagree, or the format is not
   *     read
   */
  static Compression of(String name, String path, long size) throws IOException {
    byte[] head = head(path, size);
    Compression named = Compression.detect(path);
    boolean zip = head.length >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3
        && head[3] == 4;
    if (named == Compression.ZIP || zip) {
      throw new IllegalArgumentException(name + " " + path + " is a zip archive, which is not"
          + " read (it can hold several files): unzip it, or compress the CSV alone with gzip,"
          + " bzip2, zstd or deflate");
    }
    if (!READ.contains(named)) {
      throw new IllegalArgumentException(name + " " + path + " is named as " + text(named)
          + ", which is not read: decompress it, or compress it with gzip, bzip2, zstd or deflate");
    }
    Compression held = held(head, named == Compression.DEFLATE);
    if (named != Compression.UNCOMPRESSED && held != named && size > 0) {
      throw new IllegalArgumentException(name + " " + path + " is named as " + text(named)
          + ", but its contents are " + (held == Compression.UNCOMPRESSED
              ? "not (they are not compressed, or compressed some other way)" : text(held))
          + ": rename it to what it holds");
    }
    return held;
  }

  /** The compression whose signature {@code head} starts with (deflate only when allowed). */
  static Compression held(byte[] head, boolean deflateNamed) {
    int n = head.length;
    if (n >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
      return Compression.GZIP;
    }
    if (n >= 10 && head[0] == 'B' && head[1] == 'Z' && head[2] == 'h' && head[3] >= '1'
        && head[3] <= '9' && (startsAt(head, 4, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59)
            || startsAt(head, 4, 0x17, 0x72, 0x45, 0x38, 0x50, 0x90))) {
      return Compression.BZIP2;
    }
    if (n >= 4 && startsAt(head, 0, 0x28, 0xb5, 0x2f, 0xfd)) {
      return Compression.ZSTD;
    }
    if (deflateNamed && n >= 2 && (head[0] & 0x0f) == 8 && (head[0] & 0xff) >>> 4 <= 7
        && ((head[0] & 0xff) * 256 + (head[1] & 0xff)) % 31 == 0) {
      return Compression.DEFLATE;
    }
    return Compression.UNCOMPRESSED;
  }

  private static boolean startsAt(byte[] head, int from, int... bytes) {
    for (int i = 0; i < bytes.length; i++) {
      if ((head[from + i] & 0xff) != bytes[i]) {
        return false;
      }
    }
    return true;
  }

  private static byte[] head(String path, long size) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(HEAD, size));
    try (ReadableByteChannel in = FileSystems.open(FileSystems.matchNewResource(path, false))) {
      while (buffer.hasRemaining() && in.read(buffer) >= 0) {
        // fill
      }
    }
    byte[] head = new byte[buffer.position()];
    buffer.flip().get(head);
    return head;
  }

  private static String text(Compression c) {
    return c.name().toLowerCase(Locale.ROOT);
  }
}
