package dev.tradeoff.ledger;

import dev.tradeoff.accounting.budget.BudgetExceededException;
import dev.tradeoff.accounting.budget.BudgetStore;
import dev.tradeoff.accounting.budget.Charge;
import dev.tradeoff.accounting.budget.EntryStatus;
import dev.tradeoff.accounting.budget.GuaranteeKind;
import dev.tradeoff.accounting.budget.LedgerEntry;
import dev.tradeoff.accounting.budget.Reservation;
import dev.tradeoff.accounting.conversion.RdpConversion;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.internal.Require;
import dev.tradeoff.accounting.internal.Shown;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

/**
 * A durable {@link BudgetStore} over SQL: the filters, the entry format and the hash chain of
 * docs/ledger.md, the same whichever database keeps them. {@link SqliteLedger} keeps one
 * machine's ledger in a file; {@link PostgresLedger} keeps a team's ledger, one budget per dataset,
 * in a PostgreSQL database shared across machines.
 *
 * <p><b>No overspending.</b> Every change runs in one write transaction that the store serialises
 * per budget (SQLite's write lock; a PostgreSQL advisory lock on the dataset): inside it the
 * recorded charges are read, the request is checked against the filters (sums exact in decimal)
 * and the entry is appended, so two clients can never both pass the check on the same remaining
 * budget. A reservation is a committed entry at its worst case; settling it lowers it to the
 * realised cost in a second transaction, so a client that dies in between leaves the worst case
 * counted and a committed charge is never lost.
 *
 * <p><b>Verification.</b> Opening a budget and {@link #verify()} check its whole hash chain. A
 * write checks the header and then only what is new since its handle last verified the chain (the
 * entries appended since, and the settlements of the reservations it saw open), and decides
 * against the history the handle verified, so a write costs the same however long the history
 * is; an entry edited after the handle verified it changes nothing the handle counts and is found
 * by the next open or verify.
 *
 * <p><b>Request keys.</b> Every reservation and charge carries a random request key; a store that
 * retries after a dropped connection ({@link PostgresLedger}) finds the entry its first attempt
 * wrote instead of writing a second one, and a commit repeated with the same realised cost
 * returns the settled entry instead of charging again (a reservation is settled once).
 */
