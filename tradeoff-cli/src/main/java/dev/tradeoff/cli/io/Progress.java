package dev.tradeoff.cli.io;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Progress of one command run on standard error. Every command gets one (the root command starts
 * it around each run), so any run longer than {@link #SILENT_SECONDS} says what it is doing and for
 * how long, with the time remaining when the command reports a fraction done ({@link #step}). On
 * a terminal the line is redrawn in place with escape codes; when standard error is redirected it
 * prints plain lines, at most one every {@link #PLAIN_EVERY_SECONDS} seconds (and on each new
 * phase), never an escape code. {@code --quiet} silences it. Standard output is never touched.
 *
 * <p>A long command says up front about how long it will take ({@link #expect}); a phase that
 * checks input and may end in a refusal ({@link #checking}) prints no plain lines, so a refusal is
 * one line with no progress before it.
 *
 * <p>Use in a command: {@code Progress p = Progress.of(spec); p.phase("training"); p.step(i, n);}.
 */
public final class Progress implements AutoCloseable {

  /** Runs shorter than this print nothing. */
  public static final double SILENT_SECONDS = 2;
  /** Interval between plain (redirected) progress lines. */
  public static final double PLAIN_EVERY_SECONDS = 5;

  private static final Progress NONE = new Progress(null, "", false, false);

  private final PrintWriter err;
  private final String command;
  private final boolean terminal;
  private final boolean enabled;
  private final long started = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private String phase = "working";
  private double fraction = Double.NaN;
  private boolean estimate;
  private Supplier<String> detail = () -> "";
  private double lastPlain = Double.NEGATIVE_INFINITY;
  private boolean phaseChanged;
  private boolean drawn;
  private boolean checking;
  private double expected = Double.NaN;

  private Progress(PrintWriter err, String command, boolean terminal, boolean enabled) {
    this.err = err;
    this.command = command;
    this.terminal = terminal;
    this.enabled = enabled;
    if (enabled) {
      ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tradeoff-progress");
        t.setDaemon(true);
        return t;
      });
      ticker.scheduleAtFixedRate(this::tick, 500, 500, TimeUnit.MILLISECONDS);
    } else {
      ticker = null;
    }
  }

  /** The root command of a run: the progress in flight and whether {@code --quiet} was given. */
  public interface Owner {
    /** The progress of the run in flight, or null between runs. */
    Progress progress();

    /** Whether progress is silenced. */
    boolean quiet();
  }

  /** Starts the progress of {@code command}, printing to {@code err} unless {@code quiet}. */
  public static Progress start(PrintWriter err, String command, boolean terminal, boolean quiet) {
    return new Progress(err, command, terminal, !quiet);
  }

  /** The progress of the run that {@code spec} belongs to (a silent one outside a run). */
  public static Progress of(CommandSpec spec) {
    Object root = spec.root().userObject();
    Progress p = root instanceof Owner o ? o.progress() : null;
    return p == null ? NONE : p;
  }

  /** Whether {@code --quiet} was given to the run {@code spec} belongs to. */
  public static boolean quiet(CommandSpec spec) {
    return spec.root().userObject() instanceof Owner o && o.quiet();
  }

  /** A new phase (e.g. "training teachers"); its fraction done is unknown until {@link #step}. */
  public synchronized void phase(String name) {
    checking = false;
    if (!name.equals(phase)) {
      phase = name;
      fraction = Double.NaN;
      detail = () -> "";
      phaseChanged = true;
    }
  }

  /**
   * A phase that checks the input and may still end in a refusal: when standard error is
   * redirected, no line is printed for it (a refusal is one line, with no progress before it); on a
   * terminal it is drawn in place and erased. The next {@link #phase} ends it.
   */
  public synchronized void checking(String name) {
    phase(name);
    checking = true;
  }

  /**
   * Says at once, in one line, about how long the command will take and on what the figure rests
   * (e.g. "measured on a pilot of 20000 samples"); later lines show the time left against it while
   * no fraction done is known.
   */
  public synchronized void expect(double seconds, String basis) {
    expected = seconds;
    if (enabled) {
      String line = command + ": expected to take about " + duration(seconds) + " (" + basis + ")";
      err.print(terminal && drawn ? "\r\033[K" + line + "\n" : line + "\n");
      err.flush();
    }
  }

  /**
   * {@code done} of {@code total} units of the current phase are finished; the units cost about
   * the same, so the time left is estimated from the time so far.
   */
  public synchronized void step(long done, long total) {
    count(done, total);
    estimate = true;
    detail = () -> done + "/" + total;
  }

  /**
   * {@code done} of {@code total} units of very uneven cost are finished: the percentage is shown,
   * but no time left, which the count cannot predict.
   */
  public synchronized void count(long done, long total) {
    fraction = total <= 0 ? Double.NaN : Math.min(1, Math.max(0, (double) done / total));
    estimate = false;
  }

  /** Free text shown after the phase (e.g. "round 4, 120 cuts"). */
  public synchronized void detail(String text) {
    detail = () -> text;
  }

  /** Text shown after the phase, computed again at every redraw (e.g. a running clock). */
  public synchronized void detail(Supplier<String> text) {
    detail = text;
  }

  @Override
  public synchronized void close() {
    if (ticker != null) {
      ticker.shutdownNow();
    }
    if (drawn && terminal) {
      err.print("\r\033[K");
      err.flush();
    }
  }

  private synchronized void tick() {
    double elapsed = (System.nanoTime() - started) / 1e9;
    if (elapsed < SILENT_SECONDS) {
      return;
    }
    String line = line(elapsed);
    if (checking && !terminal) {
      return;
    }
    if (terminal) {
      err.print("\r\033[K" + line);
    } else if (phaseChanged || elapsed - lastPlain >= PLAIN_EVERY_SECONDS) {
      err.println(line);
      lastPlain = elapsed;
    } else {
      return;
    }
    phaseChanged = false;
    drawn = true;
    err.flush();
  }

  private String line(double elapsed) {
    StringBuilder s = new StringBuilder(command).append(": ").append(phase);
    String text = detail.get();
    if (!text.isEmpty()) {
      s.append(" (").append(text).append(')');
    }
    if (!Double.isNaN(fraction)) {
      s.append(String.format(Locale.ROOT, " %3.0f%%", 100 * fraction));
    }
    s.append(", ").append(duration(elapsed)).append(" elapsed");
    if (estimate && fraction > 0.02 && fraction < 1) {
      s.append(", about ").append(duration(elapsed * (1 - fraction) / fraction)).append(" left");
    } else if (Double.isNaN(fraction) && expected > elapsed) {
      s.append(", about ").append(duration(expected - elapsed)).append(" left");
    }
    return s.toString();
  }

  /** A duration as "42 s" or "3 min 5 s". */
  public static String duration(double seconds) {
    long s = Math.round(seconds);
    return s < 60 ? s + " s" : (s / 60) + " min " + (s % 60) + " s";
  }

  /**
   * Whether this process's standard error is a terminal: {@code /proc/self/fd/2} links to a
   * terminal device (Linux), else {@link System#console()} exists; never with {@code TERM=dumb}.
   */
  public static boolean stderrIsTerminal() {
    if ("dumb".equals(System.getenv("TERM"))) {
      return false;
    }
    Path fd = Path.of("/proc/self/fd/2");
    try {
      String target = Files.readSymbolicLink(fd).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return System.console() != null;
    }
  }
}
