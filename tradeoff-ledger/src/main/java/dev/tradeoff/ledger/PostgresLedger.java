package dev.tradeoff.ledger;

import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Require;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.postgresql.util.PSQLException;

/**
 * A {@link PrivacyLedger} in a PostgreSQL database that a team shares across machines: several
 * named budgets (datasets) in one database, each with the SQLite ledger's filters, entry format
 * and hash chain (docs/ledger.md), and roles enforced by the database.
 *
 * <p><b>Tables.</b> {@code tradeoff_ledger} (dataset, key, value) holds each dataset's header,
 * the same fields as the SQLite header; {@code tradeoff_entries} holds each entry's admission
 * (the columns of the SQLite entry that its hash covers, plus the dataset, the hash it extends and
 * its request key) and {@code tradeoff_settlements} its settlement (status, charged, time, settle
 * hash) as a second row, so neither table is ever updated. {@code tradeoff_grants} (dataset, role)
 * says which analyst may use which dataset.
 *
 * <p><b>What the database enforces.</b> The owner (the role that created the tables) creates
 * datasets and grants them; everyone else has only what {@link #grant} gives: SELECT on the header
 * and INSERT/SELECT on entries and settlements, filtered by row-level security to the datasets
 * granted to them. UPDATE, DELETE and TRUNCATE are granted to nobody, and a trigger refuses them
 * on all three tables even for the owner, so a budget is never raised and no entry is edited or
 * removed. A settlement's primary key is its entry: a reservation is settled once. {@code
 * (dataset, prev_hash)} is unique, so the chain cannot fork even for a client that skips the lock.
 * Whether a charge fits is decided by this class from the recorded entries under the dataset's
 * lock; an analyst who writes rows with their own SQL can record a wrong charge, but cannot hide,
 * change or remove it.
 *
 * <p><b>No overspending, no lost charge.</b> Every write takes a transaction-scoped advisory lock
 * on its dataset, so writers of one dataset are serialised across machines while the check and
 * the append happen in one transaction ({@link PrivacyLedger}). A client killed mid-transaction
 * leaves nothing (the server rolls it back); a committed transaction is durable (the server's
 * default {@code synchronous_commit = on}). A transaction cut off by a dropped connection or a
 * server restart is retried for up to {@value #RETRY_SECONDS} s with the same request key, so
 * a retry that follows a commit the client never heard of finds that entry instead of charging
 * again.
 */
public final class PostgresLedger extends PrivacyLedger {

  /** The version of the tables this class reads and writes. */
  public static final int SCHEMA_VERSION = 1;

  static final int RETRY_SECONDS = 60;
  private static final String SCHEMA = "";
  private static final Pattern ROLE = Pattern.compile("[a-z_][a-z0-9_]{0,62}");

  private final PostgresLocation server;
  private final String dataset;
  private final Map<String, String> environment;
  private final ConcurrentLinkedDeque<Connection> idle = new ConcurrentLinkedDeque<>();

  private PostgresLedger(PostgresLocation server, String dataset, Map<String, String> environment,
      Header header) {
    super(header);
    this.server = server;
    this.dataset = dataset;
    this.environment = Map.copyOf(environment);
  }

  /**
   * Opens dataset {@code dataset} of the ledger at {@code server}, creating it with {@code budget}
   * (and the tables, if this is the first dataset) when it does not exist: only the owner can.
   * An existing dataset must have exactly this budget.
   *
   * @throws IllegalArgumentException if the dataset has another budget, or the database refuses
   */
  public static PostgresLedger openOrCreate(PostgresLocation server, String dataset,
      PrivacyGuarantee budget) {
    return openOrCreate(server, dataset, budget, System.getenv());
  }

  static PostgresLedger openOrCreate(PostgresLocation server, String dataset,
      PrivacyGuarantee budget, Map<String, String> environment) {
    Require.nonNull("budget", budget);
    return openOrCreate(server, dataset, budget, budget instanceof ApproxDp a
        ? LedgerPolicy.only(FilterKind.BASIC, a) : null, environment);
  }

  /** {@link #openOrCreate(PostgresLocation, String, PrivacyGuarantee)} with a filter policy. */
  public static PostgresLedger create(PostgresLocation server, String dataset, ApproxDp budget,
      LedgerPolicy policy) {
    return create(server, dataset, budget, policy, System.getenv());
  }

  static PostgresLedger create(PostgresLocation server, String dataset, ApproxDp budget,
      LedgerPolicy policy, Map<String, String> environment) {
    checkCreatable(budget, policy);
    return openOrCreate(server, dataset, budget, policy, environment);
  }

