package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Assigns each training record to one of K teachers by a keyed hash of the record's text:
 * HMAC-SHA256(key, record) as an unsigned 64-bit number, modulo K. The assignment depends on the
 * record alone, so every record lands in exactly one partition on every runner, however the
 * records are split into bundles; this disjointness is what lets one record influence at most one
 * teacher (the premise of PATE and of DaRRM's (ε, Δ)-DP teachers).
 *
 * <p>The key is drawn from {@link SecureRandom} for a private run, or derived from the seed of a
 * reproducible one.
 */
public final class TeacherPartition implements Serializable {

  private static final long serialVersionUID = 1L;

  private final byte[] key;
  private final int teachers;
  private transient Mac mac;

  private TeacherPartition(byte[] key, int teachers) {
    this.key = key.clone();
    this.teachers = Require.positive("teachers", teachers);
  }

  /** A fresh secret key. */
  public static TeacherPartition secure(int teachers) {
    byte[] key = new byte[32];
    new SecureRandom().nextBytes(key);
    return new TeacherPartition(key, teachers);
  }

  /** A key derived from the seed (reproducible runs only). */
  public static TeacherPartition seeded(long seed, int teachers) {
    byte[] key = ByteBuffer.allocate(32).putLong(seed).put("teacher-partition"
        .getBytes(StandardCharsets.US_ASCII)).array();
    return new TeacherPartition(key, teachers);
  }

  /** K. */
  public int teachers() {
    return teachers;
  }

  /** The teacher, in [0, K), of one record. */
  public int of(String record) {
    if (mac == null) {
      try {
        mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key, "HmacSHA256"));
      } catch (GeneralSecurityException e) {
        throw new IllegalStateException("HmacSHA256 is required of every Java platform", e);
      }
    }
    byte[] h = mac.doFinal(record.getBytes(StandardCharsets.UTF_8));
    return (int) Long.remainderUnsigned(ByteBuffer.wrap(h).getLong(), teachers);
  }
}
