package dev.tradeoff.ledger;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * A {@link BudgetStore} in one embedded SQLite file: the default privacy-budget ledger.
 *
 * <p><b>Atomicity and no overspending.</b> Every change runs in its own {@code BEGIN IMMEDIATE}
 * transaction, which takes SQLite's write lock before the first read: the check (spent + request ≤
 * budget, summed exactly in decimal) and the charge happen under one lock, so concurrent threads
 * (each operation opens its own connection) and concurrent processes are serialised by SQLite's file
 * locks and can never both pass the check on the same remaining budget. Waiting for the lock is
 * bounded by a busy timeout of {@value #BUSY_TIMEOUT_MS} ms, after which the request fails with
 * nothing charged.
 *
 * <p><b>Durability.</b> {@code synchronous=FULL} with the rollback journal ({@code
 * journal_mode=DELETE}): a transaction is on disk (journal and database fsync'd) before {@code
 * COMMIT} returns, so when {@link #reserve}, {@link #commit} or {@link #charge} returns, the charge
 * survives a process crash or power loss. The rollback journal rather than WAL because the ledger
 * is a file of record: in WAL mode the newest commits live in a separate {@code -wal} file until a
 * checkpoint, and copying or backing up only the {@code .db} file (the natural thing to do) would
 * silently drop charges, i.e. under-count spent privacy; WAL also needs shared memory and does not
 * work on network file systems. Charges are rare (one per private release), so WAL's higher write
 * throughput buys nothing here.
 *
 * <p><b>Crash safety of the two phases.</b> A reservation is a committed row at its worst-case cost;
 * settling it is a second transaction that lowers it to the realised cost. A crash in between
 * (including {@code kill -9}) leaves the worst-case charge counted; a committed charge is never lost.
 *
 * <p><b>Format.</b> The file carries SQLite's {@code application_id} {@value #APPLICATION_ID_HEX},
 * {@code user_version} {@value #SCHEMA_VERSION} and a {@code tradeoff_ledger} table holding a magic
 * string and the budget. A file that is not SQLite, belongs to another application, has another
 * schema version or fails SQLite's {@code quick_check} is refused with a {@link
 * LedgerFormatException} and left untouched.
 */
public final class SqliteLedger implements BudgetStore {

  /** The value of SQLite's {@code application_id} header field in a ledger: "TrdL". */
  public static final int APPLICATION_ID = 0x5472644C;

  static final String APPLICATION_ID_HEX = "0x5472644C";

  /** The schema version this class reads and writes ({@code user_version}). */
  public static final int SCHEMA_VERSION = 1;

  static final String MAGIC = "tradeoff-privacy-ledger";
  static final int BUSY_TIMEOUT_MS = 60_000;
  private static final int MAX_LABEL_LENGTH = 1000;

  private final Path file;
  private final Coordinates coordinates;

  private SqliteLedger(Path file, Coordinates coordinates) {
    this.file = file;
    this.coordinates = coordinates;
  }

  /**
   * Opens the ledger at {@code file}, creating it with {@code budget} if the file does not exist or
   * is empty. An existing ledger must have been created with exactly this budget: a budget is never
   * changed after the fact.
   *
   * @param budget a {@link dev.tradeoff.accounting.guarantee.PureDp}, {@link
   *     dev.tradeoff.accounting.guarantee.ApproxDp} or {@link
   *     dev.tradeoff.accounting.guarantee.RenyiDp} total budget
   * @throws LedgerFormatException if the file is not a usable ledger
   * @throws IllegalArgumentException if the existing ledger has another budget
   */
  public static SqliteLedger openOrCreate(Path file, PrivacyGuarantee budget) {
    Require.nonNull("file", file);
    Coordinates wanted = Coordinates.ofBudget(budget);
    Path absolute = file.toAbsolutePath();
    try (Connection c = connect(absolute)) {
      Coordinates existing = inTransaction(c, "BEGIN IMMEDIATE", () -> {
        if (isEmptyDatabase(c)) {
          initialise(c, wanted);
          return wanted;
        }
        return validate(absolute, c);
      });
      setJournalMode(absolute, c);
      if (!sameBudget(existing, wanted)) {
        throw new IllegalArgumentException(
            "ledger "
                + absolute
                + " was created with budget "
                + existing.budget()
                + ", not "
                + wanted.budget()
                + "; a ledger's budget cannot be changed");
      }
      return new SqliteLedger(absolute, existing);
    } catch (SQLException e) {
      throw translate(absolute, e);
    }
  }

  /**
   * Opens an existing ledger, reading its budget from the file.
   *
   * @throws IllegalArgumentException if there is no file
   * @throws LedgerFormatException if the file is not a usable ledger
   */
  public static SqliteLedger open(Path file) {
    Require.nonNull("file", file);
    Path absolute = file.toAbsolutePath();
    try {
      if (!Files.isRegularFile(absolute) || Files.size(absolute) == 0) {
        throw new IllegalArgumentException("no privacy ledger at " + absolute);
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read privacy ledger " + absolute + ": " + e, e);
    }
    try (Connection c = connect(absolute)) {
      Coordinates existing = inTransaction(c, "BEGIN", () -> validate(absolute, c));
      return new SqliteLedger(absolute, existing);
    } catch (SQLException e) {
      throw translate(absolute, e);
    }
  }

  /** The ledger file. */
  public Path file() {
    return file;
  }

  @Override
  public PrivacyGuarantee budget() {
    return coordinates.budget();
  }

  @Override
  public Reservation reserve(String label, PrivacyGuarantee worstCase) {
    String l = checkLabel(label);
    double[] request = coordinates.read("worstCase", worstCase);
    PrivacyGuarantee requested = coordinates.guarantee(request);
    Instant now = now();
    long id = insertIfItFits(l, requested, request, EntryStatus.RESERVED, now, null);
    return new Reservation(id, l, requested, now);
  }

  @Override
  public LedgerEntry commit(Reservation reservation, PrivacyGuarantee realised) {
    Require.nonNull("reservation", reservation);
    double[] cost = coordinates.read("realised", realised);
    Instant now = now();
    return write(c -> {
      LedgerEntry open = openReservation(c, reservation);
      double[] reserved = coordinates.read("reserved", open.reserved());
      if (!Coordinates.dominatedBy(cost, reserved)) {
        throw new IllegalArgumentException(
            "realised cost "
                + coordinates.guarantee(cost)
                + " exceeds the reservation "
                + open.reserved()
                + " of \""
                + open.label()
                + "\"; nothing was changed");
      }
      try (PreparedStatement s = c.prepareStatement(
          "UPDATE tradeoff_charges SET status = ?, charged = ?, committed_at = ? WHERE id = ?")) {
        s.setString(1, EntryStatus.COMMITTED.name());
        s.setString(2, Coordinates.encode(cost));
        s.setLong(3, now.toEpochMilli());
        s.setLong(4, open.id());
        s.executeUpdate();
      }
      return new LedgerEntry(open.id(), open.label(), coordinates.kind(), EntryStatus.COMMITTED,
          open.reserved(), coordinates.guarantee(cost), open.reservedAt(), now,
          open.processId());
    });
  }

  @Override
  public void cancel(Reservation reservation) {
    Require.nonNull("reservation", reservation);
    write(c -> {
      LedgerEntry open = openReservation(c, reservation);
      try (PreparedStatement s = c.prepareStatement("DELETE FROM tradeoff_charges WHERE id = ?")) {
        s.setLong(1, open.id());
        s.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public LedgerEntry charge(String label, PrivacyGuarantee cost) {
    String l = checkLabel(label);
    double[] amount = coordinates.read("cost", cost);
    PrivacyGuarantee requested = coordinates.guarantee(amount);
    Instant now = now();
    long id = insertIfItFits(l, requested, amount, EntryStatus.COMMITTED, now, now);
    return new LedgerEntry(id, l, coordinates.kind(), EntryStatus.COMMITTED, requested, requested,
        now, now, ProcessHandle.current().pid());
  }

  /**
   * In one write transaction: refuses with {@link BudgetExceededException} if {@code amount} does
   * not fit next to the recorded charges, otherwise inserts it with {@code status}; the new id.
   */
  private long insertIfItFits(String label, PrivacyGuarantee requested, double[] amount,
      EntryStatus status, Instant reservedAt, Instant committedAt) {
    return write(c -> {
      List<double[]> charges = charges(c);
      if (!coordinates.fits(charges, amount)) {
        throw new BudgetExceededException(
            label, requested, coordinates.guarantee(coordinates.remaining(charges)));
      }
      return insert(c, label, status, amount, amount, reservedAt, committedAt);
    });
  }

  @Override
  public PrivacyGuarantee spent() {
    return coordinates.guarantee(coordinates.spent(read(this::charges)));
  }

  @Override
  public PrivacyGuarantee remaining() {
    return coordinates.guarantee(coordinates.remaining(read(this::charges)));
  }

  @Override
  public List<LedgerEntry> entries() {
    return read(c -> {
      List<LedgerEntry> out = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery(SELECT_ENTRY + " ORDER BY id")) {
        while (r.next()) {
          out.add(entry(r));
        }
      }
      return List.copyOf(out);
    });
  }

  /** Nothing to release: every operation opens and closes its own connection. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "SqliteLedger[" + file + ", budget " + budget() + "]";
  }

  // ---------------------------------------------------------------- internals

  private static final String SELECT_ENTRY =
      "SELECT id, label, kind, status, reserved, charged, reserved_at, committed_at, process_id"
          + " FROM tradeoff_charges";

  @FunctionalInterface
  private interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  @FunctionalInterface
  private interface SqlBody<T> {
    T run() throws SQLException;
  }

  private <T> T write(SqlWork<T> work) {
    try (Connection c = connect(file)) {
      setJournalMode(file, c);
      return inTransaction(c, "BEGIN IMMEDIATE", () -> work.run(c));
    } catch (SQLException e) {
      throw translate(file, e);
    }
  }

  private <T> T read(SqlWork<T> work) {
    try (Connection c = connect(file)) {
      return inTransaction(c, "BEGIN", () -> work.run(c));
    } catch (SQLException e) {
      throw translate(file, e);
    }
  }

  private static <T> T inTransaction(Connection c, String begin, SqlBody<T> body)
      throws SQLException {
    execute(c, begin);
    T result;
    try {
      result = body.run();
    } catch (RuntimeException | SQLException e) {
      rollback(c, e);
      throw e;
    }
    try {
      execute(c, "COMMIT");
    } catch (SQLException e) {
      rollback(c, e);
      throw e;
    }
    return result;
  }

  private static void rollback(Connection c, Exception cause) {
    try {
      execute(c, "ROLLBACK");
    } catch (SQLException e) {
      cause.addSuppressed(e);
    }
  }

  private static Connection connect(Path file) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    return config.createConnection("jdbc:sqlite:" + file);
  }

  private static void setJournalMode(Path file, Connection c) throws SQLException {
    String mode = queryString(c, "PRAGMA journal_mode = DELETE");
    if (!"delete".equalsIgnoreCase(mode)) {
      throw new SQLException("could not set the rollback journal on " + file + " (mode " + mode + ")");
    }
  }

  private static boolean isEmptyDatabase(Connection c) throws SQLException {
    return queryLong(c, "PRAGMA application_id") == 0
        && queryLong(c, "SELECT count(*) FROM sqlite_master") == 0;
  }

  private static void initialise(Connection c, Coordinates budget) throws SQLException {
    execute(c, "PRAGMA application_id = " + APPLICATION_ID);
    execute(c, "PRAGMA user_version = " + SCHEMA_VERSION);
    execute(c, "CREATE TABLE tradeoff_ledger (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    execute(c, "CREATE TABLE tradeoff_charges ("
        + " id INTEGER PRIMARY KEY AUTOINCREMENT,"
        + " label TEXT NOT NULL,"
        + " kind TEXT NOT NULL,"
        + " status TEXT NOT NULL CHECK (status IN ('RESERVED', 'COMMITTED')),"
        + " reserved TEXT NOT NULL,"
        + " charged TEXT NOT NULL,"
        + " reserved_at INTEGER NOT NULL,"
        + " committed_at INTEGER,"
        + " process_id INTEGER NOT NULL)");
    try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_ledger VALUES (?, ?)")) {
      String[][] rows = {
        {"magic", MAGIC},
        {"schema_version", Integer.toString(SCHEMA_VERSION)},
        {"kind", budget.kind().name()},
        {"orders", Coordinates.encode(budget.orders())},
        {"budget", Coordinates.encode(budget.read("budget", budget.budget()))},
        {"created_at", now().toString()}
      };
      for (String[] row : rows) {
        s.setString(1, row[0]);
        s.setString(2, row[1]);
        s.executeUpdate();
      }
    }
  }

  /** Checks that {@code c} is a ledger of this schema version and reads its budget. */
  private static Coordinates validate(Path file, Connection c) throws SQLException {
    long applicationId = queryLong(c, "PRAGMA application_id");
    if (applicationId != APPLICATION_ID) {
      List<String> tables = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        while (r.next()) {
          tables.add(r.getString(1));
        }
      }
      throw new LedgerFormatException(file + " is not a Tradeoff privacy ledger: it is an SQLite"
          + " database of another application (application_id " + applicationId + ", tables "
          + tables + "); refusing to use it");
    }
    long version = queryLong(c, "PRAGMA user_version");
    if (version != SCHEMA_VERSION) {
      throw new LedgerFormatException(file + " is a Tradeoff privacy ledger of schema version "
          + version + ", but this version of Tradeoff reads only version " + SCHEMA_VERSION);
    }
    String check = queryString(c, "PRAGMA quick_check");
    if (!"ok".equals(check)) {
      throw damaged(file, "SQLite integrity check failed: " + check, null);
    }
    try {
      String magic = meta(c, "magic");
      if (!MAGIC.equals(magic)) {
        throw damaged(file, "wrong magic \"" + magic + "\"", null);
      }
      GuaranteeKind kind = GuaranteeKind.valueOf(meta(c, "kind"));
      String orderText = meta(c, "orders");
      double[] orders = orderText.isEmpty() ? new double[0]
          : Arrays.stream(orderText.split(",")).mapToDouble(Double::parseDouble).toArray();
      int size = switch (kind) {
        case PURE_DP -> 1;
        case APPROX_DP -> 2;
        case RENYI_DP -> orders.length;
      };
      Coordinates budget = Coordinates.of(kind, orders, Coordinates.decode(meta(c, "budget"), size));
      try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(SELECT_ENTRY)) {
        while (r.next()) {
          new SqliteLedger(file, budget).entry(r);
        }
      }
      return budget;
    } catch (IllegalArgumentException e) {
      if (e instanceof LedgerFormatException f) {
        throw f;
      }
      throw damaged(file, e.getMessage(), e);
    }
  }

  private static String meta(Connection c, String key) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("SELECT value FROM tradeoff_ledger WHERE key = ?")) {
      s.setString(1, key);
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new IllegalArgumentException("missing ledger field \"" + key + "\"");
        }
        return r.getString(1);
      }
    }
  }

  /** What each entry counts against the budget, in id order (a fixed summation order). */
  private List<double[]> charges(Connection c) throws SQLException {
    List<double[]> out = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT id, charged FROM tradeoff_charges ORDER BY id")) {
      while (r.next()) {
        try {
          out.add(Coordinates.decode(r.getString(2), coordinates.size()));
        } catch (IllegalArgumentException e) {
          throw damaged(file, "entry #" + r.getLong(1) + ": " + e.getMessage(), e);
        }
      }
    }
    return out;
  }

  private LedgerEntry entry(ResultSet r) throws SQLException {
    long id = r.getLong("id");
    try {
      GuaranteeKind kind = GuaranteeKind.valueOf(r.getString("kind"));
      if (kind != coordinates.kind()) {
        throw new IllegalArgumentException("entry of kind " + kind + " in a " + coordinates.kind()
            + " ledger");
      }
      EntryStatus status = EntryStatus.valueOf(r.getString("status"));
      double[] reserved = Coordinates.decode(r.getString("reserved"), coordinates.size());
      double[] charged = Coordinates.decode(r.getString("charged"), coordinates.size());
      if (!Coordinates.dominatedBy(charged, reserved)) {
        throw new IllegalArgumentException("charged more than reserved");
      }
      long committedAt = r.getLong("committed_at");
      Instant committed = r.wasNull() ? null : Instant.ofEpochMilli(committedAt);
      return new LedgerEntry(id, r.getString("label"), kind, status,
          coordinates.guarantee(reserved), coordinates.guarantee(charged),
          Instant.ofEpochMilli(r.getLong("reserved_at")), committed, r.getLong("process_id"));
    } catch (IllegalArgumentException e) {
      throw damaged(file, "entry #" + id + ": " + e.getMessage(), e);
    }
  }

  private LedgerEntry openReservation(Connection c, Reservation reservation) throws SQLException {
    LedgerEntry e;
    try (PreparedStatement s = c.prepareStatement(SELECT_ENTRY + " WHERE id = ?")) {
      s.setLong(1, reservation.id());
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new IllegalStateException(
              "no reservation #" + reservation.id() + " (\"" + reservation.label() + "\") in " + file);
        }
        e = entry(r);
      }
    }
    if (!e.label().equals(reservation.label())) {
      throw new IllegalStateException("reservation #" + reservation.id() + " of " + file
          + " is \"" + e.label() + "\", not \"" + reservation.label() + "\"");
    }
    if (e.status() != EntryStatus.RESERVED) {
      throw new IllegalStateException(
          "reservation #" + e.id() + " (\"" + e.label() + "\") is already settled");
    }
    return e;
  }

  private long insert(Connection c, String label, EntryStatus status, double[] reserved,
      double[] charged, Instant reservedAt, Instant committedAt) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_charges (label, kind,"
        + " status, reserved, charged, reserved_at, committed_at, process_id)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", Statement.RETURN_GENERATED_KEYS)) {
      s.setString(1, label);
      s.setString(2, coordinates.kind().name());
      s.setString(3, status.name());
      s.setString(4, Coordinates.encode(reserved));
      s.setString(5, Coordinates.encode(charged));
      s.setLong(6, reservedAt.toEpochMilli());
      if (committedAt == null) {
        s.setNull(7, java.sql.Types.INTEGER);
      } else {
        s.setLong(7, committedAt.toEpochMilli());
      }
      s.setLong(8, ProcessHandle.current().pid());
      s.executeUpdate();
    }
    return queryLong(c, "SELECT last_insert_rowid()");
  }

  private static String checkLabel(String label) {
    Require.nonNull("label", label);
    if (label.isBlank() || label.length() > MAX_LABEL_LENGTH) {
      throw new IllegalArgumentException(
          "label must be non-blank and at most " + MAX_LABEL_LENGTH + " characters, but was \""
              + label + "\"");
    }
    return label;
  }

  private static boolean sameBudget(Coordinates a, Coordinates b) {
    return a.budget().equals(b.budget());
  }

  private static Instant now() {
    return Instant.ofEpochMilli(System.currentTimeMillis());
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private static long queryLong(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  private static String queryString(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  private static LedgerFormatException damaged(Path file, String detail, Throwable cause) {
    return new LedgerFormatException(
        file + " is not a usable Tradeoff privacy ledger: it is damaged (" + detail
            + "); refusing to use it", cause);
  }

  private static RuntimeException translate(Path file, SQLException e) {
    if (e instanceof SQLiteException s) {
      int code = s.getErrorCode() & 0xff;
      if (code == SQLiteErrorCode.SQLITE_NOTADB.code) {
        return new LedgerFormatException(
            file + " is not a Tradeoff privacy ledger: it is not an SQLite database", e);
      }
      if (code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
        return damaged(file, s.getMessage(), e);
      }
      if (code == SQLiteErrorCode.SQLITE_READONLY.code || code == SQLiteErrorCode.SQLITE_PERM.code) {
        return new IllegalArgumentException("privacy ledger " + file + " is read-only (the file or"
            + " its directory, where SQLite writes its journal, cannot be written)", e);
      }
      if (code == SQLiteErrorCode.SQLITE_CANTOPEN.code) {
        return new IllegalArgumentException("cannot open privacy ledger " + file + ": its"
            + " directory must exist and be writable", e);
      }
    }
    return new IllegalStateException("privacy ledger " + file + ": " + e.getMessage(), e);
  }
}
