package dev.tradeoff.mechanisms.random;

import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Tradeoff's production randomness: an AES-256 CTR_DRBG (NIST SP 800-90A Rev. 1, Section 10.2.1)
 * seeded and reseeded from a Hash_DRBG (Section 10.1.1) that the operating system seeds, read in
 * 64 KiB requests and consumed bit-exactly.
 *
 * <p><b>Source.</b> The seed source is the JDK's {@code "DRBG"} {@link SecureRandom} instantiated
 * at 256-bit security strength with reseeding enabled ({@code DrbgParameters.instantiation(256,
 * RESEED_ONLY, …)}); with the default {@code securerandom.drbg.config} that is Hash_DRBG with
 * SHA-256, seeded from the operating system's entropy source and reseeded by the JDK as SP 800-90A
 * Table 2 bounds. It supplies the 384-bit seed material of a {@link CtrDrbg} (AES-256, no
 * derivation function), which produces the bits: 64 KiB per generate request (the standard's
 * 2^19-bit maximum), its key replaced after every request, and reseeded from the Hash_DRBG every
 * {@link #RESEED_INTERVAL} requests (4 GiB of output; Table 3 allows 2^48 requests). The Hash_DRBG
 * alone delivers about 60 MB/s here; AES-CTR with the processor's AES instructions about 2 GB/s,
 * which is what lets the exact samplers run at millions of draws a second. Every {@code SecureBits}
 * has its own two DRBG instances, so two generators never share a state.
 *
 * <p><b>Consumption.</b> Each call takes only the bits its result needs: {@link #nextBoolean} one
 * bit, {@link #nextLong(long)} ⌈log2 bound⌉ bits per rejection round (a candidate of that many bits
 * is accepted when below the bound, so the result is exactly uniform and the expected number of
 * rounds is below 2), {@link #nextLong()} 64 and {@link #nextDouble()} 53. The bits come from a
 * {@link BitStream}: the DRBG's output bytes in order, none reused and none skipped.
 *
 * <p><b>Threads.</b> Thread-safe, like the {@link SecureRandom} it replaces: each thread reads its own
 * buffer, refilled with disjoint requests to the one CTR_DRBG (under a lock). The thread that
 * created the generator reaches its buffer through a field rather than the {@link ThreadLocal}.
 */
final class SecureBits implements RandomGenerator {

  /** Bytes drawn from the CTR_DRBG per refill: its largest request, 2^19 bits. */
  static final int BLOCK_BYTES = CtrDrbg.MAX_REQUEST_BYTES;

  /** CTR_DRBG requests between reseeds from the Hash_DRBG. */
  static final long RESEED_INTERVAL = 1 << 16;

  private final ThreadLocal<BitStream> streams;
  private final Thread owner;
  private final BitStream ownerStream;

  /** A generator reading the given byte source (for tests: any source, in blocks of the size). */
  SecureBits(Consumer<byte[]> source, int blockBytes) {
    if (blockBytes <= 0 || blockBytes % 8 != 0) {
      throw new IllegalArgumentException(
          "blockBytes must be a positive multiple of 8, got " + blockBytes);
    }
    this.streams = ThreadLocal.withInitial(() -> new BitStream(source, blockBytes));
    this.owner = Thread.currentThread();
    this.ownerStream = streams.get();
  }

  /**
   * A generator on a fresh AES-256 CTR_DRBG, seeded and reseeded from a fresh 256-bit Hash_DRBG
   * that the operating system seeds.
   */
  static SecureBits fromDrbg() {
    CtrDrbg ctrDrbg = new CtrDrbg(drbg()::nextBytes, RESEED_INTERVAL);
    return new SecureBits(
        block -> {
          synchronized (ctrDrbg) {
            ctrDrbg.generate(block);
          }
        },
        BLOCK_BYTES);
  }

  /** A fresh instance of the JDK's SP 800-90A DRBG at 256-bit strength, reseeding enabled. */
  static SecureRandom drbg() {
    try {
      return SecureRandom.getInstance(
          "DRBG",
          DrbgParameters.instantiation(256, DrbgParameters.Capability.RESEED_ONLY,
              "dev.tradeoff".getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK's SP 800-90A DRBG is not available", e);
    }
  }

  /** The next {@code bits} bits, 1 ≤ bits ≤ 64, as an unsigned number. */
  long nextBits(int bits) {
    return stream().next(bits);
  }

  /** Bits this thread has drawn from this generator so far. */
  long bitsDrawn() {
    return stream().bitsDrawn();
  }

  /** This thread's stream. */
  private BitStream stream() {
    return Thread.currentThread() == owner ? ownerStream : streams.get();
  }

  @Override
  public long nextLong() {
    return nextBits(64);
  }

  @Override
  public int nextInt() {
    return (int) nextBits(32);
  }

  @Override
  public boolean nextBoolean() {
    return nextBits(1) != 0;
  }

  @Override
  public float nextFloat() {
    return nextBits(24) * 0x1.0p-24f;
  }

  @Override
  public double nextDouble() {
    return nextBits(53) * 0x1.0p-53;
  }

  /** Uniform on {0, …, bound − 1}: ⌈log2 bound⌉-bit candidates until one is below the bound. */
  @Override
  public long nextLong(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, got " + bound);
    }
    if (bound == 1) {
      return 0;
    }
    BitStream stream = stream();
    int bits = 64 - Long.numberOfLeadingZeros(bound - 1);
    while (true) {
      long candidate = stream.next(bits);
      if (candidate < bound) {
        return candidate;
      }
    }
  }

  @Override
  public long nextLong(long origin, long bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "origin must be below bound, got origin " + origin + " and bound " + bound);
    }
    long width = bound - origin;
    if (width > 0) {
      return origin + nextLong(width);
    }
    while (true) { // the range exceeds Long.MAX_VALUE: reject whole 64-bit words
      long candidate = nextLong();
      if (candidate >= origin && candidate < bound) {
        return candidate;
      }
    }
  }

  @Override
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive, got " + bound);
    }
    return (int) nextLong(bound);
  }

  @Override
  public int nextInt(int origin, int bound) {
    if (origin >= bound) {
      throw new IllegalArgumentException(
          "origin must be below bound, got origin " + origin + " and bound " + bound);
    }
    return (int) nextLong(origin, bound);
  }

  @Override
  public String toString() {
    return "SecureBits(SP 800-90A CTR_DRBG AES-256 seeded by Hash_DRBG SHA-256, 256-bit strength)";
  }
}
