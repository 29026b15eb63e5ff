package dev.tradeoff.cli.options;

import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The converter of a flag whose value a parser reads and checks, refusing with an {@link
 * IllegalArgumentException} that names the flag (a spec: {@code --mechanism gaussian:sigma must
 * be in ..., but was ...}); the refusal is the flag's one line.
 *
 * @param <T> what the flag's value becomes
 */
public abstract class Parsed<T> implements ITypeConverter<T> {

  private final Function<String, T> parser;

  /** The converter by {@code parser}. */
  protected Parsed(Function<String, T> parser) {
    this.parser = parser;
  }

  @Override
  public T convert(String text) {
    try {
      return parser.apply(text);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage());
    }
  }
}
