package dev.tradeoff.accounting.accountant;

import dev.tradeoff.accounting.event.DpEvent;
import java.util.Optional;
import java.util.function.Function;

/**
 * What an accountant's one walk of an event tree found: the value it composes from, or the reason
 * it cannot account for the event. "Supports" and "accounts" both read this one answer, so they
 * cannot disagree.
 *
 * @param <T> what the accountant composes (a ρ, an RDP curve, a list of loss models, …)
 */
public sealed interface Analysis<T> {

  /** The event is supported; {@code value} is what the accountant composes. */
  record Supported<T>(T value) implements Analysis<T> {}

  /** The event is not supported, for the given reason. */
  record Refused<T>(String why) implements Analysis<T> {}

  static <T> Analysis<T> of(T value) {
    return new Supported<>(value);
  }

  static <T> Analysis<T> refused(String reason) {
    return new Refused<>(reason);
  }

  /** The value transformed, or the same refusal. */
  default <U> Analysis<U> map(Function<? super T, ? extends U> f) {
    return flatMap(v -> of(f.apply(v)));
  }

  /** The next analysis of the value, or the same refusal. */
  default <U> Analysis<U> flatMap(Function<? super T, Analysis<U>> f) {
    if (this instanceof Supported<T> s) {
      return f.apply(s.value());
    }
    return refused(((Refused<T>) this).why());
  }

  /** Empty if supported, else the reason. */
  default Optional<String> reason() {
    return this instanceof Refused<T> r ? Optional.of(r.why()) : Optional.empty();
  }

  /**
   * The value.
   *
   * @throws UnsupportedEventException naming the method, the event and the reason, if refused
   */
  default T orThrow(AccountingMethod method, DpEvent event) {
    if (this instanceof Refused<T> r) {
      throw new UnsupportedEventException(method, event, r.why());
    }
    return ((Supported<T>) this).value();
  }
}
