package dev.tradeoff.cli.account;

import dev.tradeoff.accounting.guarantee.Neighbouring;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --neighbouring} flag of {@code account compose} and {@code account calibrate}, a
 * mixin: add-remove or replace, converted once when the arguments are parsed, so the commands
 * receive a {@link Neighbouring} and check nothing.
 */
final class NeighbouringFlag {

  @Option(
      names = "--neighbouring",
      defaultValue = "add-remove",
      converter = Converter.class,
      description = "add-remove or replace (default: ${DEFAULT-VALUE}).")
  Neighbouring relation;

  /** The flag's spelling of {@code relation}. */
  static String name(Neighbouring relation) {
    return relation == Neighbouring.ADD_OR_REMOVE_ONE ? "add-remove" : "replace";
  }

  /** add-remove or replace; anything else is refused with the flag's one-line message. */
  static final class Converter implements ITypeConverter<Neighbouring> {
    @Override
    public Neighbouring convert(String text) {
      return switch (text) {
        case "add-remove" -> Neighbouring.ADD_OR_REMOVE_ONE;
        case "replace" -> Neighbouring.REPLACE_ONE;
        default -> throw new TypeConversionException(
            "must be add-remove or replace, but was '" + text + "'");
      };
    }
  }
}
