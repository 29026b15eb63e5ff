package dev.tradeoff.cli.reproduce;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Progress;
import dev.tradeoff.experiments.amplification.BernoulliReproduction;
import java.io.PrintWriter;
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

  @Option(
      names = "--threads",
      description = "points computed at once (default: the available processors, ${DEFAULT-VALUE})")
  int threads = Runtime.getRuntime().availableProcessors();

  /** The counts, and the point that has run longest with its running time. */
  private static String running(BernoulliReproduction.State state) {
    if (state.running().isEmpty()) {
      return state.counts();
    }
    double seconds = (System.nanoTime() - state.runningSince()) / 1e9;
    return state.counts() + "; longest running " + state.running() + " for "
        + Progress.duration(seconds);
  }

  @Override
  public Integer call() throws Exception {
    Inputs.count("--threads", threads, 1, 1024);
    Inputs.outputDirectory("--out", out);
    Progress progress = Progress.of(spec);
    progress.expect(35.0 * 2 / Math.min(threads, 2), "about 35 s on 2 idle cores: the 2 min 15 s"
        + " measured there before the certificate's search was made 3.9 times cheaper in CPU;"
        + " under load longer");
    progress.phase("computing distinct points (alpha, c, dk, epsilon)");
    BernoulliReproduction.Written written =
        BernoulliReproduction.write(out, threads, state -> {
          progress.count(state.done(), state.total());
          progress.detail(() -> running(state));
        });
    PrintWriter console = spec.commandLine().getOut();
    console.printf(
        "wrote %d figures and %s (%d rows); %s; of the %d rows where Post was searched, %d"
            + " certified%n",
        written.figures().size(), written.csv(), written.rows().size(),
        new BernoulliReproduction.State(
                written.points(), written.points(), written.searchedPoints(),
                written.certifiedPoints(), "", 0)
            .counts(),
        written.searched(), written.certified());
    console.flush();
    return 0;
  }
}
