package dev.tradeoff.ledger;

import org.junit.jupiter.api.Assumptions;

/**
 * Whether the PostgreSQL tests run: they skip only where the server binaries are absent, and never
 * where {@code TRADEOFF_REQUIRE_POSTGRES} is set (CI installs Debian's package and sets it), so a
 * missing server cannot silently skip them there.
 */
public final class PostgresTests {

  private PostgresTests() {}

  public static void assumeServer() {
    if (System.getenv("TRADEOFF_REQUIRE_POSTGRES") != null && !PostgresServer.available()) {
      throw new IllegalStateException("TRADEOFF_REQUIRE_POSTGRES is set but no PostgreSQL server"
          + " binaries are in " + PostgresServer.BIN);
    }
    Assumptions.assumeTrue(PostgresServer.available(),
        "PostgreSQL server binaries not found in " + PostgresServer.BIN + "; skipped");
  }
}
