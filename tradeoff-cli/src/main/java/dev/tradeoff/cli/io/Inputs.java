package dev.tradeoff.cli.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command line's one boundary check: every numeric flag and spec parameter of every command
 * goes through it before any work starts, so a hostile value is refused in one line instead of
 * hanging, crashing or releasing a non-finite number. Each method names the range where the
 * computation is <em>meaningful and finite</em> (not merely where the formula is defined), and
 * every refusal reads the same way as {@link dev.tradeoff.accounting.internal.Require}'s: {@code "--flag
 * must be in [lo, hi] (why), but was v"}.
 *
 * <p>Use: {@code double e = Inputs.epsilon("--epsilon", epsilon);} at the top of a command's
 * {@code call()}, or, for a {@link Spec} key, {@code Inputs.noise(spec.flag("sigma"),
 * spec.number("sigma"))}. The ranges, and why:
 *
 * <ul>
 *   <li>ε: {@code [}{@value #MIN_EPSILON}{@code , }{@value #MAX_EPSILON}{@code ]} — below, the
 *       noise is over 10^6 times the sensitivity (and discrete samplers leave the range of a
 *       long); beyond, e^ε ≥ 10^43 bounds nothing a person would call private, and
 *       accountants' grids and e^ε stay far from overflow;
 *   <li>δ: {@code [}{@value #MIN_DELTA}{@code , 1)} for a target δ (smaller is below double
 *       precision of the tails computed; 0 only where the command says so);
 *   <li>noise scales σ, b: {@code [}{@value #MIN_NOISE}{@code , }{@value #MAX_NOISE}{@code ]} for
 *       sensitivity 1 — below, one release costs ε > 10^3 (PLD and RDP grids would need 10^9
 *       points); above, the noise is 10^9× the sensitivity and privacy arithmetic underflows;
 *   <li>sampling rates q: {@code [}{@value #MIN_RATE}{@code , 1]};
 *   <li>released values and sensitivities: |x| ≤ {@value #MAX_MAGNITUDE} (2^53 ≈ 9·10^15 is
 *       where doubles stop being exact integers; beyond, the noise grid cannot hold the value);
 *   <li>counts: {@code [1, max]} with a max per command (its memory and time).
 * </ul>
 */
public final class Inputs {

  /** Smallest positive ε any command accepts as a privacy parameter. */
  public static final double MIN_EPSILON = 1e-6;
  /** Largest ε any command accepts. */
  public static final double MAX_EPSILON = 100;
  /** Smallest positive target δ any command accepts. */
  public static final double MIN_DELTA = 1e-300;
  /** Smallest noise scale (σ or b, for sensitivity 1). */
  public static final double MIN_NOISE = 1e-3;
  /** Largest noise scale (σ or b, for sensitivity 1). */
  public static final double MAX_NOISE = 1e9;
  /** Largest GDP mu: that of a Gaussian with the smallest noise scale {@link #MIN_NOISE}. */
  public static final double MAX_MU = 1 / MIN_NOISE;
  /** Largest zCDP rho: that of the same Gaussian. */
  public static final double MAX_RHO = 0.5 * MAX_MU * MAX_MU;
  /** Most teachers: DaRRM's verifier and LP cost grow with K^2. */
  public static final int MAX_TEACHERS = 1001;
  /** Smallest positive sampling rate. */
  public static final double MIN_RATE = 1e-12;
  /** Largest magnitude of a released value or a sensitivity. */
  public static final double MAX_MAGNITUDE = 1e15;

  private Inputs() {}

  /** ε in {@code [MIN_EPSILON, MAX_EPSILON]}. */
  public static double epsilon(String flag, double value) {
    return range(flag, value, MIN_EPSILON, true, MAX_EPSILON,
        "an epsilon: smaller needs noise over a million times the sensitivity");
  }

  /** ε in {@code [0, MAX_EPSILON]} (0 allowed: a query of δ at ε = 0). */
  public static double epsilonOrZero(String flag, double value) {
    return range(flag, value, 0, true, MAX_EPSILON, "an epsilon");
  }

  /** A target δ in {@code [MIN_DELTA, 1)}. */
  public static double delta(String flag, double value) {
    if (!(value >= MIN_DELTA && value < 1)) {
      throw fail(flag, "must be in [" + fmt(MIN_DELTA) + ", 1) (a privacy delta)", value);
    }
    return value;
  }

  /** δ in {@code [0, 1)}: 0 allowed. */
  public static double deltaOrZero(String flag, double value) {
    if (!(value == 0 || (value >= MIN_DELTA && value < 1))) {
      throw fail(flag, "must be 0 or in [" + fmt(MIN_DELTA) + ", 1) (a privacy delta)", value);
    }
    return Math.abs(value); // -0.0 is 0
  }

  /** A noise scale (σ or b) for sensitivity 1, in {@code [MIN_NOISE, MAX_NOISE]}. */
  public static double noise(String flag, double value) {
    if (!(value >= MIN_NOISE && value <= MAX_NOISE)) {
      throw fail(flag, "must be in [" + fmt(MIN_NOISE) + ", " + fmt(MAX_NOISE)
          + "] (a noise scale for sensitivity 1: smaller costs epsilon > 1000 per release)", value);
    }
    return value;
  }

  /** A sampling rate in {@code [MIN_RATE, 1]}. */
  public static double rate(String flag, double value) {
    if (!(value >= MIN_RATE && value <= 1)) {
      throw fail(flag, "must be in [" + fmt(MIN_RATE) + ", 1] (a sampling probability)", value);
    }
    return value;
  }

  /** A fraction in the open interval {@code (0, 1)}; {@code what} says what it divides. */
  public static double fraction(String flag, double value, String what) {
    if (!(value > 0 && value < 1)) {
      throw fail(flag, "must be in (0, 1) (" + what + ")", value);
    }
    return value;
  }

  /** A probability in {@code [0, 1]} ({@code -0.0} read as 0). */
  public static double probability(String flag, double value) {
    if (!(value >= 0 && value <= 1)) {
      throw fail(flag, "must be in [0, 1] (a probability)", value);
    }
    return Math.abs(value);
  }

  /** A value to release (or a bound on one), |x| ≤ {@code MAX_MAGNITUDE}. */
  public static double magnitude(String flag, double value) {
    if (!(Math.abs(value) <= MAX_MAGNITUDE)) {
      throw fail(flag, "must be finite with |x| <= " + fmt(MAX_MAGNITUDE)
          + " (beyond, the noise grid cannot represent the value)", value);
    }
    return value == 0 ? 0 : value;
  }

  /** A sensitivity in {@code (0, MAX_MAGNITUDE]}. */
  public static double sensitivity(String flag, double value) {
    if (!(value > 0 && value <= MAX_MAGNITUDE)) {
      throw fail(flag, "must be in (0, " + fmt(MAX_MAGNITUDE) + "] (a sensitivity)", value);
    }
    return value;
  }

  /**
   * A finite value in {@code [lower, upper]}; {@code why} says what the range protects, e.g.
   * {@code "a Beta shape: larger ones underflow"}.
   */
  public static double range(String flag, double value, double lower, double upper, String why) {
    return range(flag, value, lower, true, upper, why);
  }

  /** A finite value in {@code (lower, upper]}. */
  public static double rangeAbove(String flag, double value, double lower, double upper, String why) {
    return range(flag, value, lower, false, upper, why);
  }

  /** An integer in {@code [lower, upper]}. */
  public static int count(String flag, int value, int lower, int upper) {
    if (value < lower || value > upper) {
      throw new IllegalArgumentException(
          flag + " must be in [" + lower + ", " + upper + "], but was " + value);
    }
    return value;
  }

  /** An integer in {@code [lower, upper]}. */
  public static long count(String flag, long value, long lower, long upper) {
    if (value < lower || value > upper) {
      throw new IllegalArgumentException(
          flag + " must be in [" + lower + ", " + upper + "], but was " + value);
    }
    return value;
  }

  /** A double that must be a whole number in {@code [lower, upper]}, e.g. an epoch count. */
  public static long whole(String flag, double value, long lower, long upper) {
    if (!(value >= lower && value <= upper) || value != Math.rint(value)) {
      throw fail(flag, "must be a whole number in [" + lower + ", " + upper + "]", value);
    }
    return (long) value;
  }

  /**
   * An existing, readable regular file of at most {@code maxBytes} bytes: checked before it is
   * read, so a huge file is refused instead of filling the heap.
   */
  public static Path inputFile(String flag, Path file, long maxBytes) {
    inputFile(flag, file);
    long size;
    try {
      size = Files.size(file);
    } catch (IOException e) {
      throw new IllegalArgumentException(flag + " must be readable, but " + file + " is not ("
          + reason(e) + ")");
    }
    if (size > maxBytes) {
      throw new IllegalArgumentException(flag + " must be at most " + maxBytes + " bytes, but "
          + file + " has " + size);
    }
    return file;
  }

  /** An existing, readable regular file. */
  public static Path inputFile(String flag, Path file) {
    if (file == null || file.toString().isEmpty()) {
      throw new IllegalArgumentException(flag + " must name a file, but was empty");
    }
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(flag + " must be an existing file, but " + file
          + (Files.isDirectory(file) ? " is a directory" : " does not exist"));
    }
    if (!Files.isReadable(file)) {
      throw new IllegalArgumentException(flag + " must be readable, but " + file + " is not");
    }
    return file;
  }

  /**
   * A directory to write into: created if missing, then checked writable, before any work, so a
   * run never fails after its computation because it cannot save the result.
   */
  public static Path outputDirectory(String flag, Path dir) {
    if (dir == null || dir.toString().isEmpty()) {
      throw new IllegalArgumentException(flag + " must name a directory, but was empty");
    }
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IllegalArgumentException(flag + " must be a directory, but " + dir + " is a file");
    }
    try {
      Files.createDirectories(dir);
      Path probe = Files.createTempFile(dir, ".tradeoff-write-check", ".tmp");
      Files.delete(probe);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      throw new IllegalArgumentException(flag + " must be a writable directory, but " + dir
          + " is not (" + reason(e) + ")");
    }
    return dir;
  }

  /** A file to write: its directory must exist (or be creatable) and be writable. */
  public static Path outputFile(String flag, Path file) {
    if (file == null || file.toString().isEmpty()) {
      throw new IllegalArgumentException(flag + " must name a file, but was empty");
    }
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(flag + " must be a file, but " + file + " is a directory");
    }
    Path parent = file.toAbsolutePath().getParent();
    outputDirectory(flag + " (its directory)", parent);
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw new IllegalArgumentException(flag + " must be writable, but " + file + " is not");
    }
    return file;
  }

  /**
   * A ledger file that a run will charge: its directory must exist and be writable (SQLite writes
   * its rollback journal there), and the file, if it exists, must be a writable regular file.
   * Checked before anything runs, so a charge never fails after the release was computed.
   */
  public static Path ledgerToWrite(String flag, Path file) {
    Path parent = ledgerToRead(flag, file).toAbsolutePath().getParent();
    if (!Files.isWritable(parent)) {
      throw new IllegalArgumentException(flag + " must be in a writable directory (SQLite writes"
          + " its journal next to the ledger), but " + parent + " is read-only");
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw new IllegalArgumentException(flag + " must be writable, but " + file + " is read-only");
    }
    return file;
  }

  /**
   * A ledger file to read: in an existing directory, and neither a directory nor a device, pipe or
   * socket ({@code /dev/null}, {@code /dev/full}: SQLite would fail on them only when it syncs, after
   * the run).
   */
  public static Path ledgerToRead(String flag, Path file) {
    if (file == null || file.toString().isEmpty()) {
      throw new IllegalArgumentException(flag + " must name a ledger file, but was empty");
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent == null || !Files.isDirectory(parent)) {
      throw new IllegalArgumentException(flag + " must be in an existing directory, but "
          + parent + " does not exist");
    }
    if (Files.isDirectory(file)) {
      throw new IllegalArgumentException(flag + " must be a ledger file, but " + file
          + " is a directory");
    }
    if (Files.exists(file) && !Files.isRegularFile(file)) {
      throw new IllegalArgumentException("cannot use the ledger at " + file + ": " + flag
          + " must name a ledger file or a new one, but this is a device, pipe or socket"
          + " (SQLite needs a regular file it can lock, journal and sync)");
    }
    return file;
  }

  /**
   * A number about to be released or printed as a result: refuses a non-finite one (a boundary
   * check let an input through that should not have been; better no answer than a wrong one).
   */
  public static double released(String what, double value) {
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(
          "refusing to print " + what + " = " + value + ": the inputs are outside the range where"
              + " it is finite (make the values smaller)");
    }
    return value;
  }

  private static double range(
      String flag, double value, double lower, boolean closed, double upper, String why) {
    boolean ok = (closed ? value >= lower : value > lower) && value <= upper;
    if (!ok) {
      throw fail(flag, "must be in " + (closed ? "[" : "(") + fmt(lower) + ", " + fmt(upper) + "] ("
          + why + ")", value);
    }
    return value == 0 ? 0 : value;
  }

  private static String reason(Exception e) {
    String m = e.getMessage();
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.NoSuchFileException) {
      return "no such file or directory";
    }
    return m == null ? e.getClass().getSimpleName() : m;
  }

  public static String fmt(double v) {
    return Numbers.nearest(v);
  }

  private static IllegalArgumentException fail(String flag, String requirement, double value) {
    return new IllegalArgumentException(flag + " " + requirement + ", but was " + value);
  }
}
