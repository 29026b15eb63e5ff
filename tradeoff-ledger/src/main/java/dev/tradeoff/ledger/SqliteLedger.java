package dev.tradeoff.ledger;

import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.internal.Shown;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/**
 * A {@link BudgetStore} in one embedded SQLite file: the default privacy-budget ledger.
 *
 * <p>The filters, entry format and hash chain are {@link PrivacyLedger}'s, shared with {@link
 * PostgresLedger}; this class adds the file.
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
 * journal_mode=TRUNCATE}): a transaction is on disk (journal and database fsync'd, then the journal
 * truncated and fsync'd) before {@code COMMIT} returns, so when {@link #reserve}, {@link #commit} or
 * {@link #charge} returns, the charge survives a process crash or power loss. TRUNCATE rather than
 * DELETE: a commit never unlinks the journal, so it cannot fail with {@code
 * SQLITE_IOERR_DELETE_NOENT} (an {@code unlink} that found the journal gone) after the database was
 * already written, as a commit in DELETE mode once did under load; every connection sets it, so
 * the zero-length {@code -journal} file stays next to the ledger. The rollback journal rather than
 * WAL because the ledger
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
 * <p><b>Datasets.</b> One file holds one or more named budgets (datasets, {@link
 * PrivacyLedger#checkDataset}), each with its own header, entries and hash chain, as in a {@link
 * PostgresLedger}; a handle charges the one dataset it was opened for ({@value
 * PrivacyLedger#DEFAULT_DATASET} unless named). One write lock serves the whole file.
 *
 * <p><b>Format.</b> The file carries SQLite's {@code application_id} {@value #APPLICATION_ID_HEX},
 * {@code user_version} {@value #SCHEMA_VERSION}, a {@code tradeoff_ledger} table holding each
 * dataset's header (a magic string, the budget and, for an (ε, δ) budget, the {@link
 * LedgerPolicy}) and a {@code tradeoff_charges} table whose every entry names its dataset and
 * stores an {@link EntryDescription} (docs/ledger.md). A file that is not SQLite, belongs to
 * another application, has an unknown schema version or fails SQLite's {@code quick_check} is
 * refused with a {@link LedgerFormatException} and left untouched. A ledger of an earlier schema
 * is migrated in one transaction when it is opened: its one budget becomes dataset {@value
 * PrivacyLedger#DEFAULT_DATASET} with its hash chain unchanged (version 2), or, for version 1,
 * its entries first become opaque charges of the basic filter, which gets the whole budget (the
 * composition they were admitted under).
 *
 * <p><b>Filters.</b> An (ε, δ) budget is spent through the filters of its {@link LedgerPolicy}
 * (GDP, RDP, basic, advanced composition, ex-post RDP; {@link FilterKind}), each valid under fully
 * adaptive composition. Ex-post requests are reserved at their worst case and committed at their
 * realised ε̃ ({@link #reserve}, {@link #commit}). Pure-DP and
 * Rényi-DP budgets sum their charges coordinate by coordinate as before.
 *
 * <p><b>Tamper evidence.</b> Entries form a SHA-256 hash chain rooted in the header ({@link
 * HashChain}); every open and {@link #verify()} check the whole chain (and the file's integrity),
 * and every write checks the header and what is new since its handle last verified the chain, so
 * a ledger whose chain is broken, whose recorded budget or policy was edited, or whose last entries
 * were deleted is refused with one line and nothing is charged; an entry edited after a handle
 * verified it is not counted as edited by that handle and is found by the next open or verify.
 * The chain has no secret: it detects edits, not an editor who recomputes it; record {@link
 * #verify()}'s head hash elsewhere to pin the history.
 */
public final class SqliteLedger extends PrivacyLedger {

  /** The value of SQLite's {@code application_id} header field in a ledger: "TrdL". */
  public static final int APPLICATION_ID = 0x5472644C;

  static final String APPLICATION_ID_HEX = "0x5472644C";

  /** The schema version this class reads and writes ({@code user_version}). */
  public static final int SCHEMA_VERSION = 3;

  static final int BUSY_TIMEOUT_MS = 60_000;

  private final Path file;
  private final String dataset;

  private SqliteLedger(Path file, String dataset, Header header) {
    super(header);
    this.file = file;
    this.dataset = dataset;
  }

