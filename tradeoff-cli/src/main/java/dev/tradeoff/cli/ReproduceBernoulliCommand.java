package dev.tradeoff.cli;

import dev.tradeoff.experiments.amplification.BernoulliReproduction;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tradeoff reproduce bernoulli}: Figures 1 and 2 (k = 1; d ∈ {1,2,3} and {5,15}; c ∈
 * {0.01, 0.1, 0.3}; α ∈ {50, 5}) and Figure 3 (c = 0.1, α = 50, k ∈ {1,2,4}, d ∈ {1,3,5}) of
 * [BernAmp21], as PNGs over ε ∈ (0, 30] without truncation, plus {@code bernoulli.csv}.
 */
@Command(
    name = "bernoulli",
    mixinStandardHelpOptions = true,
    description = "Figures 1-3 of 'Privacy Amplification by Bernoulli Sampling' and a CSV.")
public final class ReproduceBernoulliCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--out", defaultValue = "reproduce-bernoulli", description = "output directory")
  Path out;

  @Override
  public Integer call() throws Exception {
    ProgressLine bar =
        new ProgressLine(spec.commandLine().getErr(), ProgressLine.stderrIsTerminal());
    BernoulliReproduction.Written written = BernoulliReproduction.write(out, bar::update);
    bar.done();
    PrintWriter console = spec.commandLine().getOut();
    console.printf(
        "wrote %d figures and %s (%d rows; Post searched at %d points, %d certified)%n",
        written.figures().size(), written.csv(), written.rows().size(), written.searched(),
        written.certified());
    console.flush();
    return 0;
  }

  /**
   * Progress on standard error: a bar redrawn in place when stderr is a terminal, otherwise (a log
   * file, a pipe) a plain line at most every ten seconds and at the end, with no escape sequences.
   */
  static final class ProgressLine {
    private static final long PLAIN_PERIOD_NANOS = 10_000_000_000L;
    private final PrintWriter err;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private long lastPlain = start;
    private boolean shown;

    ProgressLine(PrintWriter err, boolean terminal) {
      this.err = err;
      this.terminal = terminal;
    }

    /** Whether file descriptor 2 is a terminal (Linux: /proc/self/fd/2 links to a tty). */
    static boolean stderrIsTerminal() {
      try {
        String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (IOException | UnsupportedOperationException | SecurityException e) {
        return false;
      }
    }

    void update(int done, int total, int certified) {
      long now = System.nanoTime();
      long seconds = (now - start) / 1_000_000_000L;
      if (terminal) {
        int width = 30;
        int filled = (int) ((long) done * width / Math.max(1, total));
        err.printf(
            "\r\033[K[%s%s] %d/%d points, %d certified, %d:%02d",
            "#".repeat(filled), " ".repeat(width - filled), done, total, certified,
            seconds / 60, seconds % 60);
        err.flush();
        shown = true;
      } else if (now - lastPlain >= PLAIN_PERIOD_NANOS || done == total) {
        lastPlain = now;
        err.printf(
            "reproduce bernoulli: %d/%d points, %d certified, %d s%n",
            done, total, certified, seconds);
        err.flush();
      }
    }

    void done() {
      if (shown) {
        err.println();
        err.flush();
      }
    }
  }
}
