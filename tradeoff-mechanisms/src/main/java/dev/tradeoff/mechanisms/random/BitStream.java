package dev.tradeoff.mechanisms.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.function.Consumer;

/**
 * One thread's view of a byte source, read in blocks and handed out bit by bit: the bits returned
 * by successive {@link #next(int)} calls, concatenated most significant bit first, are exactly the
 * source's bytes in order, each bit most significant first. No bit is returned twice and none is
 * skipped, across block refills included.
 *
 * <p>Not thread-safe: {@link SecureBits} keeps one per thread.
 */
final class BitStream {

  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final Consumer<byte[]> source;
  private final byte[] block;
  private int position;
  /** The unread bits, left-aligned: the next bit out is bit 63. */
  private long reservoir;
  private int available;
  /** 64-bit words moved into the reservoir so far. */
  private long wordsRead;

  /**
   * @param source fills the array it is given with the next bytes of the stream
   * @param blockBytes bytes read per refill, a positive multiple of 8 (checked by the caller)
   */
  BitStream(Consumer<byte[]> source, int blockBytes) {
    this.source = source;
    this.block = new byte[blockBytes];
    this.position = blockBytes;
  }

  /** The next {@code bits} bits of the stream as an unsigned number, 1 ≤ bits ≤ 64. */
  long next(int bits) {
    if (bits <= available) {
      long out = reservoir >>> (64 - bits);
      reservoir = bits == 64 ? 0 : reservoir << bits;
      available -= bits;
      return out;
    }
    // take what is left, then the high bits of the next word
    int fromOld = available;
    long high = fromOld == 0 ? 0 : reservoir >>> (64 - fromOld);
    long word = nextWord();
    int fromNew = bits - fromOld;
    long low = word >>> (64 - fromNew);
    reservoir = fromNew == 64 ? 0 : word << fromNew;
    available = 64 - fromNew;
    return fromNew == 64 ? low : (high << fromNew) | low;
  }

  /** Bits handed out so far (for tests of how many bits a sampler consumes). */
  long bitsDrawn() {
    return 64 * wordsRead - available;
  }

  private long nextWord() {
    if (position == block.length) {
      source.accept(block);
      position = 0;
    }
    long word = (long) BIG_ENDIAN_LONG.get(block, position);
    position += 8;
    wordsRead++;
    return word;
  }
}