public abstract sealed class PrivacyLedger implements BudgetStore
    permits SqliteLedger, PostgresLedger {

  static final String MAGIC = "tradeoff-privacy-ledger";
  static final String DEFAULT_DATASET = "default";
  private static final int MAX_LABEL_LENGTH = 1000;
  private static final Pattern DATASET = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

  private final Header header;
  private final Filters filters;
  private final Object verifiedLock = new Object();
  /** What this handle has verified of the chain; guarded by {@link #verifiedLock}. */
  private VerifiedHistory verified;

  PrivacyLedger(Header header) {
    this.header = header;
    this.filters = header.policy() == null ? null
        : new Filters((ApproxDp) header.coordinates().budget(), header.policy());
  }

  /** A budget's header as read: its budget, its policy (an (ε, δ) budget) and genesis hash. */
  record Header(Coordinates coordinates, LedgerPolicy policy, String genesis) {}

  /** Reads one header field of this store's budget. */
  @FunctionalInterface
  interface Meta {
    String get(String key) throws SQLException;
  }

  /** A unit of work on one connection inside a transaction. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /**
   * A dataset name: 1 to 63 letters, digits, {@code _ . -}, starting with a letter or digit.
   *
   * @throws IllegalArgumentException naming the value and the allowed form
   */
  public static String checkDataset(String dataset) {
    Require.nonNull("dataset", dataset);
    if (!DATASET.matcher(dataset).matches()) {
      throw new IllegalArgumentException("dataset must be 1 to 63 letters, digits, '_', '.' or"
          + " '-' starting with a letter or digit, but was \"" + Shown.value(dataset) + "\"");
    }
    return dataset;
  }

  /**
   * Refuses a policy that cannot be created for {@code budget}: an ex-post order too small for its
   * share (the conversion to its δ costs more than its ε).
   */
  static void checkCreatable(ApproxDp budget, LedgerPolicy policy) {
    Require.nonNull("budget", budget);
    Require.nonNull("policy", policy);
    if (policy.has(FilterKind.EXPOST) && new Filters(budget, policy).exPostLimit() <= 0) {
      throw new IllegalArgumentException("expost order " + policy.exPostOrder() + " leaves the"
          + " expost share of " + budget + " no Renyi budget (the conversion to its delta costs"
          + " more than its epsilon): choose a larger order");
    }
  }

  /** Refuses to open {@code what} with another budget than the one it was created with. */
  static void requireSameBudget(String what, Coordinates existing, Coordinates wanted) {
    if (!existing.budget().equals(wanted.budget())) {
      throw new IllegalArgumentException(what + " was created with budget " + existing.budget()
          + ", not " + wanted.budget() + "; a ledger's budget cannot be changed");
    }
  }

  // ------------------------------------------------------------- what a store provides

  /** Where this budget lives: a file, or a server, database and dataset (never a credential). */
  public abstract String location();

  /** Runs {@code work} in a write transaction serialised with every other writer of this budget. */
  abstract <T> T inWriteTransaction(SqlWork<T> work);

  /** Runs {@code work} in a read transaction. */
  abstract <T> T inReadTransaction(SqlWork<T> work);

  /** Reads and checks the stored header (format, magic, genesis) of this budget. */
  abstract Header readHeader(Connection c) throws SQLException;

  /** The SQL selecting the entry columns of this budget where {@code condition} holds, by id. */
  abstract String selectEntries(String condition);

  /** Binds this budget's parameters of {@link #selectEntries}; the next parameter index. */
  abstract int bindBudget(PreparedStatement s) throws SQLException;

  /**
   * The hash the next entry extends, which the verified chain must end at: the head the store
   * records (SQLite) or the newest entry's hash (PostgreSQL), or the genesis.
   */
  abstract String head(Connection c) throws SQLException;

  /** Appends an entry row (not yet settled) and makes its hash the head; returns its id. */
  abstract long appendEntry(Connection c, EntryRow row) throws SQLException;

  /** The id of the entry written with {@code requestKey}, if a first attempt wrote it. */
  abstract Optional<Long> entryWithKey(Connection c, String requestKey) throws SQLException;

  /** Records the settlement (status, charged, time, settle hash) of entry {@code id}. */
  abstract void appendSettlement(Connection c, long id, EntryStatus status, String charged,
      long at, String settleHash) throws SQLException;

  /** An entry as appended, before its id is known (the store assigns it). */
  record EntryRow(String label, String kind, String filter, String reserved, long reservedAt,
      long processId, String description, String requestKey, String previousHash) {

    /** The entry's hash once its id is known. */
    String hash(long id) {
      return HashChain.hash(previousHash, entryBytes(id, label, kind, filter, reserved,
          reservedAt, processId, description));
    }
  }

  // ------------------------------------------------------------- the budget API

  @Override
  public PrivacyGuarantee budget() {
    return header.coordinates().budget();
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
    double[] request = coordinates().read("worstCase", worstCase);
    PrivacyGuarantee requested = coordinates().guarantee(request);
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
   * same order. Committing a committed reservation again at the same realised cost returns the
   * settled entry and charges nothing more (a retried commit); any other second settlement is
   * refused.
   */
  @Override
  public LedgerEntry commit(Reservation reservation, PrivacyGuarantee realised) {
    Require.nonNull("reservation", reservation);
    Instant now = now();
    return write(c -> {
      LedgerEntry found = reservation(c, reservation);
      boolean exPost = found.reserved() instanceof RenyiDp && filters != null;
      double[] cost = exPost ? exPostAmount("realised", realised)
          : coordinates().read("realised", realised);
      if (found.status() == EntryStatus.COMMITTED && Arrays.equals(cost, exPost
          ? exPostAmount("charged", found.charged())
          : coordinates().read("charged", found.charged()))) {
        return found;
      }
      LedgerEntry open = requireOpen(found);
      double[] reserved = exPost ? exPostAmount("reserved", open.reserved())
          : coordinates().read("reserved", open.reserved());
      if (!Coordinates.dominatedBy(cost, reserved)) {
        throw new IllegalArgumentException(
            "realised cost "
                + coordinates().guarantee(cost)
                + " exceeds the reservation "
                + open.reserved()
                + " of \""
                + open.label()
                + "\"; nothing was changed");
      }
      settle(c, open.id(), EntryStatus.COMMITTED, Coordinates.encode(cost), now);
      return new LedgerEntry(open.id(), open.label(), coordinates().kind(),
          EntryStatus.COMMITTED, open.reserved(), exPost ? realised
              : coordinates().guarantee(cost), open.reservedAt(), now, open.processId());
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

  /** Cancels an open reservation; cancelling a cancelled one again changes nothing. */
  @Override
  public void cancel(Reservation reservation) {
    Require.nonNull("reservation", reservation);
    write(c -> {
      LedgerEntry found = reservation(c, reservation);
      if (found.status() == EntryStatus.CANCELLED) {
        return null; // a retried cancel
      }
      LedgerEntry open = requireOpen(found);
      settle(c, open.id(), EntryStatus.CANCELLED, Coordinates.encode(
          open.reserved() instanceof RenyiDp && filters != null
              ? exPostAmount("reserved", open.reserved())
              : coordinates().read("reserved", open.reserved())), now());
      return null;
    });
  }

  @Override
  public LedgerEntry charge(String label, PrivacyGuarantee cost) {
    String l = checkLabel(label);
    double[] amount = coordinates().read("cost", cost);
    PrivacyGuarantee requested = coordinates().guarantee(amount);
    if (filters != null) {
      return charge(l, Charge.opaque((ApproxDp) requested), null);
    }
    Instant now = now();
    long id = insertIfItFits(l, requested, amount, plain(requested), EntryStatus.COMMITTED, now,
        now);
    return new LedgerEntry(id, l, coordinates().kind(), EntryStatus.COMMITTED, requested,
        requested, now, now, ProcessHandle.current().pid());
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
    return new LedgerEntry(id, l, coordinates().kind(), EntryStatus.COMMITTED, d.approxDp(),
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
    IntPredicate admits = k -> {
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
  public OptionalDouble exPostOrder() {
    return filters != null && filters.policy().has(FilterKind.EXPOST)
        ? OptionalDouble.of(filters.policy().exPostOrder())
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
      throw new IllegalArgumentException("ledger " + location() + " has no expost filter ("
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
  public Optional<LedgerPolicy> policy() {
    return Optional.ofNullable(filters == null ? null : filters.policy());
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
      try (PreparedStatement s = c.prepareStatement(selectEntries("TRUE"))) {
        bindBudget(s);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            out.add(new LedgerRecord(entry(r), description(r), r.getString("hash")));
          }
        }
      }
      return List.copyOf(out);
    });
  }

  /**
   * Checks the whole budget: header (budget, policy) against its hash, every entry's hash and
   * settlement hash, and the head. Returns the head hash and entry count.
   *
   * @throws LedgerFormatException naming the first problem found
   */
  public Verification verify() {
    return read(c -> {
      long entries = checkChain(c, readHeader(c).genesis());
      return new Verification(head(c), entries);
    });
  }

  /** A verified ledger's head: the hash of its newest entry (or the genesis) and its size. */
  public record Verification(String headHash, long entries) {}

  /** An entry, what it recorded about its release and its place in the hash chain. */
  public record LedgerRecord(LedgerEntry entry, EntryDescription description, String hash) {}

  /**
   * Pure-DP and Rényi-DP ledgers: the sum of the charges, rounded up. (ε, δ) ledgers: the budget
   * minus {@link #remaining()}, rounded up (with a basic-only policy, the sum of the charges).
   */
  @Override
  public PrivacyGuarantee spent() {
    if (filters != null) {
      ApproxDp b = (ApproxDp) budget();
      ApproxDp r = (ApproxDp) remaining();
      return new ApproxDp(upDiff(b.epsilon(), r.epsilon()), upDiff(b.delta(), r.delta()));
    }
    return coordinates().guarantee(coordinates().spent(read(this::charges)));
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
    return coordinates().guarantee(coordinates().remaining(read(this::charges)));
  }

  private static double upDiff(double a, double b) {
    BigDecimal x = new BigDecimal(a).subtract(new BigDecimal(b));
    if (x.signum() <= 0) {
      return 0;
    }
    double d = x.doubleValue();
    return new BigDecimal(d).compareTo(x) < 0 ? Math.nextUp(d) : d;
  }

  @Override
  public List<LedgerEntry> entries() {
    return read(c -> {
      List<LedgerEntry> out = new ArrayList<>();
      try (PreparedStatement s = c.prepareStatement(selectEntries("status <> 'CANCELLED'"))) {
        bindBudget(s);
        try (ResultSet r = s.executeQuery()) {
          while (r.next()) {
            out.add(entry(r));
          }
        }
      }
      return List.copyOf(out);
    });
  }

  // ------------------------------------------------------------- shared internals

  final Coordinates coordinates() {
    return header.coordinates();
  }

  final String genesis() {
    return header.genesis();
  }

  private Filters requireFilters() {
    if (filters == null) {
      throw new IllegalArgumentException("ledger " + location() + " has a " + coordinates().kind()
          + " budget; charges by description need an (epsilon, delta) budget");
    }
    return filters;
  }

  final EntryDescription plain(PrivacyGuarantee g) {
    return new EntryDescription(null, null, g instanceof PureDp p ? new ApproxDp(p.epsilon(), 0)
        : g instanceof ApproxDp a ? a : null, null, null, null);
  }

  /**
   * Runs {@code work} in a write transaction after checking the header and verifying what is new
   * in the chain since this handle last verified it ({@link #verifyNew}); the handle's writes run
   * one at a time, as the store runs the writes of all handles.
   */
  private <T> T write(SqlWork<T> work) {
    synchronized (verifiedLock) {
      return inWriteTransaction(c -> {
        // A budget whose header or history was edited since it was opened is refused before
        // anything is written.
        Header now = readHeader(c);
        if (!now.genesis().equals(header.genesis())) {
          throw new LedgerFormatException(location() + " is not a usable Tradeoff privacy ledger:"
              + " its header changed since it was opened; refusing to use it");
        }
        verifyNew(c);
        return work.run(c);
      });
    }
  }

  private <T> T read(SqlWork<T> work) {
    return inReadTransaction(work);
  }

  /**
   * In one write transaction: returns the entry a first attempt with the same request key wrote;
   * otherwise refuses with {@link BudgetExceededException} if the charge does not fit next to the
   * recorded charges, or appends it with {@code status}; the entry's id.
   */
  private long insertIfItFits(String label, PrivacyGuarantee requested, double[] amount,
      EntryDescription description, EntryStatus status, Instant reservedAt, Instant committedAt) {
    String requestKey = UUID.randomUUID().toString();
    return write(c -> {
      Optional<Long> done = entryWithKey(c, requestKey);
      if (done.isPresent()) {
        return done.get();
      }
      EntryDescription routed = description;
      if (filters != null) {
        Filters.State state = filters.state(verified.counted());
        routed = state.route(description);
        if (!state.admits(routed)) {
          throw new BudgetExceededException(label, requested, routed.filter() == FilterKind.EXPOST
              ? RenyiDp.ofOrder(filters.policy().exPostOrder(), state.exPostRemaining())
              : state.basicRemaining());
        }
      } else {
        List<double[]> charges = verified.charges();
        if (!coordinates().fits(charges, amount)) {
          throw new BudgetExceededException(
              label, requested, coordinates().guarantee(coordinates().remaining(charges)));
        }
      }
      String reservedText = Coordinates.encode(amount);
      long id = appendEntry(c, new EntryRow(label, coordinates().kind().name(),
          routed.filter() == null ? null : routed.filter().cliName(), reservedText,
          reservedAt.toEpochMilli(), ProcessHandle.current().pid(), routed.toJson(), requestKey,
          head(c)));
      if (status == EntryStatus.COMMITTED) {
        settle(c, id, EntryStatus.COMMITTED, reservedText, committedAt);
      }
      return id;
    });
  }

  /** The counted charges of an (ε, δ) ledger, in id order. */
  private List<Filters.Counted> counted(Connection c) throws SQLException {
    List<Filters.Counted> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(selectEntries("status <> 'CANCELLED'"))) {
      bindBudget(s);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          EntryDescription d = description(r);
          double[] charged = Coordinates.decode(r.getString("charged"), 2);
          out.add(new Filters.Counted(d, charged[0], charged[1]));
        }
      }
    }
    return out;
  }

  /** What each entry counts against the budget, in id order (a fixed summation order). */
  private List<double[]> charges(Connection c) throws SQLException {
    List<double[]> out = new ArrayList<>();
    try (PreparedStatement s = c.prepareStatement(selectEntries("status <> 'CANCELLED'"))) {
      bindBudget(s);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          try {
            out.add(Coordinates.decode(r.getString("charged"), coordinates().size()));
          } catch (IllegalArgumentException e) {
            throw damaged("entry #" + r.getLong("id") + ": " + e.getMessage(), e);
          }
        }
      }
    }
    return out;
  }

  final EntryDescription description(ResultSet r) throws SQLException {
    long id = r.getLong("id");
    try {
      EntryDescription d = EntryDescription.fromJson(r.getString("description"));
      String filter = r.getString("filter");
      if (!Objects.equals(filter, d.filter() == null ? null : d.filter().cliName())) {
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
      throw damaged("entry #" + id + ": " + e.getMessage(), e);
    }
  }

  /** Settles (commits or cancels) entry {@code id}, extending its hash with the settlement. */
  private void settle(Connection c, long id, EntryStatus status, String charged, Instant at)
      throws SQLException {
    String hash;
    try (PreparedStatement s = c.prepareStatement(selectEntries("id = ?"))) {
      s.setLong(bindBudget(s), id);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        hash = r.getString("hash");
      }
    }
    appendSettlement(c, id, status, charged, at.toEpochMilli(), HashChain.hash(hash,
        settlementBytes(status.name(), charged, at.toEpochMilli())));
  }

  static String settlementBytes(String status, String charged, long committedAt) {
    return HashChain.canonical("settlement", status, charged, committedAt);
  }

  static String entryBytes(long id, String label, String kind, String filter,
      String reserved, long reservedAt, long processId, String description) {
    return HashChain.canonical("entry", id, label, kind, filter, reserved, reservedAt, processId,
        description);
  }

  /**
   * The hash of the header fields that must never change (budget, policy, creation); a named
   * dataset's name is hashed with them, so one dataset's history cannot pass for another's (the
   * default dataset's genesis is the single-budget ledger's, so old ledgers keep their chain).
   */
  static String genesis(Meta meta, String dataset) throws SQLException {
    List<Object> fields = new ArrayList<>(List.of(meta.get("magic"), meta.get("entry_format"),
        meta.get("kind"), meta.get("orders"), meta.get("budget"), meta.get("policy"),
        meta.get("rdp_orders"), meta.get("event_delta"), meta.get("created_at")));
    if (!DEFAULT_DATASET.equals(dataset)) {
      fields.add(dataset);
    }
    return HashChain.hash("tradeoff-ledger-genesis", HashChain.canonical(fields.toArray()));
  }

  /** The header fields of {@code dataset} in table {@code tradeoff_ledger} (dataset, key, value). */
  static Meta meta(Connection c, String dataset) {
    return key -> {
      try (PreparedStatement s = c.prepareStatement(
          "SELECT value FROM tradeoff_ledger WHERE dataset = ? AND key = ?")) {
        s.setString(1, dataset);
        s.setString(2, key);
        try (ResultSet r = s.executeQuery()) {
          if (!r.next()) {
            throw new IllegalArgumentException("missing ledger field \"" + key + "\"");
          }
          return r.getString(1);
        }
      }
    };
  }

  /** Whether table {@code tradeoff_ledger} holds a header (a genesis) for {@code dataset}. */
  static boolean datasetExists(Connection c, String dataset) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(
        "SELECT 1 FROM tradeoff_ledger WHERE dataset = ? AND key = 'genesis'")) {
      s.setString(1, dataset);
      try (ResultSet r = s.executeQuery()) {
        return r.next();
      }
    }
  }

  /** The header rows of a new budget, in the order they are written. */
  static String[][] headerRows(Coordinates budget, LedgerPolicy policy, int schemaVersion) {
    return new String[][] {
      {"magic", MAGIC},
      {"schema_version", Integer.toString(schemaVersion)},
      {"entry_format", Integer.toString(EntryDescription.FORMAT)},
      {"kind", budget.kind().name()},
      {"orders", Coordinates.encode(budget.orders())},
      {"budget", Coordinates.encode(budget.read("budget", budget.budget()))},
      {"policy", policy == null ? "" : policy.text()},
      {"rdp_orders", policy == null ? "" : Coordinates.encode(policy.orders())},
      {"event_delta", policy == null ? "" : Double.toString(policy.eventDelta())},
      {"created_at", now().toString()}
    };
  }

  /**
   * Parses a budget's header fields: magic, entry format, genesis hash (which must match), budget
   * and, for an (ε, δ) budget, its policy.
   */
  static Header parseHeader(Meta meta, String dataset, String where) throws SQLException {
    try {
      String magic = meta.get("magic");
      if (!MAGIC.equals(magic)) {
        throw damaged(where, "wrong magic \"" + Shown.value(magic) + "\"", null);
      }
      if (!Integer.toString(EntryDescription.FORMAT).equals(meta.get("entry_format"))) {
        throw damaged(where, "unknown entry format " + meta.get("entry_format"), null);
      }
      String genesis = meta.get("genesis");
      if (!genesis.equals(genesis(meta, dataset))) {
        throw new LedgerFormatException(where + " is not a usable Tradeoff privacy ledger: its"
            + " recorded budget or policy was edited (the header does not match its genesis"
            + " hash); refusing to use it");
      }
      Coordinates budget = readBudget(meta);
      LedgerPolicy policy = null;
      if (budget.kind() == GuaranteeKind.APPROX_DP) {
        double[] grid = Arrays.stream(meta.get("rdp_orders").split(","))
            .mapToDouble(Double::parseDouble).toArray();
        policy = LedgerPolicy.parse(meta.get("policy"), grid,
            Double.parseDouble(meta.get("event_delta")));
      }
      return new Header(budget, policy, genesis);
    } catch (IllegalArgumentException e) {
      if (e instanceof LedgerFormatException f) {
        throw f;
      }
      throw damaged(where, e.getMessage(), e);
    }
  }

  static Coordinates readBudget(Meta meta) throws SQLException {
    GuaranteeKind kind = GuaranteeKind.valueOf(meta.get("kind"));
    String orderText = meta.get("orders");
    double[] orders = orderText.isEmpty() ? new double[0]
        : Arrays.stream(orderText.split(",")).mapToDouble(Double::parseDouble).toArray();
    int size = switch (kind) {
      case PURE_DP -> 1;
      case APPROX_DP -> 2;
      case RENYI_DP -> orders.length;
    };
    return Coordinates.of(kind, orders, Coordinates.decode(meta.get("budget"), size));
  }

  /**
   * Checks every entry of this budget against the hash chain rooted in {@code genesis} and the
   * head; the number of entries.
   */
  final long checkChain(Connection c, String genesis) throws SQLException {
    String head = genesis;
    long count = 0;
    try (PreparedStatement s = c.prepareStatement(selectEntries("TRUE"))) {
      bindBudget(s);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          head = checkEntry(r, head, count == 0);
          count++;
        }
      }
    }
    checkRecordedHead(c, head);
    return count;
  }

  /**
   * Verifies what was appended to the chain, and which open reservations were settled, since this
   * handle last verified it, and adds them to the handle's verified history; the first write of a
   * handle verifies the whole chain. What was verified once is not read again: a write is admitted
   * against the history this handle verified from the genesis, each entry of it hash-checked when
   * first read, so an entry edited or removed afterwards does not change what is admitted; it is
   * found by the next {@link #verify()} (every open verifies the whole chain too).
   */
  private void verifyNew(Connection c) throws SQLException {
    if (verified == null) {
      verified = new VerifiedHistory(genesis());
    }
    VerifiedHistory v = verified;
    List<Long> open = List.copyOf(v.open.keySet());
    String condition = "id > ?" + (open.isEmpty() ? ""
        : " OR id IN (" + String.join(", ", java.util.Collections.nCopies(open.size(), "?"))
            + ")");
    try (PreparedStatement s = c.prepareStatement(selectEntries(condition))) {
      int i = bindBudget(s);
      s.setLong(i++, v.lastId);
      for (long id : open) {
        s.setLong(i++, id);
      }
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          long id = r.getLong("id");
          OpenEntry wasOpen = v.open.get(id);
          String previous = wasOpen != null ? wasOpen.previousHash() : v.head;
          String hash = checkEntry(r, previous, v.lastId == 0);
          if (wasOpen != null && !hash.equals(wasOpen.hash())) {
            throw chainBroken("reservation #" + id + " changed since it was verified");
          }
          v.add(id, previous, hash, EntryStatus.valueOf(r.getString("status")), description(r),
              charged(r), wasOpen == null);
        }
      }
    }
    checkRecordedHead(c, v.head);
  }

  /**
   * Checks one entry row against the chain: its hash extends {@code previous}, its settlement
   * hash extends its hash, an open reservation counts its reservation, and its fields parse.
   * Returns its hash.
   */
  private String checkEntry(ResultSet r, String previous, boolean first) throws SQLException {
    long id = r.getLong("id");
    long committedAt = r.getLong("committed_at");
    Long committed = r.wasNull() ? null : committedAt;
    String expected = HashChain.hash(previous, entryBytes(id, r.getString("label"),
        r.getString("kind"), r.getString("filter"), r.getString("reserved"),
        r.getLong("reserved_at"), r.getLong("process_id"), r.getString("description")));
    if (!expected.equals(r.getString("hash"))) {
      throw chainBroken("entry #" + id + " does not match its hash"
          + (first ? "" : " or an entry before it was deleted"));
    }
    String status = r.getString("status");
    String settle = r.getString("settle_hash");
    if (committed == null ? settle != null || !"RESERVED".equals(status)
        : settle == null || !settle.equals(HashChain.hash(expected,
            settlementBytes(status, r.getString("charged"), committed)))) {
      throw chainBroken("entry #" + id + "'s settlement does not match its hash");
    }
    if ("RESERVED".equals(status)
        && !r.getString("charged").equals(r.getString("reserved"))) {
      throw chainBroken("reservation #" + id + " is counted at less than reserved");
    }
    entry(r);
    description(r);
    return expected;
  }

  private void checkRecordedHead(Connection c, String head) throws SQLException {
    if (!head.equals(head(c))) {
      throw chainBroken("the newest entries were deleted (the chain ends before the recorded"
          + " head)");
    }
  }

  private double[] charged(ResultSet r) throws SQLException {
    try {
      return Coordinates.decode(r.getString("charged"), coordinates().size());
    } catch (IllegalArgumentException e) {
      throw damaged("entry #" + r.getLong("id") + ": " + e.getMessage(), e);
    }
  }

  /** An open reservation as verified: the hash it extends and its own. */
  private record OpenEntry(String previousHash, String hash) {}

  /** A counted entry as verified: its description and what it counts. */
  private record CountedEntry(EntryDescription description, double[] charged) {}

  /**
   * What one handle has verified of its budget's chain: the newest verified entry and its hash,
   * what each verified entry counts (cancelled ones count nothing), in id order, and the open
   * reservations, which are read again until they are settled.
   */
  private static final class VerifiedHistory {
    long lastId;
    String head;
    final Map<Long, CountedEntry> counted = new LinkedHashMap<>();
    final Map<Long, OpenEntry> open = new HashMap<>();

    VerifiedHistory(String genesis) {
      this.head = genesis;
    }

    void add(long id, String previous, String hash, EntryStatus status,
        EntryDescription description, double[] charged, boolean appended) {
      if (status == EntryStatus.CANCELLED) {
        counted.remove(id);
      } else {
        counted.put(id, new CountedEntry(description, charged));
      }
      if (status == EntryStatus.RESERVED) {
        open.put(id, new OpenEntry(previous, hash));
      } else {
        open.remove(id);
      }
      if (appended) {
        lastId = id;
        head = hash;
      }
    }

    List<Filters.Counted> counted() {
      List<Filters.Counted> out = new ArrayList<>(counted.size());
      for (CountedEntry e : counted.values()) {
        out.add(new Filters.Counted(e.description(), e.charged()[0], e.charged()[1]));
      }
      return out;
    }

    List<double[]> charges() {
      List<double[]> out = new ArrayList<>(counted.size());
      for (CountedEntry e : counted.values()) {
        out.add(e.charged());
      }
      return out;
    }
  }

  private LedgerFormatException chainBroken(String detail) {
    return new LedgerFormatException(location() + " is not a usable Tradeoff privacy ledger: it"
        + " is damaged or was edited (hash chain broken: " + detail + "); refusing to use it");
  }

  final LedgerEntry entry(ResultSet r) throws SQLException {
    long id = r.getLong("id");
    try {
      GuaranteeKind kind = GuaranteeKind.valueOf(r.getString("kind"));
      if (kind != coordinates().kind()) {
        throw new IllegalArgumentException("entry of kind " + kind + " in a "
            + coordinates().kind() + " ledger");
      }
      EntryStatus status = EntryStatus.valueOf(r.getString("status"));
      double[] reserved = Coordinates.decode(r.getString("reserved"), coordinates().size());
      double[] charged = Coordinates.decode(r.getString("charged"), coordinates().size());
      if (!Coordinates.dominatedBy(charged, reserved)) {
        throw new IllegalArgumentException("charged more than reserved");
      }
      long committedAt = r.getLong("committed_at");
      Instant committed = r.wasNull() ? null : Instant.ofEpochMilli(committedAt);
      boolean exPost = FilterKind.EXPOST.cliName().equals(r.getString("filter"));
      return new LedgerEntry(id, r.getString("label"), kind, status,
          exPost ? exPostGuarantee(reserved) : coordinates().guarantee(reserved),
          exPost ? exPostGuarantee(charged) : coordinates().guarantee(charged),
          Instant.ofEpochMilli(r.getLong("reserved_at")), committed, r.getLong("process_id"));
    } catch (IllegalArgumentException e) {
      throw damaged("entry #" + id + ": " + e.getMessage(), e);
    }
  }

  private RenyiDp exPostGuarantee(double[] stored) {
    return RenyiDp.ofOrder(requireFilters().policy().exPostOrder(), stored[0]);
  }

  /** The entry of {@code reservation} in this budget, whatever its status. */
  private LedgerEntry reservation(Connection c, Reservation reservation) throws SQLException {
    LedgerEntry e;
    try (PreparedStatement s = c.prepareStatement(selectEntries("id = ?"))) {
      s.setLong(bindBudget(s), reservation.id());
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new IllegalStateException("no reservation #" + reservation.id() + " (\""
              + reservation.label() + "\") in " + location());
        }
        e = entry(r);
      }
    }
    if (!e.label().equals(reservation.label())) {
      throw new IllegalStateException("reservation #" + reservation.id() + " of " + location()
          + " is \"" + e.label() + "\", not \"" + reservation.label() + "\"");
    }
    return e;
  }

  private static LedgerEntry requireOpen(LedgerEntry e) {
    if (e.status() != EntryStatus.RESERVED) {
      throw new IllegalStateException(
          "reservation #" + e.id() + " (\"" + e.label() + "\") is already settled");
    }
    return e;
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

  static Instant now() {
    return Instant.ofEpochMilli(System.currentTimeMillis());
  }

  static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  static long queryLong(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }

  static String queryString(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getString(1);
    }
  }

  final LedgerFormatException damaged(String detail, Throwable cause) {
    return damaged(location(), detail, cause);
  }

  static LedgerFormatException damaged(String where, String detail, Throwable cause) {
    return new LedgerFormatException(where + " is not a usable Tradeoff privacy ledger: it is"
        + " damaged (" + detail + "); refusing to use it", cause);
  }
}