  private static PostgresLedger openOrCreate(PostgresLocation server, String dataset,
      PrivacyGuarantee budget, LedgerPolicy policy, Map<String, String> environment) {
    Require.nonNull("server", server);
    checkDataset(dataset);
    Coordinates wanted = Coordinates.ofBudget(budget);
    PostgresLedger probe = new PostgresLedger(server, dataset, environment,
        new Header(wanted, policy, null));
    try {
      Header header = probe.transaction(true, lockKey("tables"), c -> {
        if (!tablesExist(c)) {
          createTables(c);
        }
        if (!datasetExists(c, dataset)) {
          insertHeader(c, dataset, wanted, policy);
        }
        return probe.readHeader(c);
      });
      requireSameBudget("dataset \"" + dataset + "\" of " + server, header.coordinates(),
          wanted);
      return open(server, dataset, environment);
    } finally {
      probe.close();
    }
  }

  /**
   * Opens dataset {@code dataset} of the ledger at {@code server}, reading its budget.
   *
   * @throws IllegalArgumentException if the dataset does not exist or this role may not use it
   * @throws LedgerFormatException if its header or history does not check
   */
  public static PostgresLedger open(PostgresLocation server, String dataset) {
    return open(server, dataset, System.getenv());
  }

  static PostgresLedger open(PostgresLocation server, String dataset,
      Map<String, String> environment) {
    Require.nonNull("server", server);
    checkDataset(dataset);
    PostgresLedger probe = probe(server, dataset, environment);
    Header header;
    try {
      header = probe.inReadTransaction(probe::readHeader);
    } finally {
      probe.close();
    }
    PostgresLedger ledger = new PostgresLedger(server, dataset, environment, header);
    ledger.verify();
    return ledger;
  }

  /**
   * Lets database role {@code role} charge and read dataset {@code dataset} (owner only): records
   * the grant (row-level security reads it) and grants the role SELECT on the headers and SELECT,
   * INSERT on entries and settlements, never UPDATE or DELETE.
   *
   * @throws IllegalArgumentException if the role name is not a plain lower-case identifier, the
   *     dataset does not exist, or the database refuses (not the owner; no such role)
   */
  public static void grant(PostgresLocation server, String dataset, String role) {
    grant(server, dataset, role, System.getenv());
  }

  static void grant(PostgresLocation server, String dataset, String role,
      Map<String, String> environment) {
    Require.nonNull("server", server);
    checkDataset(dataset);
    Require.nonNull("role", role);
    if (!ROLE.matcher(role).matches()) {
      throw new IllegalArgumentException("role must be a lower-case PostgreSQL identifier"
          + " ([a-z_][a-z0-9_]*, at most 63 characters), but was \"" + role + "\"");
    }
    PostgresLedger ledger = open(server, dataset, environment);
    try {
      ledger.transaction(true, lockKey("tables"), c -> {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_grants (dataset,"
            + " role_name) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
          s.setString(1, dataset);
          s.setString(2, role);
          s.executeUpdate();
        }
        String quoted = "\"" + role + "\"";
        execute(c, "GRANT SELECT ON tradeoff_ledger, tradeoff_grants TO " + quoted);
        execute(c, "GRANT SELECT, INSERT ON tradeoff_entries, tradeoff_settlements TO " + quoted);
        execute(c, "GRANT USAGE ON SEQUENCE tradeoff_entry_ids TO " + quoted);
        return null;
      });
    } finally {
      ledger.close();
    }
  }

  /** Whether dataset {@code dataset} exists at {@code server} and this role may see it. */
  public static boolean exists(PostgresLocation server, String dataset) {
    Require.nonNull("server", server);
    checkDataset(dataset);
    PostgresLedger probe = probe(server, dataset, System.getenv());
    try {
      return probe.inReadTransaction(c -> tablesExist(c) && datasetExists(c, dataset));
    } finally {
      probe.close();
    }
  }

  /** A connection holder for reading a header before the budget is known (its own is unused). */
  private static PostgresLedger probe(PostgresLocation server, String dataset,
      Map<String, String> environment) {
    return new PostgresLedger(server, dataset, environment, new Header(
        Coordinates.ofBudget(new ApproxDp(1, 0)), null, null));
  }

  /** The server and database. */
  public PostgresLocation server() {
    return server;
  }

  /** The dataset whose budget this is. */
  public String dataset() {
    return dataset;
  }

