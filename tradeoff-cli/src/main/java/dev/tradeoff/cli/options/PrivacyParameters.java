package dev.tradeoff.cli.options;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.beam.label.Aggregator;
import dev.tradeoff.beam.runner.BeamRunner;
import dev.tradeoff.cli.io.Inputs;
import java.util.function.DoubleUnaryOperator;
import java.util.function.Function;
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
  public static final class Epsilon extends Checked {
    public Epsilon() {
      super(v -> Inputs.epsilon("", v));
    }
  }

  /** ε in {@code [0, Inputs.MAX_EPSILON]} ({@link Inputs#epsilonOrZero}). */
  public static final class EpsilonOrZero extends Checked {
    public EpsilonOrZero() {
      super(v -> Inputs.epsilonOrZero("", v));
    }
  }

  /**
   * A total ε budget in {@code [Inputs.MIN_EPSILON, MAX_TOTAL_EPSILON]} (tune's {@code --budget},
   * spent over many runs, so beyond one release's {@link Inputs#MAX_EPSILON}).
   */
  public static final class TotalEpsilon extends Checked {
    public TotalEpsilon() {
      super(v -> Inputs.range("", v, Inputs.MIN_EPSILON, MAX_TOTAL_EPSILON,
          "a total epsilon budget"));
    }
  }

  /** Largest total ε budget ({@link TotalEpsilon}). */
  public static final double MAX_TOTAL_EPSILON = 10_000;

  /** A target δ in {@code [Inputs.MIN_DELTA, 1)} ({@link Inputs#delta}). */
  public static final class Delta extends Checked {
    public Delta() {
      super(v -> Inputs.delta("", v));
    }
  }

  /** δ in {@code [0, 1)} ({@link Inputs#deltaOrZero}). */
  public static final class DeltaOrZero extends Checked {
    public DeltaOrZero() {
      super(v -> Inputs.deltaOrZero("", v));
    }
  }

  /** A GDP μ in {@code [0, Inputs.MAX_MU]}. */
  public static final class GdpMu extends Checked {
    public GdpMu() {
      super(v -> Inputs.range("", v, 0, Inputs.MAX_MU, "a GDP mu, 1/sigma of a Gaussian"));
    }
  }

  /** A zCDP ρ in {@code [0, Inputs.MAX_RHO]}. */
  public static final class ZcdpRho extends Checked {
    public ZcdpRho() {
      super(v -> Inputs.range("", v, 0, Inputs.MAX_RHO, "a zCDP rho, 1/(2 sigma^2) of a Gaussian"));
    }
  }

  /**
   * A budget {@code EPSILON,DELTA} ({@code --ledger-budget}, {@code --answer-until}, {@code
   * --budget}): ε as {@link Epsilon}, δ as {@link Delta}, one {@link ApproxDp}. A refusal names
   * the part: {@code --budget delta must be in [1E-300, 1) (a privacy delta), but was 2.0}.
   */
  public static final class Budget implements ITypeConverter<ApproxDp> {
    @Override
    public ApproxDp convert(String text) {
      String[] parts = text.split(",", -1);
      if (parts.length != 2) {
        throw new TypeConversionException("must be EPSILON,DELTA, but was '" + text + "'");
      }
      return new ApproxDp(part("epsilon", parts[0], new Epsilon()),
          part("delta", parts[1], new Delta()));
    }

    private static double part(String name, String text, Checked rule) {
      try {
        return rule.convert(text);
      } catch (TypeConversionException e) {
        throw new TypeConversionException(name + " " + e.getMessage());
      }
    }
  }

  /** The label job's aggregator by its command-line name ({@link Aggregator#parse}). */
  public static final class AggregatorName extends Named<Aggregator> {
    public AggregatorName() {
      super(Aggregator::parse, "dp-majority, darrm-opt, darrm-sub, gnmax");
    }
  }

  /** An accounting method by its command-line name ({@link AccountingMethod#parse}). */
  public static final class MethodName extends Named<AccountingMethod> {
    public MethodName() {
      super(AccountingMethod::parse, "basic, kairouz, optimal, rdp, zcdp, gdp, pld");
    }
  }

  /** A Beam runner by its command-line name ({@link BeamRunner#parse}). */
  public static final class RunnerName extends Named<BeamRunner> {
    public RunnerName() {
      super(BeamRunner::parse, "direct, spark, flink");
    }
  }

  /**
   * A number, checked by one of {@link Inputs}' rules; its refusal without a flag name (the
   * handler puts the flag's name in front).
   */
  private abstract static class Checked implements ITypeConverter<Double> {
    private final DoubleUnaryOperator rule;

    Checked(DoubleUnaryOperator rule) {
      this.rule = rule;
    }

    @Override
    public Double convert(String text) {
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

  /** One of a few names, by the parser of the type it names. */
  private abstract static class Named<T> implements ITypeConverter<T> {
    private final Function<String, T> parse;
    private final String names;

    Named(Function<String, T> parse, String names) {
      this.parse = parse;
      this.names = names;
    }

    @Override
    public T convert(String text) {
      try {
        return parse.apply(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("must be one of " + names + ", but was " + text);
      }
    }
  }
}
