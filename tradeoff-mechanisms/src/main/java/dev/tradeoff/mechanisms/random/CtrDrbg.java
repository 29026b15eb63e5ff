package dev.tradeoff.mechanisms.random;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.function.Consumer;
import javax.crypto.Cipher;
import javax.crypto.spec.SecretKeySpec;

/**
 * CTR_DRBG with AES-256 and no derivation function, as specified in NIST SP 800-90A Rev. 1,
 * Section 10.2.1 (instantiate 10.2.1.3.1, reseed 10.2.1.4.1, generate 10.2.1.5.1, update
 * 10.2.1.2), with ctr_len = blocklen = 128, keylen = 256, seedlen = 384, no personalization string
 * and no additional input.
 *
 * <p>State: Key (256 bits) and V (128 bits). Generate returns AES_Key(V + 1) ‖ AES_Key(V + 2) ‖ …,
 * truncated to the request, then runs Update with zero additional input: three further blocks
 * replace Key and V, so the key that produced a block never survives its request (backtracking
 * resistance, SP 800-90A Section 8.8). The counter blocks V + 1, V + 2, … (V ← (V + 1) mod 2^128
 * of Section 10.2.1.5.1 with ctr_len = blocklen) are written into one buffer and encrypted by a
 * single call of the JDK's {@code AES/ECB/NoPadding}, which yields AES_Key of each block (checked
 * against the CAVP vector and against the JDK's {@code AES/CTR/NoPadding} in the tests). The JDK's
 * CTR mode would compute the same bytes, but the JIT puts its fast intrinsic in place only where the
 * call is inlined into a hot caller, and a refill every 64 KiB is not one: the samplers then ran
 * its byte-at-a-time Java loop, a quarter of the Gaussian mechanism's time; the ECB call encrypts
 * block by block with the processor's AES instructions (about 0.9 against 0.45 GB/s in a bit-by-bit
 * read loop on the development machine).
 *
 * <p>Limits kept: at most 2^19 bits (64 KiB) per request (Table 3's max_number_of_bits_per_request
 * for AES-256) and a reseed after {@code reseedInterval} requests (Table 3 allows up to 2^48). The
 * 384 bits of seed material for instantiation and every reseed come from {@code entropy}.
 *
 * <p>Not thread-safe on its own; {@link SecureBits} calls {@link #generate} under a lock.
 */
final class CtrDrbg {

  /** The largest request in bytes: 2^19 bits (SP 800-90A Rev. 1, Table 3). */
  static final int MAX_REQUEST_BYTES = 1 << 16;

  private static final int SEED_BYTES = 48;
  private static final int KEY_BYTES = 32;
  private static final int BLOCK_BYTES = 16;
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private final Consumer<byte[]> entropy;
  private final long reseedInterval;
  private final Cipher ecb;
  /** The counter blocks V + 1, V + 2, … of the current request, encrypted in one ECB call. */
  private final byte[] counters = new byte[MAX_REQUEST_BYTES];
  private byte[] key = new byte[KEY_BYTES];
  private final byte[] v = new byte[BLOCK_BYTES];
  private long reseedCounter;

  /**
   * Instantiates from 384 bits of {@code entropy} (SP 800-90A 10.2.1.3.1 with Key = 0, V = 0).
   *
   * @param entropy fills the array it is given (48 bytes) with seed material
   * @param reseedInterval requests between reseeds, 1 ≤ interval ≤ 2^48
   */
  CtrDrbg(Consumer<byte[]> entropy, long reseedInterval) {
    if (reseedInterval < 1 || reseedInterval > 1L << 48) {
      throw new IllegalArgumentException(
          "reseedInterval must be in [1, 2^48], got " + reseedInterval);
    }
    this.entropy = entropy;
    this.reseedInterval = reseedInterval;
    try {
      this.ecb = Cipher.getInstance("AES/ECB/NoPadding");
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK's AES is not available", e);
    }
    reseed();
  }

  /** Fills {@code out} (at most 64 KiB) with the next request's output. */
  void generate(byte[] out) {
    if (out.length > MAX_REQUEST_BYTES) {
      throw new IllegalArgumentException(
          "request must be at most " + MAX_REQUEST_BYTES + " bytes, got " + out.length);
    }
    if (reseedCounter > reseedInterval) {
      reseed();
    }
    int blocks = (out.length + BLOCK_BYTES - 1) / BLOCK_BYTES;
    writeCounters(v, counters, blocks);
    int length = blocks * BLOCK_BYTES;
    byte[] target = length == out.length ? out : new byte[length];
    try {
      ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      ecb.doFinal(counters, 0, length, target, 0);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES failed", e);
    }
    if (target != out) {
      System.arraycopy(target, 0, out, 0, out.length); // leftmost bits of the last block
    }
    update(null);
    reseedCounter++;
  }

  /** Reseed (10.2.1.4.1, no additional input; 10.2.1.3.1 when Key = V = 0). */
  private void reseed() {
    byte[] seed = new byte[SEED_BYTES];
    entropy.accept(seed);
    update(seed);
    Arrays.fill(seed, (byte) 0);
    reseedCounter = 1;
  }

  /** CTR_DRBG_Update (10.2.1.2): three blocks AES_Key(V + i), XOR provided data, new Key ‖ V. */
  private void update(byte[] provided) {
    byte[] temp = new byte[SEED_BYTES];
    try {
      writeCounters(v, temp, SEED_BYTES / BLOCK_BYTES);
      ecb.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(key, "AES"));
      ecb.doFinal(temp, 0, SEED_BYTES, temp, 0);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES failed", e);
    }
    if (provided != null) {
      for (int i = 0; i < SEED_BYTES; i++) {
        temp[i] ^= provided[i];
      }
    }
    Arrays.fill(key, (byte) 0);
    key = Arrays.copyOf(temp, KEY_BYTES);
    System.arraycopy(temp, KEY_BYTES, v, 0, BLOCK_BYTES);
    Arrays.fill(temp, (byte) 0);
  }

  /**
   * Writes the blocks V + 1, …, V + blocks (mod 2^128, big-endian) into {@code counters} and leaves
   * V at the last of them (SP 800-90A 10.2.1.5.1 step 4.1 with ctr_len = blocklen).
   */
  static void writeCounters(byte[] v, byte[] counters, int blocks) {
    long high = (long) BIG_ENDIAN_LONG.get(v, 0);
    long low = (long) BIG_ENDIAN_LONG.get(v, 8);
    for (int block = 0; block < blocks; block++) {
      low++;
      if (low == 0) {
        high++; // the carry out of the low 64 bits
      }
      BIG_ENDIAN_LONG.set(counters, block * BLOCK_BYTES, high);
      BIG_ENDIAN_LONG.set(counters, block * BLOCK_BYTES + 8, low);
    }
    BIG_ENDIAN_LONG.set(v, 0, high);
    BIG_ENDIAN_LONG.set(v, 8, low);
  }
}