  /**
   * Opens the budget of dataset {@value PrivacyLedger#DEFAULT_DATASET} at {@code file}, creating
   * it with {@code budget} if the file does not exist or is empty. An existing budget must have
   * been created with exactly this budget: a budget is never changed after the fact.
   *
   * @param budget a {@link dev.tradeoff.accounting.guarantee.PureDp}, {@link
   *     dev.tradeoff.accounting.guarantee.ApproxDp} or {@link
   *     dev.tradeoff.accounting.guarantee.RenyiDp} total budget
   * @throws LedgerFormatException if the file is not a usable ledger
   * @throws IllegalArgumentException if the existing ledger has another budget
   */
  public static SqliteLedger openOrCreate(Path file, PrivacyGuarantee budget) {
    return openOrCreate(file, DEFAULT_DATASET, budget);
  }

  /**
   * Opens the budget of {@code dataset} at {@code file}, creating it with {@code budget} (and the
   * file, if it does not exist or is empty) when the file has no such dataset. An existing budget
   * must have been created with exactly this budget.
   *
   * @throws LedgerFormatException if the file is not a usable ledger
   * @throws IllegalArgumentException if the dataset name is malformed or the existing budget
   *     differs
   */
  public static SqliteLedger openOrCreate(Path file, String dataset, PrivacyGuarantee budget) {
    Require.nonNull("budget", budget);
    return openOrCreate(file, dataset, budget, budget instanceof ApproxDp a
        ? LedgerPolicy.only(FilterKind.BASIC, a) : null);
  }

  /**
   * {@link #create(Path, String, ApproxDp, LedgerPolicy)} for dataset {@value
   * PrivacyLedger#DEFAULT_DATASET}.
   */
  public static SqliteLedger create(Path file, ApproxDp budget, LedgerPolicy policy) {
    return create(file, DEFAULT_DATASET, budget, policy);
  }

  /**
   * Opens the budget of {@code dataset} at {@code file}, creating it with an (ε, δ) {@code budget}
   * spent through the filters of {@code policy} if the file has no such dataset. An existing
   * budget keeps the budget and policy it was created with (it must have this budget; its policy
   * is its own).
   *
   * @throws LedgerFormatException if the file is not a usable ledger
   * @throws IllegalArgumentException if the existing budget differs
   */
  public static SqliteLedger create(Path file, String dataset, ApproxDp budget,
      LedgerPolicy policy) {
    checkCreatable(budget, policy);
    return openOrCreate(file, dataset, budget, policy);
  }

  private static SqliteLedger openOrCreate(Path file, String dataset, PrivacyGuarantee budget,
      LedgerPolicy policy) {
    Require.nonNull("file", file);
    checkDataset(dataset);
    Coordinates wanted = Coordinates.ofBudget(budget);
    Path absolute = file.toAbsolutePath();
    createEmptyFileIfAbsent(absolute);
    try (Connection c = connect(absolute)) {
      Header existing = inTransaction(c, "BEGIN IMMEDIATE", () -> {
        if (isEmptyDatabase(c)) {
          initialise(c);
        } else {
          migrateIfOld(absolute, c);
          checkFormat(absolute, c);
        }
        if (!datasetExists(c, dataset)) {
          addDataset(c, dataset, wanted, policy);
        }
        return validate(absolute, dataset, c);
      });
      requireSameBudget(where(absolute, dataset), existing.coordinates(), wanted);
      return new SqliteLedger(absolute, dataset, existing);
    } catch (SQLException e) {
      throw translate(absolute, e);
    }
  }

  /**
   * Opens the budget of dataset {@value PrivacyLedger#DEFAULT_DATASET} of an existing ledger.
   *
   * @throws IllegalArgumentException if there is no file or no such dataset
   * @throws LedgerFormatException if the file is not a usable ledger
   */
  public static SqliteLedger open(Path file) {
    return open(file, DEFAULT_DATASET);
  }

