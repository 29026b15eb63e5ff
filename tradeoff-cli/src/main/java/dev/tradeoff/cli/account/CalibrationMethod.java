package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.accountant.AccountingMethod;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --method} of {@code account calibrate}: the analytic Gaussian mechanism (Balle and
 * Wang, "Improving the Gaussian Mechanism for Differential Privacy: Analytical Calibration and
 * Optimal Denoising", ICML 2018, Theorem 8; one release) or an accountant, converted when the
 * arguments are parsed. Which methods a mechanism allows is {@link CalibrationRequest}'s rule.
 */
sealed interface CalibrationMethod {

  /** The flag's spelling. */
  String cliName();

  /** Whether this is the accountant {@code method}. */
  default boolean is(AccountingMethod method) {
    return this instanceof ByAccountant a && a.method() == method;
  }

  /** The exact σ of one Gaussian release. */
  record Analytic() implements CalibrationMethod {
    @Override
    public String cliName() {
      return "analytic";
    }
  }

  /** The smallest noise an accountant certifies. */
  record ByAccountant(AccountingMethod method) implements CalibrationMethod {
    @Override
    public String cliName() {
      return method.cliName();
    }
  }

  /** analytic or an accounting method's name; anything else is the flag's one-line refusal. */
  final class Converter implements ITypeConverter<CalibrationMethod> {
    @Override
    public CalibrationMethod convert(String text) {
      if (text.equalsIgnoreCase("analytic")) {
        return new Analytic();
      }
      try {
        return new ByAccountant(AccountingMethod.parse(text));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException("must be one of analytic, basic, kairouz, optimal, rdp,"
            + " zcdp, gdp, pld, but was '" + text + "'");
      }
    }
  }
}
