package dev.tradeoff.ledger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The ledger's hash chain (docs/ledger.md, "Tamper evidence"): genesis = SHA-256 over the header's
 * canonical bytes (budget, policy, creation time); entry i's hash = SHA-256(hash of entry i−1 ‖
 * canonical bytes of entry i's admission); a settled entry's settle hash = SHA-256(its hash ‖
 * canonical bytes of its settlement). Canonical bytes: each field as {@code <UTF-8 length>:<UTF-8
 * bytes>;}, a null field as {@code -:;}, so no two field lists share an encoding.
 */
final class HashChain {

  private HashChain() {}

  static String canonical(Object... fields) {
    StringBuilder s = new StringBuilder();
    for (Object f : fields) {
      if (f == null) {
        s.append("-:;");
      } else {
        String t = f.toString();
        s.append(t.getBytes(StandardCharsets.UTF_8).length).append(':').append(t).append(';');
      }
    }
    return s.toString();
  }

  static String hash(String previous, String canonical) {
    try {
      MessageDigest d = MessageDigest.getInstance("SHA-256");
      d.update(previous.getBytes(StandardCharsets.UTF_8));
      d.update((byte) 0);
      d.update(canonical.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }
}
