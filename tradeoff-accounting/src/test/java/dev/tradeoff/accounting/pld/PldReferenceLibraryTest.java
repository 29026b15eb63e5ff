package dev.tradeoff.accounting.pld;

import static dev.tradeoff.accounting.guarantee.Neighbouring.ADD_OR_REMOVE_ONE;
import static dev.tradeoff.accounting.guarantee.Neighbouring.REPLACE_ONE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.EpsilonBounds;
import dev.tradeoff.accounting.guarantee.Neighbouring;
import dev.tradeoff.accounting.guarantee.PureDp;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The PLD bracket at the default settings against an independent implementation: the pessimistic
 * ε of the PLD accountant of Google's dp_accounting library (version and commit in the resource
 * {@code dp-accounting-reference.csv}, written by {@code src/test/python/dp_accounting_reference.py}
 * with the library's default interval 1e-4). Its value is an upper bound on the true ε, so it must
 * be at least our lower bound; and our upper bound may be looser than it by at most {@value
 * #LOOSER} relative (where ours is tighter, nothing is required).
 */
class PldReferenceLibraryTest {

  /** The most our upper bound may exceed the library's pessimistic ε, relative. */
  private static final double LOOSER = 1e-3;

  private record Case(DpEvent event, Neighbouring neighbouring) {}

  private static final Map<String, Case> CASES = new LinkedHashMap<>();

  static {
    CASES.put("gaussian:sigma=1;count=100", added(new SelfComposedEvent(new GaussianEvent(1), 100)));
    CASES.put("gaussian:sigma=2;count=2000",
        added(new SelfComposedEvent(new GaussianEvent(2), 2000)));
    CASES.put("dpsgd:q=0.004,sigma=1.1;count=1000", added(dpSgd(0.004, 1.1, 1000)));
    CASES.put("dpsgd:q=0.004,sigma=1.1;count=10000", added(dpSgd(0.004, 1.1, 10_000)));
    CASES.put("dpsgd:q=0.01,sigma=0.8;count=10000", added(dpSgd(0.01, 0.8, 10_000)));
    CASES.put("laplace:scale=1;count=50", added(new SelfComposedEvent(new LaplaceEvent(1), 50)));
    CASES.put("laplace:scale=10;count=1000",
        added(new SelfComposedEvent(new LaplaceEvent(10), 1000)));
    CASES.put("rr:epsilon=1,categories=2;count=100", new Case(
        new SelfComposedEvent(new RandomizedResponseEvent(1, 2), 100), REPLACE_ONE));
    CASES.put("rr:epsilon=0.5,categories=10;count=200", new Case(
        new SelfComposedEvent(new RandomizedResponseEvent(0.5, 10), 200), REPLACE_ONE));
    CASES.put("pure:epsilon=0.3;count=100",
        added(new SelfComposedEvent(new GuaranteeEvent(new PureDp(0.3)), 100)));
    CASES.put("mixture:gaussian(2)x10+laplace(2)x10+dpsgd(0.01,1)x500", added(ComposedEvent.of(
        new SelfComposedEvent(new GaussianEvent(2), 10),
        new SelfComposedEvent(new LaplaceEvent(2), 10),
        dpSgd(0.01, 1, 500))));
    CASES.put("mixture:laplace(5)x20+dpsgd(0.02,1.5)x300+pure(0.1)x10", added(ComposedEvent.of(
        new SelfComposedEvent(new LaplaceEvent(5), 20),
        dpSgd(0.02, 1.5, 300),
        new SelfComposedEvent(new GuaranteeEvent(new PureDp(0.1)), 10))));
  }

  private static Case added(DpEvent event) {
    return new Case(event, ADD_OR_REMOVE_ONE);
  }

  private static DpEvent dpSgd(double q, double sigma, int steps) {
    return new SelfComposedEvent(new PoissonSampledEvent(q, new GaussianEvent(sigma)), steps);
  }

  /** name, δ, the library's ε. */
  private record Reference(String name, double delta, double epsilon) {}

  private static List<Reference> references() throws IOException {
    List<Reference> rows = new ArrayList<>();
    try (InputStream in = PldReferenceLibraryTest.class.getResourceAsStream(
            "dp-accounting-reference.csv");
        BufferedReader reader =
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("#") || line.startsWith("name,") || line.isBlank()) {
          continue;
        }
        String[] fields = line.split(",(?=[^,]*,[^,]*$)");
        String[] numbers = fields[1].split(",");
        rows.add(new Reference(
            fields[0], Double.parseDouble(numbers[0]), Double.parseDouble(numbers[1])));
      }
    }
    return rows;
  }

  @Test
  void everyCaseOfTheFileIsKnownAndEveryKnownCaseIsInTheFile() throws IOException {
    List<String> names = references().stream().map(Reference::name).toList();
    assertThat(names).containsExactlyInAnyOrderElementsOf(CASES.keySet());
  }

  @Test
  void ourBracketIsConsistentWithTheLibrarysPessimisticEpsilon() throws IOException {
    PldAccountant accountant = new PldAccountant();
    for (Reference reference : references()) {
      Case c = CASES.get(reference.name());
      EpsilonBounds bounds =
          accountant.epsilonBounds(c.event(), c.neighbouring(), reference.delta());
      String what = reference + " ours " + bounds;
      assertThat(bounds.lower()).as(what).isLessThanOrEqualTo(reference.epsilon());
      assertThat(bounds.upper()).as(what)
          .isLessThanOrEqualTo(reference.epsilon() * (1 + LOOSER));
    }
  }
}
