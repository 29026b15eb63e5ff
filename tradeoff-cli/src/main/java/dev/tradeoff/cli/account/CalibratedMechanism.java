package dev.tradeoff.cli.account;

import dev.tradeoff.cli.io.Inputs;
import dev.tradeoff.cli.io.Spec;
import dev.tradeoff.cli.options.Parsed;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code --mechanism} of {@code account calibrate}, parsed and its parameters checked when
 * the arguments are parsed ({@link Converter}).
 */
sealed interface CalibratedMechanism {

  /** The spec's name, the record's in lower case with hyphens ({@code subsampled-gaussian}). */
  default String name() {
    return getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1-$2")
        .toLowerCase(Locale.ROOT);
  }

  /** The Gaussian mechanism. */
  record Gaussian() implements CalibratedMechanism {}

  /** The Laplace mechanism. */
  record Laplace() implements CalibratedMechanism {}

  /** DP-SGD steps with Poisson sampling at rate {@code q}. */
  record SubsampledGaussian(double q) implements CalibratedMechanism {}

  /** DP-SGD steps on batches of {@code batch} drawn without replacement from {@code n}. */
  record BatchGaussian(int n, int batch) implements CalibratedMechanism {}

  /** Shuffled epochs of {@code batches} batches. */
  record ShuffledGaussian(int batches) implements CalibratedMechanism {}

  /** The spec syntax, for refusals and help. */
  String SYNTAX = "gaussian, laplace, subsampled-gaussian:q=Q, batch-gaussian:n=N,batch=B or"
      + " shuffled-gaussian:batches=T";

  /** {@code @Option(converter = CalibratedMechanism.Converter.class)}. */
  final class Converter extends Parsed<CalibratedMechanism> {
    Converter() {
      super(Converter::parse);
    }

    static CalibratedMechanism parse(String text) {
      Spec spec = Spec.parse("--mechanism", text);
      switch (spec.name()) {
        case "gaussian":
          spec.allowOnly(Set.of());
          return new Gaussian();
        case "laplace":
          spec.allowOnly(Set.of());
          return new Laplace();
        case "subsampled-gaussian":
          spec.allowOnly(Set.of("q"));
          return new SubsampledGaussian(Inputs.rate(spec.flag("q"), spec.number("q")));
        case "batch-gaussian": {
          spec.allowOnly(Set.of("n", "batch"));
          int n = Inputs.count(spec.flag("n"), spec.integer("n"), 1, Integer.MAX_VALUE);
          return new BatchGaussian(n, Inputs.count(spec.flag("batch"), spec.integer("batch"), 1,
              n));
        }
        case "shuffled-gaussian":
          spec.allowOnly(Set.of("batches"));
          return new ShuffledGaussian(Inputs.count(spec.flag("batches"), spec.integer("batches"),
              1, Integer.MAX_VALUE));
        default:
          throw new IllegalArgumentException("--mechanism must be " + SYNTAX + ", but was '"
              + text + "'");
      }
    }
  }
}
