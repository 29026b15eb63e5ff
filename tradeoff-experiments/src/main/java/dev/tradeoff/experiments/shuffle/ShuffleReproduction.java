package dev.tradeoff.experiments.shuffle;

import dev.tradeoff.shuffle.analysis.ShuffleReport;
import dev.tradeoff.shuffle.protocol.ShuffleParameters;
import java.io.IOException;
import java.nio.file.Path;

/**
 * [ShuffleGDP21, Figure 1 (a)–(d)] (n = 100, λ = 58, r = 10) as PNGs, each
 * with the exact worst-case analysis added.
 */
public final class ShuffleReproduction {

  /**
   * The two analysed settings.
   *
   * @param binary the binary sum (r = 1), Figure 1 (a)/(b)
   * @param real the real sum (r = 10), Figure 1 (c)/(d)
   */
  public record Reports(ShuffleReport binary, ShuffleReport real) {}

  private ShuffleReproduction() {}

  /** Analyses both settings and writes {@code figure1a.png} … {@code figure1d.png} into out. */
  public static Reports write(Path out) throws IOException {
    ShuffleParameters parameters = new ShuffleParameters(100, 58);
    ShuffleReport binary = ShuffleReport.of(parameters, 1, 1e-6);
    ShuffleReport real = ShuffleReport.of(parameters, 10, 1e-6);
    ShuffleFigures.tradeoffChart(binary,
        "Figure 1 (a): binary sum, n = 100, lambda = 58", out.resolve("figure1a.png"));
    ShuffleFigures.epsilonDeltaChart(binary,
        "Figure 1 (b): binary sum, (epsilon, delta)", out.resolve("figure1b.png"));
    ShuffleFigures.tradeoffChart(real,
        "Figure 1 (c): real sum, n = 100, lambda = 58, r = 10", out.resolve("figure1c.png"));
    ShuffleFigures.epsilonDeltaChart(real,
        "Figure 1 (d): real sum, r = 10, (epsilon, delta)", out.resolve("figure1d.png"));
    return new Reports(binary, real);
  }
}