  /**
   * Opens the budget of {@code dataset} of an existing ledger, reading it from the file.
   *
   * @throws IllegalArgumentException if there is no file or no such dataset
   * @throws LedgerFormatException if the file is not a usable ledger
   */
  public static SqliteLedger open(Path file, String dataset) {
    Require.nonNull("file", file);
    checkDataset(dataset);
    Path absolute = requireFile(file);
    try (Connection c = connect(absolute)) {
      boolean old = inTransaction(c, "BEGIN", () -> isOld(c));
      Header existing = inTransaction(c, old ? "BEGIN IMMEDIATE" : "BEGIN", () -> {
        migrateIfOld(absolute, c);
        return validate(absolute, dataset, c);
      });
      return new SqliteLedger(absolute, dataset, existing);
    } catch (SQLException e) {
      throw translate(absolute, e);
    }
  }

  /**
   * Whether the ledger at {@code file} has a budget for {@code dataset} (a file of an older
   * schema holds only dataset {@value PrivacyLedger#DEFAULT_DATASET}); reads only.
   *
   * @throws LedgerFormatException if the file is not a usable ledger
   */
  public static boolean exists(Path file, String dataset) {
    Require.nonNull("file", file);
    checkDataset(dataset);
    Path absolute = file.toAbsolutePath();
    if (!hasContent(absolute)) {
      return false;
    }
    try (Connection c = connect(absolute)) {
      return inTransaction(c, "BEGIN", () -> {
        if (isOld(c)) {
          return DEFAULT_DATASET.equals(dataset);
        }
        checkFormat(absolute, c);
        return datasetExists(c, dataset);
      });
    } catch (SQLException e) {
      throw translate(absolute, e);
    }
  }

  private static Path requireFile(Path file) {
    Path absolute = file.toAbsolutePath();
    if (!hasContent(absolute)) {
      throw new IllegalArgumentException("no privacy ledger at " + absolute);
    }
    return absolute;
  }

  private static boolean hasContent(Path absolute) {
    try {
      return Files.isRegularFile(absolute) && Files.size(absolute) > 0;
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read privacy ledger " + absolute + ": " + e, e);
    }
  }

  /** The ledger file. */
  public Path file() {
    return file;
  }

  /** The dataset whose budget this is. */
  public String dataset() {
    return dataset;
  }

  /**
   * Checks the file's integrity (SQLite's {@code quick_check}) and then the budget's whole chain
   * ({@link PrivacyLedger#verify}).
   *
   * @throws LedgerFormatException naming the first problem found
   */
  @Override
  public Verification verify() {
    inReadTransaction(c -> {
      checkIntegrity(file, c);
      return null;
    });
    return super.verify();
  }

  /** Nothing to release: every operation opens and closes its own connection. */
  @Override
  public void close() {}

  @Override
  public String toString() {
    return "SqliteLedger[" + location() + ", budget " + budget() + "]";
  }

  // ---------------------------------------------------------------- the store

  private static final String SELECT_ENTRY =
      "SELECT id, label, kind, status, reserved, charged, reserved_at, committed_at, process_id,"
          + " filter, description, hash, settle_hash FROM tradeoff_charges WHERE dataset = ?";

  /** The file, and the dataset unless it is the default one. */
  @Override
  public String location() {
    return where(file, dataset);
  }

  private static String where(Path file, String dataset) {
    return DEFAULT_DATASET.equals(dataset) ? file.toString()
        : file + " dataset \"" + dataset + "\"";
  }

  @Override
  <T> T inWriteTransaction(SqlWork<T> work) {
    try (Connection c = connect(file)) {
      return inTransaction(c, "BEGIN IMMEDIATE", () -> work.run(c));
    } catch (SQLException e) {
      throw translate(file, e);
    }
  }

  @Override
  <T> T inReadTransaction(SqlWork<T> work) {
    try (Connection c = connect(file)) {
      return inTransaction(c, "BEGIN", () -> work.run(c));
    } catch (SQLException e) {
      throw translate(file, e);
    }
  }

  @Override
  Header readHeader(Connection c) throws SQLException {
    checkMarks(file, c); // the file's integrity is checked on open and by verify
    requireDataset(file, dataset, c);
    return parseHeader(meta(c, dataset), dataset, location());
  }

  @Override
  String selectEntries(String condition) {
    return SELECT_ENTRY + " AND (" + condition + ") ORDER BY id";
  }

  @Override
  int bindBudget(PreparedStatement s) throws SQLException {
    s.setString(1, dataset);
    return 2;
  }

  @Override
  String head(Connection c) throws SQLException {
    return meta(c, dataset).get("head_hash");
  }

