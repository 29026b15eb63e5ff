package dev.tradeoff.ledger;

import dev.tradeoff.accounting.Require;
import dev.tradeoff.accounting.Shown;
import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.conversion.RdpConversion;
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
import java.util.Map;
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
 * <p><b>Format.</b> The file carries SQLite's {@code application_id} {@value #APPLICATION_ID_HEX},
 * {@code user_version} {@value #SCHEMA_VERSION} and a {@code tradeoff_ledger} table holding a magic
 * string, the budget and (for an (ε, δ) budget) the {@link LedgerPolicy}; every entry stores an
 * {@link EntryDescription} (docs/ledger.md). A file that is not SQLite, belongs to another
 * application, has an unknown schema version or fails SQLite's {@code quick_check} is refused with
 * a {@link LedgerFormatException} and left untouched. A version-1 ledger is migrated to version 2 in
 * one transaction when it is opened: its entries become opaque charges of the basic filter, which
 * gets the whole budget (the composition it was admitted under).
 *
 * <p><b>Filters.</b> An (ε, δ) budget is spent through the filters of its {@link LedgerPolicy}
 * (GDP, RDP, basic, advanced composition, ex-post RDP; {@link FilterKind}), each valid under fully
 * adaptive composition. Ex-post requests are reserved at their worst case and committed at their
 * realised ε̃ ({@link #reserve}, {@link #commit}). Pure-DP and
 * Rényi-DP budgets sum their charges coordinate by coordinate as before.
 *
 * <p><b>Tamper evidence.</b> Entries form a SHA-256 hash chain rooted in the header ({@link
 * HashChain}); every open and every write checks the whole chain, so a ledger whose chain is broken,
 * whose recorded budget or policy was edited, or whose last entries were deleted is refused with
 * one line and nothing is charged. The chain has no secret: it detects edits, not an editor who
 * recomputes it; record {@link #verify()}'s head hash elsewhere to pin the history.
 */
public final class SqliteLedger implements BudgetStore {

  /** The value of SQLite's {@code application_id} header field in a ledger: "TrdL". */
  public static final int APPLICATION_ID = 0x5472644C;

  static final String APPLICATION_ID_HEX = "0x5472644C";

  /** The schema version this class reads and writes ({@code user_version}). */
  public static final int SCHEMA_VERSION = 2;

  static final String MAGIC = "tradeoff-privacy-ledger";
  static final int BUSY_TIMEOUT_MS = 60_000;
  private static final int MAX_LABEL_LENGTH = 1000;

  private final Path file;
  private final Coordinates coordinates;
  private final Filters filters;

  private SqliteLedger(Path file, Header header) {
    this.file = file;
    this.coordinates = header.coordinates;
    this.filters = header.policy == null ? null
        : new Filters((ApproxDp) header.coordinates.budget(), header.policy);
  }

  /** A ledger's header as read: its budget and, for an (ε, δ) budget, its policy. */
  private record Header(Coordinates coordinates, LedgerPolicy policy, String genesis) {}

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
    Require.nonNull("budget", budget);
    return openOrCreate(file, budget, budget instanceof ApproxDp a
        ? LedgerPolicy.only(FilterKind.BASIC, a) : null);
  }

  /**
   * Opens the ledger at {@code file}, creating it with an (ε, δ) {@code budget} spent through the
   * filters of {@code policy} if the file does not exist or is empty. An existing ledger keeps the
   * budget and policy it was created with (it must have this budget; its policy is its own).
   *
   * @throws LedgerFormatException if the file is not a usable ledger
   * @throws IllegalArgumentException if the existing ledger has another budget
   */
  public static SqliteLedger create(Path file, ApproxDp budget, LedgerPolicy policy) {
    Require.nonNull("budget", budget);
    Require.nonNull("policy", policy);
    if (policy.has(FilterKind.EXPOST) && new Filters(budget, policy).exPostLimit() <= 0) {
      throw new IllegalArgumentException("expost order " + policy.exPostOrder() + " leaves the"
          + " expost share of " + budget + " no Renyi budget (the conversion to its delta costs"
          + " more than its epsilon): choose a larger order");
    }
    return openOrCreate(file, budget, policy);
  }

  private static SqliteLedger openOrCreate(Path file, PrivacyGuarantee budget,
      LedgerPolicy policy) {
    Require.nonNull("file", file);
    Coordinates wanted = Coordinates.ofBudget(budget);
    Path absolute = file.toAbsolutePath();
    try (Connection c = connect(absolute)) {
      Header existing = inTransaction(c, "BEGIN IMMEDIATE", () -> {
        if (isEmptyDatabase(c)) {
          initialise(c, wanted, policy);
        } else {
          migrateIfOld(absolute, c);
        }
        return validate(absolute, c);
      });
      if (!sameBudget(existing.coordinates, wanted)) {
        throw new IllegalArgumentException(
            "ledger "
                + absolute
                + " was created with budget "
                + existing.coordinates.budget()
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
      boolean old = inTransaction(c, "BEGIN", () -> queryLong(c, "PRAGMA application_id")
          == APPLICATION_ID && queryLong(c, "PRAGMA user_version") == 1);
      Header existing = inTransaction(c, old ? "BEGIN IMMEDIATE" : "BEGIN", () -> {
        migrateIfOld(absolute, c);
        return validate(absolute, c);
      });
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

  /**
   * Admits a request at its worst-case cost and durably charges that cost. In an (ε, δ) ledger a
   * one-order {@link RenyiDp} worst case at the order of the policy's ex-post filter is an ex-post
   * request ([ExPost25, Algorithm 4]): admitted if the realised ε̃ of the earlier ex-post entries
   * plus this sup ε̃ fits the filter's bound, and {@link #commit} then settles it at the realised
   * ε̃(o) (a one-order {@link RenyiDp} at that order). Any other worst case in an (ε, δ) ledger is
   * an opaque (ε, δ) reservation of the basic or advanced filter.
   */
  @Override
  public Reservation reserve(String label, PrivacyGuarantee worstCase) {
    if (filters != null && worstCase instanceof RenyiDp r) {
      return reserveExPost(checkLabel(label), r);
    }
    String l = checkLabel(label);
    double[] request = coordinates.read("worstCase", worstCase);
    PrivacyGuarantee requested = coordinates.guarantee(request);
    Instant now = now();
    EntryDescription d = filters == null ? plain(requested)
        : filters.describe(Charge.opaque((ApproxDp) requested), null);
    long id = insertIfItFits(l, requested, request, d, EntryStatus.RESERVED, now, null);
    return new Reservation(id, l, requested, now);
  }

  private Reservation reserveExPost(String label, RenyiDp worstCase) {
    double alpha = filters.policy().exPostOrder();
    if (worstCase.size() != 1 || worstCase.order(0) != alpha) {
      throw new IllegalArgumentException("worstCase must be an ex-post RDP bound at this ledger's"
          + " ex-post order " + (Double.isNaN(alpha) ? "(it has no expost filter: "
              + filters.policy().text() + ")" : Double.toString(alpha)) + ", but was " + worstCase);
    }
    double sup = worstCase.epsilon(0);
    if (!Double.isFinite(sup)) {
      throw new IllegalArgumentException("worstCase must be finite, but was " + worstCase);
    }
    double delta = filters.policy().eventDelta();
    ApproxDp exAnte = new ApproxDp(Math.min(Double.MAX_VALUE,
        Math.nextUp(RdpConversion.improvedEpsilon(alpha, sup, delta))), delta);
    EntryDescription d = new EntryDescription(FilterKind.EXPOST, null, exAnte, null, worstCase,
        null);
    Instant now = now();
    long id = insertIfItFits(label, worstCase, new double[] {sup, 0}, d, EntryStatus.RESERVED,
        now, null);
    return new Reservation(id, label, worstCase, now);
  }

  /**
   * Settles a reservation at its realised cost. An ex-post reservation ({@link #reserve} with a
   * one-order {@link RenyiDp}) is settled at the realised ε̃(o), a one-order {@link RenyiDp} at the
   * same order.
   */
  @Override
  public LedgerEntry commit(Reservation reservation, PrivacyGuarantee realised) {
    Require.nonNull("reservation", reservation);
    Instant now = now();
    return write(c -> {
      LedgerEntry open = openReservation(c, reservation);
      boolean exPost = open.reserved() instanceof RenyiDp && filters != null;
      double[] cost = exPost ? exPostAmount("realised", realised)
          : coordinates.read("realised", realised);
      double[] reserved = exPost ? exPostAmount("reserved", open.reserved())
          : coordinates.read("reserved", open.reserved());
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
      settle(c, open.id(), EntryStatus.COMMITTED, Coordinates.encode(cost), now);
      return new LedgerEntry(open.id(), open.label(), coordinates.kind(), EntryStatus.COMMITTED,
          open.reserved(), exPost ? realised : coordinates.guarantee(cost), open.reservedAt(), now,
          open.processId());
    });
  }

  /** An ex-post amount as stored: (ε̃ at the ex-post order, 0). */
  private double[] exPostAmount(String name, PrivacyGuarantee g) {
    double alpha = filters.policy().exPostOrder();
    if (!(g instanceof RenyiDp r) || r.size() != 1 || r.order(0) != alpha) {
      throw new IllegalArgumentException(name + " of an ex-post reservation must be a Renyi DP"
          + " bound at order " + alpha + ", but was " + g);
    }
    return new double[] {r.epsilon(0), 0};
  }

  @Override
  public void cancel(Reservation reservation) {
    Require.nonNull("reservation", reservation);
    write(c -> {
      LedgerEntry open = openReservation(c, reservation);
      settle(c, open.id(), EntryStatus.CANCELLED, Coordinates.encode(
          open.reserved() instanceof RenyiDp && filters != null
              ? exPostAmount("reserved", open.reserved())
              : coordinates.read("reserved", open.reserved())), now());
      return null;
    });
  }

  @Override
  public LedgerEntry charge(String label, PrivacyGuarantee cost) {
    String l = checkLabel(label);
    double[] amount = coordinates.read("cost", cost);
    PrivacyGuarantee requested = coordinates.guarantee(amount);
    if (filters != null) {
      return charge(l, Charge.opaque((ApproxDp) requested), null);
    }
    Instant now = now();
    long id = insertIfItFits(l, requested, amount, plain(requested), EntryStatus.COMMITTED, now,
        now);
    return new LedgerEntry(id, l, coordinates.kind(), EntryStatus.COMMITTED, requested, requested,
        now, now, ProcessHandle.current().pid());
  }

  /**
   * Charges a release by its description: the tightest filter of the ledger's policy that takes it
   * admits it (a Gaussian event by its GDP μ, an event with an RDP curve by that curve, anything
   * else by its (ε, δ)), and the entry records the event, μ, curve and (ε, δ).
   *
   * @throws BudgetExceededException if the filter refuses it; nothing is charged
   * @throws IllegalArgumentException if this is not an (ε, δ) ledger or no filter takes it
   */
  @Override
  public LedgerEntry charge(String label, Charge charge) {
    return charge(label, charge, null);
  }

  /** {@link #charge(String, Charge)}, recording the command line that made it. */
  public LedgerEntry charge(String label, Charge charge, String commandLine) {
    String l = checkLabel(label);
    Require.nonNull("charge", charge);
    Filters f = requireFilters();
    EntryDescription d = f.describe(charge, commandLine);
    double[] amount = {d.approxDp().epsilon(), d.approxDp().delta()};
    Instant now = now();
    long id = insertIfItFits(l, d.approxDp(), amount, d, EntryStatus.COMMITTED, now, now);
    return new LedgerEntry(id, l, coordinates.kind(), EntryStatus.COMMITTED, d.approxDp(),
        d.approxDp(), now, now, ProcessHandle.current().pid());
  }

  /**
   * How many of {@code charge} (up to {@code max}), charged now as one entry of their composition,
   * the ledger would admit: the largest k ≤ max such that a charge of k releases fits. Charges
   * nothing. GDP and RDP charges are priced in closed form (μ·√k; k times the curve), so any k is
   * cheap; the count is found by doubling, then bisection.
   */
  public int fits(Charge charge, int max) {
    Require.nonNull("charge", charge);
    Require.positive("max", max);
    Filters f = requireFilters();
    Filters.State state = read(c -> f.state(counted(c)));
    java.util.function.IntPredicate admits = k -> {
      try {
        return f.admitsRepeated(state, charge, k);
      } catch (IllegalArgumentException e) {
        return false;
      }
    };
    int lo = 0;
    long probe = 1;
    while (probe <= max && admits.test((int) probe)) {
      lo = (int) probe;
      probe *= 2;
    }
    int hi = (int) Math.min(max, probe - 1);
    while (lo < hi) {
      int mid = lo + (hi - lo + 1) / 2;
      if (admits.test(mid)) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  /** The ex-post filter's order when the policy has one, else {@link BudgetStore}'s default. */
  @Override
  public java.util.OptionalDouble exPostOrder() {
    return filters != null && filters.policy().has(FilterKind.EXPOST)
        ? java.util.OptionalDouble.of(filters.policy().exPostOrder())
        : BudgetStore.super.exPostOrder();
  }

  /**
   * What the ex-post filter has left: the bound B minus the realised ε̃ of committed and the sup ε̃
   * of open ex-post entries, at the filter's order, rounded down.
   *
   * @throws IllegalArgumentException if the ledger has no ex-post filter
   */
  public RenyiDp exPostRemaining() {
    Filters f = requireFilters();
    if (!f.policy().has(FilterKind.EXPOST)) {
      throw new IllegalArgumentException("ledger " + file + " has no expost filter ("
          + f.policy().text() + ")");
    }
    return RenyiDp.ofOrder(f.policy().exPostOrder(),
        read(c -> f.state(counted(c)).exPostRemaining()));
  }

  /** The filter {@code charge} would go to and its description, without charging it. */
  public EntryDescription describe(Charge charge) {
    return requireFilters().describe(charge, null);
  }

  /** The policy of an (ε, δ) ledger; empty for pure-DP and Rényi-DP ledgers. */
  public java.util.Optional<LedgerPolicy> policy() {
    return java.util.Optional.ofNullable(filters == null ? null : filters.policy());
  }

  /**
   * What each filter has left (JSON-ready): per filter its share, sub-budget and remaining room
   * (GDP: μ; RDP: room at each order and the orders still alive; basic: (ε, δ)).
   */
  public Map<String, Object> remainingByFilter() {
    Filters f = requireFilters();
    return read(c -> f.state(counted(c)).remaining());
  }

  /** Every entry with its description and hash, cancelled ones too, oldest first. */
  public List<LedgerRecord> history() {
    return read(c -> {
      List<LedgerRecord> out = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery(SELECT_ENTRY + " ORDER BY id")) {
        while (r.next()) {
          out.add(new LedgerRecord(entry(r), description(r), r.getString("hash")));
        }
      }
      return List.copyOf(out);
    });
  }

  /**
   * Checks the whole file: schema version, header (budget, policy) against its hash, every
   * entry's hash and settlement hash, and the head. Returns the head hash and entry count.
   *
   * @throws LedgerFormatException naming the first problem found
   */
  public Verification verify() {
    return read(c -> {
      validate(file, c);
      return new Verification(meta(c, "head_hash"), queryLong(c,
          "SELECT count(*) FROM tradeoff_charges"));
    });
  }

  /** A verified ledger's head: the hash of its newest entry (or the genesis) and its size. */
  public record Verification(String headHash, long entries) {}

  /** An entry, what it recorded about its release and its place in the hash chain. */
  public record LedgerRecord(LedgerEntry entry, EntryDescription description, String hash) {}

  private Filters requireFilters() {
    if (filters == null) {
      throw new IllegalArgumentException("ledger " + file + " has a " + coordinates.kind()
          + " budget; charges by description need an (epsilon, delta) budget");
    }
    return filters;
  }

  private EntryDescription plain(PrivacyGuarantee g) {
    return new EntryDescription(null, null, g instanceof PureDp p ? new ApproxDp(p.epsilon(), 0)
        : g instanceof ApproxDp a ? a : null, null, null, null);
  }

  /**
   * In one write transaction: refuses with {@link BudgetExceededException} if the charge does not
   * fit next to the recorded charges, otherwise inserts it with {@code status}; the new id.
   */
  private long insertIfItFits(String label, PrivacyGuarantee requested, double[] amount,
      EntryDescription description, EntryStatus status, Instant reservedAt, Instant committedAt) {
    return write(c -> {
      if (filters != null) {
        Filters.State state = filters.state(counted(c));
        EntryDescription routed = state.route(description);
        if (!state.admits(routed)) {
          throw new BudgetExceededException(label, requested, routed.filter() == FilterKind.EXPOST
              ? RenyiDp.ofOrder(filters.policy().exPostOrder(), state.exPostRemaining())
              : state.basicRemaining());
        }
        return insert(c, label, status, amount, amount, routed, reservedAt, committedAt);
      } else {
        List<double[]> charges = charges(c);
        if (!coordinates.fits(charges, amount)) {
          throw new BudgetExceededException(
              label, requested, coordinates.guarantee(coordinates.remaining(charges)));
        }
      }
      return insert(c, label, status, amount, amount, description, reservedAt, committedAt);
    });
  }

  /** The counted charges of an (ε, δ) ledger, in id order. */
  private List<Filters.Counted> counted(Connection c) throws SQLException {
    List<Filters.Counted> out = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery(SELECT_ENTRY + " WHERE status <> 'CANCELLED' ORDER BY id")) {
      while (r.next()) {
        EntryDescription d = description(r);
        double[] charged = Coordinates.decode(r.getString("charged"), 2);
        out.add(new Filters.Counted(d, charged[0], charged[1]));
      }
    }
    return out;
  }

  private EntryDescription description(ResultSet r) throws SQLException {
    long id = r.getLong("id");
    try {
      EntryDescription d = EntryDescription.fromJson(r.getString("description"));
      String filter = r.getString("filter");
      if (!java.util.Objects.equals(filter, d.filter() == null ? null : d.filter().cliName())) {
        throw new IllegalArgumentException("filter column and description disagree");
      }
      if (filters != null && (d.filter() == null
          || (d.filter() == FilterKind.GDP && d.gdpMu() == null)
          || (d.filter() == FilterKind.RDP && d.rdp() == null)
          || (d.filter() == FilterKind.EXPOST && (d.rdp() == null || d.rdp().size() != 1)))) {
        throw new IllegalArgumentException("description incomplete for its filter");
      }
      return d;
    } catch (IllegalArgumentException e) {
      throw damaged(file, "entry #" + id + ": " + e.getMessage(), e);
    }
  }

  /** Settles (commits or cancels) entry {@code id}, extending its hash with the settlement. */
  private void settle(Connection c, long id, EntryStatus status, String charged, Instant at)
      throws SQLException {
    String hash;
    try (PreparedStatement s = c.prepareStatement("SELECT hash FROM tradeoff_charges WHERE id = ?")) {
      s.setLong(1, id);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        hash = r.getString(1);
      }
    }
    try (PreparedStatement s = c.prepareStatement("UPDATE tradeoff_charges SET status = ?,"
        + " charged = ?, committed_at = ?, settle_hash = ? WHERE id = ?")) {
      s.setString(1, status.name());
      s.setString(2, charged);
      s.setLong(3, at.toEpochMilli());
      s.setString(4, HashChain.hash(hash, settlementBytes(status.name(), charged, at.toEpochMilli())));
      s.setLong(5, id);
      s.executeUpdate();
    }
  }

  private static String settlementBytes(String status, String charged, long committedAt) {
    return HashChain.canonical("settlement", status, charged, committedAt);
  }

  private static String entryBytes(long id, String label, String kind, String filter,
      String reserved, long reservedAt, long processId, String description) {
    return HashChain.canonical("entry", id, label, kind, filter, reserved, reservedAt, processId,
        description);
  }

  /**
   * Pure-DP and Rényi-DP ledgers: the sum of the charges, rounded up. (ε, δ) ledgers: the budget
   * minus {@link #remaining()}, rounded up (with a basic-only policy, the sum of the charges).
   */
  @Override
  public PrivacyGuarantee spent() {
    if (filters != null) {
      ApproxDp b = (ApproxDp) coordinates.budget();
      ApproxDp r = (ApproxDp) remaining();
      return new ApproxDp(upDiff(b.epsilon(), r.epsilon()), upDiff(b.delta(), r.delta()));
    }
    return coordinates.guarantee(coordinates.spent(read(this::charges)));
  }

  /**
   * Pure-DP and Rényi-DP ledgers: budget minus charges, rounded down. (ε, δ) ledgers: the largest
   * opaque (ε, δ) charge the ledger would still admit, i.e. what its basic filter has left ((0, 0)
   * if its policy has no basic share); {@link #remainingByFilter()} tells what every filter has
   * left.
   */
  @Override
  public PrivacyGuarantee remaining() {
    if (filters != null) {
      return read(c -> filters.state(counted(c)).basicRemaining());
    }
    return coordinates.guarantee(coordinates.remaining(read(this::charges)));
  }

  private static double upDiff(double a, double b) {
    java.math.BigDecimal x = new java.math.BigDecimal(a).subtract(new java.math.BigDecimal(b));
    if (x.signum() <= 0) {
      return 0;
    }
    double d = x.doubleValue();
    return new java.math.BigDecimal(d).compareTo(x) < 0 ? Math.nextUp(d) : d;
  }

  @Override
  public List<LedgerEntry> entries() {
    return read(c -> {
      List<LedgerEntry> out = new ArrayList<>();
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery(
              SELECT_ENTRY + " WHERE status <> 'CANCELLED' ORDER BY id")) {
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
      "SELECT id, label, kind, status, reserved, charged, reserved_at, committed_at, process_id,"
          + " filter, description, hash, settle_hash FROM tradeoff_charges";

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
      return inTransaction(c, "BEGIN IMMEDIATE", () -> {
        // A ledger edited since it was opened is refused before anything is written.
        validate(file, c);
        return work.run(c);
      });
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

  private static boolean isEmptyDatabase(Connection c) throws SQLException {
    return queryLong(c, "PRAGMA application_id") == 0
        && queryLong(c, "SELECT count(*) FROM sqlite_master") == 0;
  }

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
      + " settle_hash TEXT)";

  private static void initialise(Connection c, Coordinates budget, LedgerPolicy policy)
      throws SQLException {
    execute(c, "PRAGMA application_id = " + APPLICATION_ID);
    execute(c, "PRAGMA user_version = " + SCHEMA_VERSION);
    execute(c, "CREATE TABLE tradeoff_ledger (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    execute(c, CREATE_CHARGES);
    String[][] rows = {
      {"magic", MAGIC},
      {"schema_version", Integer.toString(SCHEMA_VERSION)},
      {"entry_format", Integer.toString(EntryDescription.FORMAT)},
      {"kind", budget.kind().name()},
      {"orders", Coordinates.encode(budget.orders())},
      {"budget", Coordinates.encode(budget.read("budget", budget.budget()))},
      {"policy", policy == null ? "" : policy.text()},
      {"rdp_orders", policy == null ? "" : Coordinates.encode(policy.orders())},
      {"event_delta", policy == null ? "" : Double.toString(policy.eventDelta())},
      {"created_at", now().toString()}
    };
    try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_ledger VALUES (?, ?)")) {
      for (String[] row : rows) {
        s.setString(1, row[0]);
        s.setString(2, row[1]);
        s.executeUpdate();
      }
    }
    String genesis = genesis(c);
    putMeta(c, "genesis", genesis);
    putMeta(c, "head_hash", genesis);
  }

  private static void putMeta(Connection c, String key, String value) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "INSERT OR REPLACE INTO tradeoff_ledger VALUES (?, ?)")) {
      s.setString(1, key);
      s.setString(2, value);
      s.executeUpdate();
    }
  }

  /** The hash of the header fields that must never change (budget, policy, creation). */
  private static String genesis(Connection c) throws SQLException {
    return HashChain.hash("tradeoff-ledger-genesis", HashChain.canonical(meta(c, "magic"),
        meta(c, "entry_format"), meta(c, "kind"), meta(c, "orders"), meta(c, "budget"),
        meta(c, "policy"), meta(c, "rdp_orders"), meta(c, "event_delta"), meta(c, "created_at")));
  }

  /**
   * Migrates a schema-version-1 ledger to version 2 inside the caller's write transaction: its
   * entries become opaque charges (filter {@code basic} in an (ε, δ) ledger, whose policy becomes
   * {@code basic:1}, the composition they were admitted by), cancelled reservations were deleted
   * in version 1 and stay gone, and the hash chain is built over the migrated entries.
   */
  private static void migrateIfOld(Path file, Connection c) throws SQLException {
    if (queryLong(c, "PRAGMA application_id") != APPLICATION_ID
        || queryLong(c, "PRAGMA user_version") != 1) {
      return;
    }
    String check = queryString(c, "PRAGMA quick_check");
    if (!"ok".equals(check)) {
      throw damaged(file, "SQLite integrity check failed: " + check, null);
    }
    Header v1;
    try {
      v1 = readHeaderV1(c);
    } catch (IllegalArgumentException e) {
      throw damaged(file, e.getMessage(), e);
    }
    boolean approx = v1.coordinates.kind() == GuaranteeKind.APPROX_DP;
    LedgerPolicy policy = approx
        ? LedgerPolicy.only(FilterKind.BASIC, (ApproxDp) v1.coordinates.budget()) : null;
    putMeta(c, "entry_format", Integer.toString(EntryDescription.FORMAT));
    putMeta(c, "schema_version", Integer.toString(SCHEMA_VERSION));
    putMeta(c, "policy", policy == null ? "" : policy.text());
    putMeta(c, "rdp_orders", policy == null ? "" : Coordinates.encode(policy.orders()));
    putMeta(c, "event_delta", policy == null ? "" : Double.toString(policy.eventDelta()));
    String genesis = genesis(c);
    putMeta(c, "genesis", genesis);
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
    SqliteLedger reader = new SqliteLedger(file, v1);
    for (Object[] row : rows) {
      long id = (Long) row[0];
      double[] reserved;
      try {
        reserved = Coordinates.decode((String) row[4], v1.coordinates.size());
      } catch (IllegalArgumentException e) {
        throw damaged(file, "entry #" + id + ": " + e.getMessage(), e);
      }
      PrivacyGuarantee g = v1.coordinates.guarantee(reserved);
      EntryDescription d = approx
          ? new EntryDescription(FilterKind.BASIC, null, (ApproxDp) g, null, null, null)
          : reader.plain(g);
      String json = d.toJson();
      String filter = approx ? FilterKind.BASIC.cliName() : null;
      String hash = HashChain.hash(head, entryBytes(id, (String) row[1], (String) row[2], filter,
          (String) row[4], (Long) row[6], (Long) row[8], json));
      String settle = row[7] == null ? null : HashChain.hash(hash,
          settlementBytes((String) row[3], (String) row[5], (Long) row[7]));
      try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_charges (id, label,"
          + " kind, status, reserved, charged, reserved_at, committed_at, process_id, filter,"
          + " description, hash, settle_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
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
        s.executeUpdate();
      }
      head = hash;
    }
    execute(c, "DROP TABLE tradeoff_charges_v1");
    putMeta(c, "head_hash", head);
    execute(c, "PRAGMA user_version = " + SCHEMA_VERSION);
  }

  private static Header readHeaderV1(Connection c) throws SQLException {
    String magic = meta(c, "magic");
    if (!MAGIC.equals(magic)) {
      throw new IllegalArgumentException("wrong magic \"" + magic + "\"");
    }
    return new Header(readBudget(c), null, null);
  }

  private static Coordinates readBudget(Connection c) throws SQLException {
    GuaranteeKind kind = GuaranteeKind.valueOf(meta(c, "kind"));
    String orderText = meta(c, "orders");
    double[] orders = orderText.isEmpty() ? new double[0]
        : Arrays.stream(orderText.split(",")).mapToDouble(Double::parseDouble).toArray();
    int size = switch (kind) {
      case PURE_DP -> 1;
      case APPROX_DP -> 2;
      case RENYI_DP -> orders.length;
    };
    return Coordinates.of(kind, orders, Coordinates.decode(meta(c, "budget"), size));
  }

  /**
   * Checks that {@code c} is a ledger of this schema version, that its header matches its genesis
   * hash and that every entry is where the hash chain says; reads its budget and policy.
   */
  private static Header validate(Path file, Connection c) throws SQLException {
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
          + version + ", but this version of Tradeoff reads only versions 1 (migrated) and "
          + SCHEMA_VERSION + "; refusing to use it");
    }
    String check = queryString(c, "PRAGMA quick_check");
    if (!"ok".equals(check)) {
      throw damaged(file, "SQLite integrity check failed: " + check, null);
    }
    long tables = queryLong(c, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name"
        + " IN ('tradeoff_ledger', 'tradeoff_charges')");
    if (tables != 2) {
      throw new LedgerFormatException(file + " is not a Tradeoff privacy ledger: it carries the"
          + " ledger's application_id and schema version but not its tables (tradeoff_ledger,"
          + " tradeoff_charges); refusing to use it");
    }
    try {
      String magic = meta(c, "magic");
      if (!MAGIC.equals(magic)) {
        throw damaged(file, "wrong magic \"" + Shown.value(magic) + "\"", null);
      }
      if (!Integer.toString(EntryDescription.FORMAT).equals(meta(c, "entry_format"))) {
        throw damaged(file, "unknown entry format " + meta(c, "entry_format"), null);
      }
      String genesis = meta(c, "genesis");
      if (!genesis.equals(genesis(c))) {
        throw new LedgerFormatException(file + " is not a usable Tradeoff privacy ledger: its"
            + " recorded budget or policy was edited (the header does not match its genesis"
            + " hash); refusing to use it");
      }
      Coordinates budget = readBudget(c);
      String policyText = meta(c, "policy");
      LedgerPolicy policy = null;
      if (budget.kind() == GuaranteeKind.APPROX_DP) {
        String orderText = meta(c, "rdp_orders");
        double[] grid = Arrays.stream(orderText.split(",")).mapToDouble(Double::parseDouble)
            .toArray();
        policy = LedgerPolicy.parse(policyText, grid, Double.parseDouble(meta(c, "event_delta")));
      }
      Header header = new Header(budget, policy, genesis);
      SqliteLedger ledger = new SqliteLedger(file, header);
      String head = genesis;
      long count = 0;
      try (Statement s = c.createStatement();
          ResultSet r = s.executeQuery(SELECT_ENTRY + " ORDER BY id")) {
        while (r.next()) {
          long id = r.getLong("id");
          long committedAt = r.getLong("committed_at");
          Long committed = r.wasNull() ? null : committedAt;
          String expected = HashChain.hash(head, entryBytes(id, r.getString("label"),
              r.getString("kind"), r.getString("filter"), r.getString("reserved"),
              r.getLong("reserved_at"), r.getLong("process_id"), r.getString("description")));
          if (!expected.equals(r.getString("hash"))) {
            throw chainBroken(file, "entry #" + id + " does not match its hash"
                + (count == 0 ? "" : " or an entry before it was deleted"));
          }
          String status = r.getString("status");
          String settle = r.getString("settle_hash");
          if (committed == null ? settle != null || !"RESERVED".equals(status)
              : settle == null || !settle.equals(HashChain.hash(expected,
                  settlementBytes(status, r.getString("charged"), committed)))) {
            throw chainBroken(file, "entry #" + id + "'s settlement does not match its hash");
          }
          if ("RESERVED".equals(status)
              && !r.getString("charged").equals(r.getString("reserved"))) {
            throw chainBroken(file, "reservation #" + id + " is counted at less than reserved");
          }
          ledger.entry(r);
          ledger.description(r);
          head = expected;
          count++;
        }
      }
      if (!head.equals(meta(c, "head_hash"))) {
        throw chainBroken(file, "the newest entries were deleted (the chain ends before the"
            + " recorded head)");
      }
      return header;
    } catch (IllegalArgumentException e) {
      if (e instanceof LedgerFormatException f) {
        throw f;
      }
      throw damaged(file, e.getMessage(), e);
    }
  }

  private static LedgerFormatException chainBroken(Path file, String detail) {
    return new LedgerFormatException(file + " is not a usable Tradeoff privacy ledger: it is"
        + " damaged or was edited (hash chain broken: " + detail + "); refusing to use it");
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
        ResultSet r = s.executeQuery("SELECT id, charged FROM tradeoff_charges"
            + " WHERE status <> 'CANCELLED' ORDER BY id")) {
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
      boolean exPost = FilterKind.EXPOST.cliName().equals(r.getString("filter"));
      return new LedgerEntry(id, r.getString("label"), kind, status,
          exPost ? exPostGuarantee(reserved) : coordinates.guarantee(reserved),
          exPost ? exPostGuarantee(charged) : coordinates.guarantee(charged),
          Instant.ofEpochMilli(r.getLong("reserved_at")), committed, r.getLong("process_id"));
    } catch (IllegalArgumentException e) {
      throw damaged(file, "entry #" + id + ": " + e.getMessage(), e);
    }
  }

  private RenyiDp exPostGuarantee(double[] stored) {
    return RenyiDp.ofOrder(requireFilters().policy().exPostOrder(), stored[0]);
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
      double[] charged, EntryDescription description, Instant reservedAt, Instant committedAt)
      throws SQLException {
    // Ids are never reused (AUTOINCREMENT), so the next id is one past the largest ever issued.
    long id = queryLong(c, "SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name ="
        + " 'tradeoff_charges'), 0)") + 1;
    String head = meta(c, "head_hash");
    String kind = coordinates.kind().name();
    String filter = description.filter() == null ? null : description.filter().cliName();
    String json = description.toJson();
    String reservedText = Coordinates.encode(reserved);
    long pid = ProcessHandle.current().pid();
    String hash = HashChain.hash(head, entryBytes(id, label, kind, filter, reservedText,
        reservedAt.toEpochMilli(), pid, json));
    try (PreparedStatement s = c.prepareStatement("INSERT INTO tradeoff_charges (id, label, kind,"
        + " status, reserved, charged, reserved_at, committed_at, process_id, filter, description,"
        + " hash, settle_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      s.setLong(1, id);
      s.setString(2, label);
      s.setString(3, kind);
      s.setString(4, EntryStatus.RESERVED.name());
      s.setString(5, reservedText);
      s.setString(6, reservedText);
      s.setLong(7, reservedAt.toEpochMilli());
      s.setNull(8, java.sql.Types.INTEGER);
      s.setLong(9, pid);
      s.setString(10, filter);
      s.setString(11, json);
      s.setString(12, hash);
      s.setNull(13, java.sql.Types.VARCHAR);
      s.executeUpdate();
    }
    putMeta(c, "head_hash", hash);
    if (status == EntryStatus.COMMITTED) {
      settle(c, id, EntryStatus.COMMITTED, Coordinates.encode(charged), committedAt);
    }
    return id;
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
