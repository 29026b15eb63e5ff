package dev.tradeoff.cli.options;

import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.io.Inputs;
import java.util.function.DoubleUnaryOperator;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters of the flags that carry a privacy parameter or a choice, checked once when the
 * arguments are parsed ({@code @Option(converter = PrivacyParameters.Epsilon.class)}), so that a
 * command's {@code call()} receives values in range and checks nothing. A refusal is the flag's
 * one line, as {@link Inputs} words it: {@code --epsilon must be in [1E-6, 100] (...), but was
 * -1.0}.
 */
public final class PrivacyParameters {

  private PrivacyParameters() {}

  /** ε in {@code [Inputs.MIN_EPSILON, Inputs.MAX_EPSILON]} ({@link Inputs#epsilon}). */
  public static final class Epsilon implements ITypeConverter<Double> {
    @Override
    public Double convert(String text) {
      return checked(text, v -> Inputs.epsilon("", v));
    }
  }

  /** ε in {@code [0, Inputs.MAX_EPSILON]} ({@link Inputs#epsilonOrZero}). */
  public static final class EpsilonOrZero implements ITypeConverter<Double> {
    @Override
    public Double convert(String text) {
      return checked(text, v -> Inputs.epsilonOrZero("", v));
    }
  }

  /** A target δ in {@code [Inputs.MIN_DELTA, 1)} ({@link Inputs#delta}). */
  public static final class Delta implements ITypeConverter<Double> {
    @Override
    public Double convert(String text) {
      return checked(text, v -> Inputs.delta("", v));
    }
  }

  /** δ in {@code [0, 1)} ({@link Inputs#deltaOrZero}). */
  public static final class DeltaOrZero implements ITypeConverter<Double> {
    @Override
    public Double convert(String text) {
      return checked(text, v -> Inputs.deltaOrZero("", v));
    }
  }

  /** The label job's aggregator by its command-line name ({@link Aggregator#parse}). */
  public static final class AggregatorName implements ITypeConverter<Aggregator> {
    @Override
    public Aggregator convert(String text) {
      try {
        return Aggregator.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("must be one of dp-majority, darrm-opt, darrm-sub, "
            + "gnmax, but was " + text);
      }
    }
  }

  /** A Beam runner by its command-line name ({@link BeamRunner#parse}). */
  public static final class RunnerName implements ITypeConverter<BeamRunner> {
    @Override
    public BeamRunner convert(String text) {
      try {
        return BeamRunner.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("must be one of direct, spark, flink, but was " + text);
      }
    }
  }

  /**
   * The number, checked by one of {@link Inputs}' rules; its refusal without a flag name (the
   * handler puts the flag's name in front).
   */
  private static double checked(String text, DoubleUnaryOperator rule) {
    double value;
    try {
      value = Double.parseDouble(text.strip());
    } catch (NumberFormatException e) {
      throw new TypeConversionException("must be a number, but was '" + text + "'");
    }
    try {
      return rule.applyAsDouble(value);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage().strip());
    }
  }
}