  /**
   * Ids are never reused (AUTOINCREMENT): the next id is one past the largest ever issued, in any
   * dataset of the file.
   */
  @Override
  long appendEntry(Connection c, EntryRow row) throws SQLException {
    long id = queryLong(c, "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name ="
        + " 'tradeoff_charges'), 0)") + 1;
    String hash = row.hash(id);
    try (PreparedStatement s = c.prepareStatement(INSERT_ENTRY)) {
      s.setLong(1, id);
      s.setString(2, row.label());
      s.setString(3, row.kind());
      s.setString(4, EntryStatus.RESERVED.name());
      s.setString(5, row.reserved());
      s.setString(6, row.reserved());
      s.setLong(7, row.reservedAt());
      s.setNull(8, java.sql.Types.INTEGER);
      s.setLong(9, row.processId());
      s.setString(10, row.filter());
      s.setString(11, row.description());
      s.setString(12, hash);
      s.setNull(13, java.sql.Types.VARCHAR);
      s.setString(14, dataset);
      s.executeUpdate();
    }
    putMeta(c, dataset, "head_hash", hash);
    return id;
  }

  /** A file has no dropped connections to retry after: no first attempt to find. */
  @Override
  Optional<Long> entryWithKey(Connection c, String requestKey) {
    return Optional.empty();
  }

  @Override
  void appendSettlement(Connection c, long id, EntryStatus status, String charged, long at,
      String settleHash) throws SQLException {
    try (PreparedStatement s = c.prepareStatement("UPDATE tradeoff_charges SET status = ?,"
        + " charged = ?, committed_at = ?, settle_hash = ? WHERE id = ? AND dataset = ?")) {
      s.setString(1, status.name());
      s.setString(2, charged);
      s.setLong(3, at);
      s.setString(4, settleHash);
      s.setLong(5, id);
      s.setString(6, dataset);
      s.executeUpdate();
    }
  }

  // ---------------------------------------------------------------- internals

  @FunctionalInterface
  private interface SqlBody<T> {
    T run() throws SQLException;
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

