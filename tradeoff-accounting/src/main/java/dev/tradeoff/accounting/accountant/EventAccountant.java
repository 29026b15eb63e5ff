package dev.tradeoff.accounting.accountant;

import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PrivacyProfile;
import dev.tradeoff.accounting.internal.Require;
import java.util.Optional;

/**
 * An accountant whose "supports" and "accounts" are one walk of the event tree ({@link #analyse}):
 * {@link #whyUnsupported} is that walk's refusal and {@link #account} builds the profile from its
 * value, so the two cannot drift apart. The inputs are checked once, before any work.
 *
 * @param <T> what the walk produces and the profile is built from
 * @param <P> the profile type
 */
public abstract class EventAccountant<T, P extends PrivacyProfile> implements Accountant {

  /** The one walk of the event tree under the relation: cheap, it computes no profile. */
  protected abstract Analysis<T> analyse(DpEvent event, Neighbouring neighbouring);

  /** The profile from a supported walk's value. */
  protected abstract P profile(T value);

  @Override
  public final Optional<String> whyUnsupported(DpEvent event, Neighbouring neighbouring) {
    return analysis(event, neighbouring).reason();
  }

  /**
   * The privacy profile of the event.
   *
   * @throws UnsupportedEventException if the event is not supported under the relation
   */
  @Override
  public final P account(DpEvent event, Neighbouring neighbouring) {
    return profile(analysed(event, neighbouring));
  }

  /**
   * The walk's value for a supported event.
   *
   * @throws UnsupportedEventException if the event is not supported under the relation
   */
  protected final T analysed(DpEvent event, Neighbouring neighbouring) {
    return analysis(event, neighbouring).orThrow(method(), event);
  }

  private Analysis<T> analysis(DpEvent event, Neighbouring neighbouring) {
    Require.nonNull("event", event);
    Require.nonNull("neighbouring", neighbouring);
    return analyse(event, neighbouring);
  }
}
