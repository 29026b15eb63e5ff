package dev.tradeoff.mechanisms.random;

import java.nio.charset.StandardCharsets;
import java.security.DrbgParameters;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Tradeoff's production randomness: the output of a NIST SP 800-90A deterministic random bit
 * generator, read in 4 KiB blocks and consumed bit-exactly.
 *
 * <p><b>Source.</b> The JDK's {@code "DRBG"} {@link SecureRandom} instantiated at 256-bit security
 * strength with reseeding enabled ({@code DrbgParameters.instantiation(256, RESEED_ONLY, …)}); with
 * the default {@code securerandom.drbg.config} that is Hash_DRBG with SHA-256 (SP 800-90A Rev. 1,
 * Section 10.1.1), seeded from the operating system's entropy source at instantiation and reseeded
 * by the JDK when its reseed counter reaches the interval the standard bounds (Table 2). Every
 * {@code SecureBits} has its own DRBG instance, so two generators never share a state.
 *
 * <p><b>Consumption.</b> Each call takes only the bits its result needs: {@link #nextBoolean} one
 * bit, {@link #nextLong(long)} ⌈log2 bound⌉ bits per rejection round (a candidate of that many bits
 * is accepted when below the bound, so the result is exactly uniform and the expected number of
 * rounds is below 2), {@link #nextLong()} 64 and {@link #nextDouble()} 53. The bits come from a
 * {@link BitStream}: the DRBG's output bytes in order, none reused and none skipped.
 *
 * <p><b>Threads.</b> Thread-safe, like the {@link SecureRandom} it replaces: each thread reads its own
 * buffer, refilled with disjoint blocks of the one DRBG (whose {@code nextBytes} is thread-safe).
 */
final class SecureBits implements RandomGenerator {

  /** Bytes drawn from the DRBG per refill (well below the 2^16-byte request limit of SP 800-90A). */
  static final int BLOCK_BYTES = 4096;

  private final ThreadLocal<BitStream> streams;

  /** A generator reading the given byte source (for tests: any source, in blocks of the size). */
  SecureBits(Consumer<byte[]> source, int blockBytes) {
    if (blockBytes <= 0 || blockBytes % 8 != 0) {
      throw new IllegalArgumentException(
          "blockBytes must be a positive multiple of 8, got " + blockBytes);
    }
    this.streams = ThreadLocal.withInitial(() -> new BitStream(source, blockBytes));
  }

  /** A generator on a fresh 256-bit Hash_DRBG seeded by the operating system. */
  static SecureBits fromDrbg() {
    return new SecureBits(drbg()::nextBytes, BLOCK_BYTES);
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
    return streams.get().next(bits);
  }

  /** Bits this thread has drawn from this generator so far. */
  long bitsDrawn() {
    return streams.get().bitsDrawn();
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
    BitStream stream = streams.get();
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
    return "SecureBits(SP 800-90A DRBG, 256-bit strength)";
  }
}