  /** A connection with full sync, the busy timeout and the truncated rollback journal. */
  private static Connection connect(Path file) throws SQLException {
    SQLiteConfig config = new SQLiteConfig();
    config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
    config.setBusyTimeout(BUSY_TIMEOUT_MS);
    Connection c = config.createConnection("jdbc:sqlite:" + file);
    try {
      String mode = queryString(c, "PRAGMA journal_mode = TRUNCATE");
      if (!"truncate".equalsIgnoreCase(mode)) {
        throw new SQLException("could not set the rollback journal on " + file + " (mode " + mode
            + ")");
      }
      return c;
    } catch (SQLException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /**
   * Creates {@code file} empty (atomically, {@code O_EXCL}) unless it exists, so that no SQLite
   * connection ever creates it. Connections of one process that each created the same absent file
   * did not exclude each other: under {@code BEGIN IMMEDIATE}, two of eight threads of one JVM
   * both found an empty database and both initialised it, the second overwriting the first's
   * header (about 1 in 70 runs here). With the file made first, none did in 1,200 runs, and
   * processes exclude each other through the file's locks as before. Any failure other than the
   * file's existing is left to {@link #connect}, which reports it in the ledger's usual words.
   */
  private static void createEmptyFileIfAbsent(Path file) {
    try {
      Files.createFile(file);
    } catch (IOException e) {
      // already there (another opener made it first), or connect reports why it cannot be made
    }
  }

  private static boolean isEmptyDatabase(Connection c) throws SQLException {
    return queryLong(c, "PRAGMA application_id") == 0
        && queryLong(c, "SELECT count(*) FROM sqlite_master") == 0;
  }

  private static final String CREATE_HEADER = "CREATE TABLE tradeoff_ledger ("
      + " dataset TEXT NOT NULL,"
      + " key TEXT NOT NULL,"
      + " value TEXT NOT NULL,"
      + " PRIMARY KEY (dataset, key))";

  private static final String CREATE_CHARGES = "CREATE TABLE tradeoff_charges ("
      + " id INTEGER PRIMARY KEY AUTOINCREMENT,"
      + " label TEXT NOT NULL,"
      + " kind TEXT NOT NULL,"
      + " status TEXT NOT NULL CHECK (status IN ('RESERVED', 'COMMITTED', 'CANCELLED')),"
      + " reserved TEXT NOT NULL,"
      + " charged TEXT NOT NULL,"
      + " reserved_at INTEGER NOT NULL,"
      + " committed_at INTEGER,"
      + " process_id INTEGER NOT NULL,"
      + " filter TEXT,"
      + " description TEXT NOT NULL,"
      + " hash TEXT NOT NULL,"
      + " settle_hash TEXT,"
      + " dataset TEXT NOT NULL)";

  private static final String ENTRY_COLUMNS = "id, label, kind, status, reserved, charged,"
      + " reserved_at, committed_at, process_id, filter, description, hash, settle_hash";

  private static final String INSERT_ENTRY = "INSERT INTO tradeoff_charges (" + ENTRY_COLUMNS
      + ", dataset) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private static void initialise(Connection c) throws SQLException {
    execute(c, "PRAGMA application_id = " + APPLICATION_ID);
    execute(c, "PRAGMA user_version = " + SCHEMA_VERSION);
    execute(c, CREATE_HEADER);
    execute(c, CREATE_CHARGES);
  }

  /** Writes the header of a new budget for {@code dataset}: its fields, genesis and head. */
  private static void addDataset(Connection c, String dataset, Coordinates budget,
      LedgerPolicy policy) throws SQLException {
    for (String[] row : headerRows(budget, policy, SCHEMA_VERSION)) {
      putMeta(c, dataset, row[0], row[1]);
    }
    String genesis = genesis(meta(c, dataset), dataset);
    putMeta(c, dataset, "genesis", genesis);
    putMeta(c, dataset, "head_hash", genesis);
  }

  private static void putMeta(Connection c, String dataset, String key, String value)
      throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "INSERT OR REPLACE INTO tradeoff_ledger (dataset, key, value) VALUES (?, ?, ?)")) {
      s.setString(1, dataset);
      s.setString(2, key);
      s.setString(3, value);
      s.executeUpdate();
    }
  }

  private static void requireDataset(Path file, String dataset, Connection c)
      throws SQLException {
    if (!datasetExists(c, dataset)) {
      throw new IllegalArgumentException("no dataset \"" + dataset + "\" in the privacy ledger "
          + file + " (create it with tradeoff ledger create --dataset " + dataset + ")");
    }
  }

  /** A ledger of an earlier schema (1 or 2), migrated when it is opened. */
  private static boolean isOld(Connection c) throws SQLException {
    long version = queryLong(c, "PRAGMA user_version");
    return queryLong(c, "PRAGMA application_id") == APPLICATION_ID
        && (version == 1 || version == 2);
  }

  /**
   * Migrates a ledger of schema version 1 or 2 to version 3 inside the caller's write
   * transaction: its one budget becomes dataset {@value PrivacyLedger#DEFAULT_DATASET} (whose
   * genesis is the single-budget ledger's, so a version-2 chain is kept as it is); a version-1
   * ledger's entries are first rebuilt as version 2 did ({@link #migrateV1Entries}).
   */
  private static void migrateIfOld(Path file, Connection c) throws SQLException {
    if (!isOld(c)) {
      return;
    }
    String check = queryString(c, "PRAGMA quick_check");
    if (!"ok".equals(check)) {
      throw damaged(file.toString(), "SQLite integrity check failed: " + check, null);
    }
    boolean v1 = queryLong(c, "PRAGMA user_version") == 1;
    execute(c, "ALTER TABLE tradeoff_ledger RENAME TO tradeoff_ledger_old");
    execute(c, CREATE_HEADER);
    execute(c, "INSERT INTO tradeoff_ledger (dataset, key, value) SELECT '" + DEFAULT_DATASET
        + "', key, value FROM tradeoff_ledger_old");
    execute(c, "DROP TABLE tradeoff_ledger_old");
    if (v1) {
      migrateV1Entries(file, c);
    } else {
      execute(c, "ALTER TABLE tradeoff_charges RENAME TO tradeoff_charges_old");
      execute(c, CREATE_CHARGES);
      execute(c, "INSERT INTO tradeoff_charges (" + ENTRY_COLUMNS + ", dataset) SELECT "
          + ENTRY_COLUMNS + ", '" + DEFAULT_DATASET + "' FROM tradeoff_charges_old");
      // ids are never reused: the new table continues the old one's sequence
      execute(c, "UPDATE sqlite_sequence SET seq = (SELECT seq FROM sqlite_sequence WHERE name"
          + " = 'tradeoff_charges_old') WHERE name = 'tradeoff_charges'");
      execute(c, "DROP TABLE tradeoff_charges_old");
    }
    putMeta(c, DEFAULT_DATASET, "schema_version", Integer.toString(SCHEMA_VERSION));
    execute(c, "PRAGMA user_version = " + SCHEMA_VERSION);
  }

  /**
   * Rebuilds a schema-version-1 ledger's entries (its header already moved to dataset {@value
   * PrivacyLedger#DEFAULT_DATASET}): they become opaque charges (filter {@code basic} in an (ε,
   * δ) ledger, whose policy becomes {@code basic:1}, the composition they were admitted by),
   * cancelled reservations were deleted in version 1 and stay gone, and the hash chain is built
   * over the migrated entries.
   */
  private static void migrateV1Entries(Path file, Connection c) throws SQLException {
    Header v1;
    try {
      v1 = readHeaderV1(c);
    } catch (IllegalArgumentException e) {
      throw damaged(file.toString(), e.getMessage(), e);
    }
    boolean approx = v1.coordinates().kind() == GuaranteeKind.APPROX_DP;
    LedgerPolicy policy = approx
        ? LedgerPolicy.only(FilterKind.BASIC, (ApproxDp) v1.coordinates().budget()) : null;
    putMeta(c, DEFAULT_DATASET, "entry_format", Integer.toString(EntryDescription.FORMAT));
    putMeta(c, DEFAULT_DATASET, "policy", policy == null ? "" : policy.text());
    putMeta(c, DEFAULT_DATASET, "rdp_orders",
        policy == null ? "" : Coordinates.encode(policy.orders()));
    putMeta(c, DEFAULT_DATASET, "event_delta",
        policy == null ? "" : Double.toString(policy.eventDelta()));
    String genesis = genesis(meta(c, DEFAULT_DATASET), DEFAULT_DATASET);
    putMeta(c, DEFAULT_DATASET, "genesis", genesis);
    execute(c, "ALTER TABLE tradeoff_charges RENAME TO tradeoff_charges_v1");
    execute(c, CREATE_CHARGES);
    String head = genesis;
    List<Object[]> rows = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id, label, kind,"
        + " status, reserved, charged, reserved_at, committed_at, process_id"
        + " FROM tradeoff_charges_v1 ORDER BY id")) {
      while (r.next()) {
        long committed = r.getLong(8);
        Long committedAt = r.wasNull() ? null : committed;
        rows.add(new Object[] {r.getLong(1), r.getString(2), r.getString(3), r.getString(4),
            r.getString(5), r.getString(6), r.getLong(7), committedAt, r.getLong(9)});
      }
    }
    SqliteLedger reader = new SqliteLedger(file, DEFAULT_DATASET, v1);
    for (Object[] row : rows) {
      long id = (Long) row[0];
      double[] reserved;
      try {
        reserved = Coordinates.decode((String) row[4], v1.coordinates().size());
      } catch (IllegalArgumentException e) {
        throw damaged(file.toString(), "entry #" + id + ": " + e.getMessage(), e);
      }
      PrivacyGuarantee g = v1.coordinates().guarantee(reserved);
      EntryDescription d = approx
          ? new EntryDescription(FilterKind.BASIC, null, (ApproxDp) g, null, null, null)
          : reader.plain(g);
      String json = d.toJson();
      String filter = approx ? FilterKind.BASIC.cliName() : null;
      String hash = HashChain.hash(head, entryBytes(id, (String) row[1], (String) row[2], filter,
          (String) row[4], (Long) row[6], (Long) row[8], json));
      String settle = row[7] == null ? null : HashChain.hash(hash,
          settlementBytes((String) row[3], (String) row[5], (Long) row[7]));
      try (PreparedStatement s = c.prepareStatement(INSERT_ENTRY)) {
        s.setLong(1, id);
        s.setString(2, (String) row[1]);
        s.setString(3, (String) row[2]);
        s.setString(4, (String) row[3]);
        s.setString(5, (String) row[4]);
        s.setString(6, (String) row[5]);
        s.setLong(7, (Long) row[6]);
        if (row[7] == null) {
          s.setNull(8, java.sql.Types.INTEGER);
        } else {
          s.setLong(8, (Long) row[7]);
        }
        s.setLong(9, (Long) row[8]);
        s.setString(10, filter);
        s.setString(11, json);
        s.setString(12, hash);
        s.setString(13, settle);
        s.setString(14, DEFAULT_DATASET);
        s.executeUpdate();
      }
      head = hash;
    }
    execute(c, "DROP TABLE tradeoff_charges_v1");
    putMeta(c, DEFAULT_DATASET, "head_hash", head);
  }

  private static Header readHeaderV1(Connection c) throws SQLException {
    String magic = meta(c, DEFAULT_DATASET).get("magic");
    if (!MAGIC.equals(magic)) {
      throw new IllegalArgumentException("wrong magic \"" + magic + "\"");
    }
    return new Header(readBudget(meta(c, DEFAULT_DATASET)), null, null);
  }

  /**
   * Checks that {@code c} is a ledger of this schema version holding {@code dataset}, that the
   * dataset's header matches its genesis hash and that every entry is where the hash chain says;
   * reads its budget and policy.
   */
  private static Header validate(Path file, String dataset, Connection c) throws SQLException {
    checkFormat(file, c);
    requireDataset(file, dataset, c);
    Header header = parseHeader(meta(c, dataset), dataset, where(file, dataset));
    new SqliteLedger(file, dataset, header).checkChain(c, header.genesis());
    return header;
  }

  /** The SQLite file's own marks and its integrity ({@code quick_check}, which reads it all). */
  private static void checkFormat(Path file, Connection c) throws SQLException {
    checkMarks(file, c);
    checkIntegrity(file, c);
  }

  private static void checkIntegrity(Path file, Connection c) throws SQLException {
    String check = queryString(c, "PRAGMA quick_check");
    if (!"ok".equals(check)) {
      throw damaged(file.toString(), "SQLite integrity check failed: " + check, null);
    }
  }

  /** The SQLite file's own marks: application id, schema version, tables. */
  private static void checkMarks(Path file, Connection c) throws SQLException {
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
          + Shown.value(tables.toString()) + "); refusing to use it");
    }
    long version = queryLong(c, "PRAGMA user_version");
    if (version != SCHEMA_VERSION) {
      throw new LedgerFormatException(file + " is a Tradeoff privacy ledger of schema version "
          + version + ", but this version of Tradeoff reads only versions 1 and 2 (migrated) and "
          + SCHEMA_VERSION + "; refusing to use it");
    }
    long tables = queryLong(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name"
        + " IN ('tradeoff_ledger', 'tradeoff_charges')");
    if (tables != 2) {
      throw new LedgerFormatException(file + " is not a Tradeoff privacy ledger: it carries the"
          + " ledger's application_id and schema version but not its tables (tradeoff_ledger,"
          + " tradeoff_charges); refusing to use it");
    }
  }

  private static RuntimeException translate(Path file, SQLException e) {
    if (e instanceof SQLiteException s) {
      int code = s.getErrorCode() & 0xff;
      if (code == SQLiteErrorCode.SQLITE_NOTADB.code) {
        return new LedgerFormatException(
            file + " is not a Tradeoff privacy ledger: it is not an SQLite database", e);
      }
      if (code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
        return damaged(file.toString(), s.getMessage(), e);
      }
      if (code == SQLiteErrorCode.SQLITE_READONLY.code || code == SQLiteErrorCode.SQLITE_PERM.code) {
        return new IllegalArgumentException("privacy ledger " + file + " is read-only (the file or"
            + " its directory, where SQLite writes its journal, cannot be written)", e);
      }
      if (code == SQLiteErrorCode.SQLITE_FULL.code || code == SQLiteErrorCode.SQLITE_IOERR.code) {
        return new IllegalArgumentException("cannot write the ledger at " + file + " ("
            + (code == SQLiteErrorCode.SQLITE_FULL.code ? "the disk is full"
                : "an input/output error: " + s.getResultCode()) + ")", e);
      }
      if (code == SQLiteErrorCode.SQLITE_CANTOPEN.code) {
        return new IllegalArgumentException("cannot open privacy ledger " + file + ": its"
            + " directory must exist and be writable", e);
      }
    }
    return new IllegalStateException("privacy ledger " + file + ": " + e.getMessage(), e);
  }
}
