package dev.tradeoff.accounting.accountant;

import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.DpEventVisitor;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.event.ShuffledEpochsEvent;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import java.util.ArrayList;
import java.util.List;

/**
 * An accountant's walk of an event tree where composition is handled the same way by every method:
 * a k-fold self-composition is the inner value {@link #repeated} k times, a composition is its
 * parts' values {@link #together}, and the first refused part (in the order the events ran)
 * refuses the whole. Shuffled epochs are, under replace-one neighbouring, the epochs-fold
 * composition of one unsampled step (see {@link ShuffledEpochsEvent}) and refused under any other
 * relation; that is an upper bound only, so an accountant whose answers also bound the truth from
 * below overrides it to give up its lower bound there. Subclasses say what each other kind of
 * event contributes.
 *
 * @param <T> what the accountant composes
 */
public abstract class CompositionWalk<T> implements DpEventVisitor<Analysis<T>> {

  /** The relation the tree is accounted under; null where the caller does not know it. */
  private final Neighbouring neighbouring;

  /** @param neighbouring the relation, or null where the caller does not know it */
  protected CompositionWalk(Neighbouring neighbouring) {
    this.neighbouring = neighbouring;
  }

  /** The relation the tree is accounted under; null where the caller does not know it. */
  protected final Neighbouring neighbouring() {
    return neighbouring;
  }

  /** The value of k adaptive runs of an event whose value is given; may refuse (e.g. overflow). */
  protected abstract Analysis<T> repeated(T value, int count);

  /** The value of the events run in order, given theirs (at least one); may refuse. */
  protected abstract Analysis<T> together(List<T> values);

  /** The analysis of any event: dispatches to this walk's method for its kind. */
  public final Analysis<T> of(DpEvent event) {
    return event.accept(this);
  }

  @Override
  public final Analysis<T> selfComposed(SelfComposedEvent event) {
    return of(event.event()).flatMap(v -> repeated(v, event.count()));
  }

  @Override
  public Analysis<T> shuffledEpochs(ShuffledEpochsEvent event) {
    if (neighbouring != Neighbouring.REPLACE_ONE) {
      return Analysis.refused("shuffled epochs are analysed under replace-one neighbouring only"
          + " (each record in one batch per epoch, no amplification), but the relation was "
          + (neighbouring == null ? "not given" : neighbouring));
    }
    return selfComposed(new SelfComposedEvent(event.step(), event.epochs()));
  }

  @Override
  public final Analysis<T> composed(ComposedEvent event) {
    List<T> values = new ArrayList<>();
    for (DpEvent e : event.events()) {
      Analysis<T> part = of(e);
      if (part instanceof Analysis.Refused<T>) {
        return part;
      }
      values.add(((Analysis.Supported<T>) part).value());
    }
    return together(values);
  }
}
