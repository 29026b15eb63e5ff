package dev.tradeoff.ledger;

import dev.tradeoff.accounting.internal.Shown;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a team's PostgreSQL ledger lives: {@code postgresql://HOST[:PORT]/DATABASE}, nothing else.
 * Credentials never appear in it: the role is {@code PGUSER} (else the operating-system user, as
 * libpq does), the password {@code PGPASSWORD} or the standard password file ({@code ~/.pgpass}, or
 * the file {@code PGPASSFILE} names), which the JDBC driver reads when no password is set. So a
 * location can be printed, logged and written to a manifest as it is.
 *
 * @param host a host name or IPv4 address
 * @param port the TCP port (5432 unless given)
 * @param database the database name
 */
public record PostgresLocation(String host, int port, String database) {

  /** The scheme a {@code --ledger} value starts with to name a PostgreSQL ledger. */
  public static final String SCHEME = "postgresql://";

  private static final Pattern FORM = Pattern.compile(
      "postgresql://([A-Za-z0-9.-]+)(?::([0-9]{1,5}))?/([A-Za-z0-9_][A-Za-z0-9_.-]{0,62})");

  public PostgresLocation {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be in [1, 65535], but was " + port);
    }
  }

  /** Whether {@code text} names a PostgreSQL ledger rather than a file. */
  public static boolean names(String text) {
    return text != null && text.startsWith(SCHEME);
  }

  /**
   * Parses {@code postgresql://HOST[:PORT]/DATABASE}.
   *
   * @throws IllegalArgumentException naming the value and the allowed form; a user name, password
   *     or parameter in it is refused (credentials come from the environment or the password file)
   */
  public static PostgresLocation parse(String text) {
    Matcher m = FORM.matcher(text == null ? "" : text);
    if (!m.matches()) {
      boolean credentials = text != null && (text.contains("@") || text.contains("?"));
      throw new IllegalArgumentException("ledger must be postgresql://HOST[:PORT]/DATABASE"
          + (credentials ? " with no user, password or parameters (credentials come only from"
              + " PGUSER/PGPASSWORD or ~/.pgpass)" : "") + ", but was \""
          + (credentials ? "<withheld: it may hold a password>" : Shown.value(text)) + "\"");
    }
    int port = m.group(2) == null ? 5432 : Integer.parseInt(m.group(2));
    return new PostgresLocation(m.group(1), port, m.group(3));
  }

  /** The JDBC URL (no credentials). */
  String jdbcUrl() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  /**
   * The connection properties: the role from {@code PGUSER} (else the operating-system user), the
   * password from {@code PGPASSWORD} if set (else the driver reads the password file).
   */
  Properties properties(Map<String, String> environment) {
    Properties p = new Properties();
    String user = environment.get("PGUSER");
    p.setProperty("user", user == null || user.isEmpty() ? System.getProperty("user.name") : user);
    String password = environment.get("PGPASSWORD");
    if (password != null && !password.isEmpty()) {
      p.setProperty("password", password);
    }
    p.setProperty("ApplicationName", "tradeoff-ledger");
    p.setProperty("connectTimeout", "10");
    p.setProperty("socketTimeout", "120");
    p.setProperty("tcpKeepAlive", "true");
    return p;
  }

  @Override
  public String toString() {
    return SCHEME + host + ":" + port + "/" + database;
  }
}
