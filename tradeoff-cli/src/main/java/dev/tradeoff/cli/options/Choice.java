package dev.tradeoff.cli.options;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converter of a flag that names one constant of an enum, by the constant's name in lower
 * case with hyphens ({@code CONFIDENT_GNMAX} is {@code confident-gnmax}), so that a command
 * receives the constant and checks nothing. A refusal lists the names, in the enum's order:
 * {@code must be counts or predictions, but was 'x'} (the handler puts the flag's name in front).
 *
 * @param <E> the enum
 */
public abstract class Choice<E extends Enum<E>> implements ITypeConverter<E> {

  private final Class<E> type;

  /** The converter of {@code type}'s constants. */
  protected Choice(Class<E> type) {
    this.type = type;
  }

  /** How the command line spells {@code constant}. */
  public static String name(Enum<?> constant) {
    return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public E convert(String text) {
    for (E constant : type.getEnumConstants()) {
      if (name(constant).equals(text)) {
        return constant;
      }
    }
    List<String> names = Arrays.stream(type.getEnumConstants()).map(Choice::name).toList();
    String last = names.get(names.size() - 1);
    String listed = names.size() == 1 ? last
        : String.join(", ", names.subList(0, names.size() - 1)) + " or " + last;
    throw new TypeConversionException("must be " + listed + ", but was '" + text + "'");
  }
}