  /** Closes the idle connections this ledger keeps for its next operations. */
  @Override
  public void close() {
    for (Connection c = idle.poll(); c != null; c = idle.poll()) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // the connection is being discarded; the server ends its session either way
      }
    }
  }

  @Override
  public String toString() {
    return "PostgresLedger[" + location() + ", budget " + budget() + "]";
  }

  // ---------------------------------------------------------------- the store

  private static final String ENTRIES = "SELECT e.id, e.label, e.kind,"
      + " coalesce(s.status, 'RESERVED') AS status, e.reserved,"
      + " coalesce(s.charged, e.reserved) AS charged, e.reserved_at, s.committed_at,"
      + " e.process_id, e.filter, e.description, e.hash, s.settle_hash"
      + " FROM tradeoff_entries e LEFT JOIN tradeoff_settlements s ON s.entry_id = e.id"
      + " WHERE e.dataset = ?";

  @Override
  public String location() {
    return server + " dataset \"" + dataset + "\"";
  }

  @Override
  <T> T inWriteTransaction(SqlWork<T> work) {
    return transaction(true, lockKey("dataset:" + dataset), work);
  }

  @Override
  <T> T inReadTransaction(SqlWork<T> work) {
    return transaction(false, 0, work);
  }

  @Override
  Header readHeader(Connection c) throws SQLException {
    if (!tablesExist(c)) {
      throw new IllegalArgumentException("no privacy ledger at " + server + " (its tables do not"
          + " exist: the owner creates them with tradeoff ledger create)");
    }
    String version = meta(c, SCHEMA).get("schema_version");
    if (!Integer.toString(SCHEMA_VERSION).equals(version)) {
      throw new LedgerFormatException(server + " holds a Tradeoff privacy ledger of schema"
          + " version " + version + ", but this version of Tradeoff reads only " + SCHEMA_VERSION
          + "; refusing to use it");
    }
    if (!datasetExists(c, dataset)) {
      throw new IllegalArgumentException("no dataset \"" + dataset + "\" in the privacy ledger at "
          + server + " that role \"" + c.getMetaData().getUserName() + "\" may use (the owner"
          + " creates it with tradeoff ledger create --dataset and grants it with tradeoff ledger"
          + " grant)");
    }
    return parseHeader(meta(c, dataset), dataset, location());
  }

  @Override
  String selectEntries(String condition) {
    return "SELECT * FROM (" + ENTRIES + ") x WHERE " + condition + " ORDER BY id";
  }

  @Override
  int bindBudget(PreparedStatement s) throws SQLException {
    s.setString(1, dataset);
    return 2;
  }

  /**
   * The newest entry's hash (no head is kept apart from the entries: no role may delete one). A
   * handle whose verified history does not end there, as after the database was restored from an
   * older backup while it ran, refuses to write.
   */
  @Override
  String head(Connection c) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT hash FROM tradeoff_entries"
        + " WHERE dataset = ? ORDER BY id DESC LIMIT 1")) {
      s.setString(1, dataset);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? r.getString(1) : genesis();
      }
    }
  }

  @Override
  long appendEntry(Connection c, EntryRow row) throws SQLException {
    long id = queryLong(c, "SELECT nextval('tradeoff_entry_ids')");
    try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_entries (id, dataset,"
        + " label, kind, reserved, reserved_at, process_id, filter, description, hash, prev_hash,"
        + " request_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setLong(1, id);
      s.setString(2, dataset);
      s.setString(3, row.label());
      s.setString(4, row.kind());
      s.setString(5, row.reserved());
      s.setLong(6, row.reservedAt());
      s.setLong(7, row.processId());
      s.setString(8, row.filter());
      s.setString(9, row.description());
      s.setString(10, row.hash(id));
      s.setString(11, row.previousHash());
      s.setString(12, row.requestKey());
      s.executeUpdate();
    }
    return id;
  }

  @Override
  Optional<Long> entryWithKey(Connection c, String requestKey) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT id FROM tradeoff_entries"
        + " WHERE dataset = ? AND request_key = ?")) {
      s.setString(1, dataset);
      s.setString(2, requestKey);
      try (ResultSet r = s.executeQuery()) {
        return r.next() ? Optional.of(r.getLong(1)) : Optional.empty();
      }
    }
  }

  @Override
  void appendSettlement(Connection c, long id, EntryStatus status, String charged, long at,
      String settleHash) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_settlements (entry_id,"
        + " dataset, status, charged, committed_at, settle_hash) VALUES (?, ?, ?, ?, ?, ?)")) {
      s.setLong(1, id);
      s.setString(2, dataset);
      s.setString(3, status.name());
      s.setString(4, charged);
      s.setLong(5, at);
      s.setString(6, settleHash);
      s.executeUpdate();
    }
  }

  // ---------------------------------------------------------------- transactions

  /**
   * Runs {@code work} in one transaction: a write at READ COMMITTED holding advisory lock {@code
   * lock}, so that once it holds the lock it reads every write committed before; a read in one
   * REPEATABLE READ snapshot. Retries on a fresh connection while the failure is a lost
   * connection or a server restart, for up to {@value #RETRY_SECONDS} s.
   */
  private <T> T transaction(boolean write, long lock, SqlWork<T> work) {
    long deadline = System.nanoTime() + RETRY_SECONDS * 1_000_000_000L;
    for (int attempt = 0; ; attempt++) {
      Connection c = null;
      try {
        c = connection();
        if (write) {
          try (PreparedStatement s = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            s.setLong(1, lock);
            s.executeQuery().close();
          }
        } else {
          // one snapshot for the whole read: the chain and its head as of one moment, while
          // other clients append
          execute(c, "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
        }
        T result = work.run(c);
        c.commit();
        idle.push(c);
        return result;
      } catch (SQLException e) {
        discard(c);
        if (!retryable(e) || System.nanoTime() > deadline) {
          throw translate(e);
        }
        pause(attempt);
      } catch (RuntimeException e) {
        rollback(c);
        throw e;
      }
    }
  }

  private Connection connection() throws SQLException {
    Connection c = idle.poll();
    if (c != null) {
      return c; // if it died while idle, the work fails as a lost connection and is retried
    }
    c = DriverManager.getConnection(server.jdbcUrl(), server.properties(environment));
    c.setAutoCommit(false);
    return c;
  }

  private void rollback(Connection c) {
    try {
      c.rollback();
      idle.push(c);
    } catch (SQLException e) {
      discard(c);
    }
  }

  private static void discard(Connection c) {
    if (c != null) {
      try {
        c.close();
      } catch (SQLException ignored) {
        // a broken connection: nothing to keep
      }
    }
  }

  private static void pause(int attempt) {
    long ms = Math.min(2_000, 50L << Math.min(attempt, 6));
    try {
      Thread.sleep(ms / 2 + ThreadLocalRandom.current().nextLong(ms / 2 + 1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting to retry a ledger write", e);
    }
  }

  /**
   * A failure after which the same transaction may be tried again: the connection was lost or
   * refused (class 08), the server is shutting down or starting (57P01–57P03), or a deadlock or
   * serialisation failure (40001, 40P01).
   */
  private static boolean retryable(SQLException e) {
    String state = e.getSQLState();
    return state != null && (state.startsWith("08") || state.equals("57P01")
        || state.equals("57P02") || state.equals("57P03") || state.equals("40001")
        || state.equals("40P01"));
  }

  private RuntimeException translate(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String message = e instanceof PSQLException p && p.getServerErrorMessage() != null
        ? p.getServerErrorMessage().getMessage() : e.getMessage();
    if (state.equals("42501")) {
      return new IllegalArgumentException("the database at " + server + " refused it: " + message,
          e);
    }
    if (state.startsWith("28")) {
      return new IllegalArgumentException("the database at " + server + " refused the"
          + " credentials (" + message + "): set PGUSER and PGPASSWORD or ~/.pgpass", e);
    }
    if (retryable(e)) {
      return new IllegalStateException("cannot reach the privacy ledger at " + server + " (tried"
          + " for " + RETRY_SECONDS + " s): " + message, e);
    }
    return new IllegalStateException("privacy ledger " + location() + ": " + message, e);
  }

  /** A 64-bit advisory-lock key: the first 8 bytes of SHA-256 of the name. */
  private static long lockKey(String name) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256")
          .digest(("tradeoff-ledger/" + name).getBytes(StandardCharsets.UTF_8));
      long k = 0;
      for (int i = 0; i < 8; i++) {
        k = (k << 8) | (d[i] & 0xff);
      }
      return k;
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  // ---------------------------------------------------------------- tables

  private static boolean tablesExist(Connection c) throws SQLException {
    return queryString(c, "SELECT to_regclass('tradeoff_ledger')::text") != null;
  }

  private static void insertHeader(Connection c, String dataset, Coordinates budget,
      LedgerPolicy policy) throws SQLException {
    List<String[]> rows = new ArrayList<>(List.of(headerRows(budget, policy, SCHEMA_VERSION)));
    for (String[] row : rows) {
      putMeta(c, dataset, row[0], row[1]);
    }
    putMeta(c, dataset, "genesis", genesis(meta(c, dataset), dataset));
  }

  private static void putMeta(Connection c, String dataset, String key, String value)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "INSERT INTO tradeoff_ledger (dataset, key, value) VALUES (?, ?, ?)")) {
      s.setString(1, dataset);
      s.setString(2, key);
      s.setString(3, value);
      s.executeUpdate();
    }
  }

  /** The granted datasets of the current role, as a row-level-security condition. */
  private static final String GRANTED = "dataset IN (SELECT g.dataset FROM tradeoff_grants g"
      + " WHERE g.role_name = current_user)";

  private static final String[] TABLES = {
    "CREATE TABLE tradeoff_ledger (dataset text NOT NULL, key text NOT NULL,"
        + " value text NOT NULL, PRIMARY KEY (dataset, key))",
    "CREATE TABLE tradeoff_grants (dataset text NOT NULL, role_name text NOT NULL,"
        + " PRIMARY KEY (dataset, role_name))",
    "CREATE SEQUENCE tradeoff_entry_ids",
    "CREATE TABLE tradeoff_entries (id bigint PRIMARY KEY, dataset text NOT NULL,"
        + " label text NOT NULL, kind text NOT NULL, reserved text NOT NULL,"
        + " reserved_at bigint NOT NULL, process_id bigint NOT NULL, filter text,"
        + " description text NOT NULL, hash text NOT NULL, prev_hash text NOT NULL,"
        + " request_key text NOT NULL, UNIQUE (dataset, prev_hash), UNIQUE (dataset, request_key),"
        + " UNIQUE (id, dataset))",
    "CREATE TABLE tradeoff_settlements (entry_id bigint PRIMARY KEY, dataset text NOT NULL,"
        + " status text NOT NULL CHECK (status IN ('COMMITTED', 'CANCELLED')),"
        + " charged text NOT NULL, committed_at bigint NOT NULL, settle_hash text NOT NULL,"
        + " FOREIGN KEY (entry_id, dataset) REFERENCES tradeoff_entries (id, dataset))",
    "CREATE FUNCTION tradeoff_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN"
        + " RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = TG_OP || ' on ' || TG_TABLE_NAME"
        + " || ' refused: the privacy ledger is append-only'; END $f$",
    "REVOKE ALL ON tradeoff_ledger, tradeoff_grants, tradeoff_entries, tradeoff_settlements"
        + " FROM PUBLIC",
    "REVOKE ALL ON SEQUENCE tradeoff_entry_ids FROM PUBLIC",
    "ALTER TABLE tradeoff_ledger ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE tradeoff_grants ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE tradeoff_entries ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE tradeoff_settlements ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY tradeoff_read ON tradeoff_ledger FOR SELECT USING (dataset = '' OR "
        + GRANTED + ")",
    "CREATE POLICY tradeoff_read ON tradeoff_grants FOR SELECT USING (role_name = current_user)",
    "CREATE POLICY tradeoff_read ON tradeoff_entries FOR SELECT USING (" + GRANTED + ")",
    "CREATE POLICY tradeoff_append ON tradeoff_entries FOR INSERT WITH CHECK (" + GRANTED + ")",
    "CREATE POLICY tradeoff_read ON tradeoff_settlements FOR SELECT USING (" + GRANTED + ")",
    "CREATE POLICY tradeoff_append ON tradeoff_settlements FOR INSERT WITH CHECK (" + GRANTED
        + ")",
  };

  /** Creates the tables, the append-only triggers, the grants and row-level security. */
  private static void createTables(Connection c) throws SQLException {
    for (String sql : TABLES) {
      execute(c, sql);
    }
    for (String table : List.of("tradeoff_ledger", "tradeoff_entries", "tradeoff_settlements")) {
      execute(c, "CREATE TRIGGER tradeoff_append_only BEFORE UPDATE OR DELETE ON " + table
          + " FOR EACH ROW EXECUTE FUNCTION tradeoff_refuse_change()");
      execute(c, "CREATE TRIGGER tradeoff_no_truncate BEFORE TRUNCATE ON " + table
          + " FOR EACH STATEMENT EXECUTE FUNCTION tradeoff_refuse_change()");
    }
    putMeta(c, SCHEMA, "magic", MAGIC);
    putMeta(c, SCHEMA, "schema_version", Integer.toString(SCHEMA_VERSION));
  }
}
