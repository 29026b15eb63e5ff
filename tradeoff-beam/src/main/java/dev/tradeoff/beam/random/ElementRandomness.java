package dev.tradeoff.beam.random;

import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.mechanisms.random.Randomness;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Where a pipeline's noise comes from, chosen once for the whole pipeline and shipped to every
 * worker.
 *
 * <ul>
 *   <li>{@link #secure()}: every worker draws from its own secure generator ({@link
 *       Randomness#secure()}: an SP 800-90A DRBG read in blocks), created on the worker. Nothing
 *       about the noise is in the job graph. Results differ from run to run, as they must.
 *   <li>{@link #seeded(long)}: reproducible, for tests and demonstrations only (no privacy: the
 *       seed determines the noise). The generator of an element is derived from (seed, stream,
 *       element key) alone, by SHA-256 of the three, never from worker-local state, the element's
 *       position in a bundle or the order in which a runner delivers elements. The same pipeline
 *       therefore gives identical results on the DirectRunner, Spark and Flink.
 * </ul>
 *
 * <p>Instances are immutable and serializable; the secure generator is a transient, lazily created
 * field, so every deserialized copy (one per worker thread's DoFn) gets its own.
 */
public final class ElementRandomness implements Serializable {

  private static final long serialVersionUID = 1L;

  /**
   * One SHA-256 instance per thread (looking one up per element cost more than hashing); the
   * derivation is unchanged, so are the seeded results.
   */
  private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every Java platform", e);
    }
  });

  private final boolean seeded;
  private final long seed;
  private transient RandomGenerator secure;

  private ElementRandomness(boolean seeded, long seed) {
    this.seeded = seeded;
    this.seed = seed;
  }

  /** Production randomness: a worker-local {@link Randomness#secure()} generator. */
  public static ElementRandomness secure() {
    return new ElementRandomness(false, 0);
  }

  /**
   * Reproducible randomness derived from {@code seed} and each element's key. Gives no privacy;
   * the caller asks for it by name.
   */
  public static ElementRandomness seeded(long seed) {
    return new ElementRandomness(true, seed);
  }

  /** The seed, when seeded. */
  public OptionalLong seed() {
    return seeded ? OptionalLong.of(seed) : OptionalLong.empty();
  }

  /** Whether the noise is reproducible (and therefore not private). */
  public boolean isSeeded() {
    return seeded;
  }

  /**
   * The generator for one element with a numeric key (a query index) in a named stream (one
   * stream per transform, so two transforms never share noise).
   */
  public RandomGenerator forElement(String stream, long key) {
    Require.nonNull("stream", stream);
    if (!seeded) {
      return secureGenerator();
    }
    return new SplittableRandom(derive(stream, ByteBuffer.allocate(8).putLong(key).array()));
  }

  /** The generator for one element with a string key (a histogram key, a privacy unit). */
  public RandomGenerator forElement(String stream, String key) {
    Require.nonNull("stream", stream);
    Require.nonNull("key", key);
    if (!seeded) {
      return secureGenerator();
    }
    return new SplittableRandom(derive(stream, key.getBytes(StandardCharsets.UTF_8)));
  }

  private RandomGenerator secureGenerator() {
    if (secure == null) {
      secure = Randomness.secure();
    }
    return secure;
  }

  /** The first 8 bytes of SHA-256(seed ‖ len(stream) ‖ stream ‖ key). */
  private long derive(String stream, byte[] key) {
    MessageDigest sha = SHA_256.get();
    sha.reset();
    byte[] name = stream.getBytes(StandardCharsets.UTF_8);
    sha.update(ByteBuffer.allocate(12).putLong(seed).putInt(name.length).array());
    sha.update(name);
    sha.update(key);
    return ByteBuffer.wrap(sha.digest()).getLong();
  }

  @Override
  public String toString() {
    return seeded ? "seeded(" + seed + ")" : "secure";
  }
}
