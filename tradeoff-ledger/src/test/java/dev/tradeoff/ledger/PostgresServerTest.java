package dev.tradeoff.ledger;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * A test class against one real PostgreSQL server of its own ({@link PostgresServer}): started
 * before its tests (skipped only where the binaries are absent, {@link PostgresTests}) and stopped
 * after them.
 */
public abstract class PostgresServerTest {

  /** The class's server, started before its tests. */
  protected static PostgresServer server;

  @BeforeAll
  public static void startServer() throws Exception {
    PostgresTests.assumeServer();
    server = PostgresServer.start();
  }

  @AfterAll
  public static void stopServer() throws Exception {
    if (server != null) {
      server.close();
      server = null;
    }
  }
}
