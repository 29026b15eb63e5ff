package dev.tradeoff.ledger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.accounting.event.ComposedEvent;
import dev.tradeoff.accounting.event.DiscreteGaussianEvent;
import dev.tradeoff.accounting.event.DiscreteLaplaceEvent;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.event.GaussianEvent;
import dev.tradeoff.accounting.event.GuaranteeEvent;
import dev.tradeoff.accounting.event.LaplaceEvent;
import dev.tradeoff.accounting.event.PoissonSampledEvent;
import dev.tradeoff.accounting.event.RandomizedResponseEvent;
import dev.tradeoff.accounting.event.SampledWithoutReplacementEvent;
import dev.tradeoff.accounting.event.SelfComposedEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.GaussianDp;
import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.guarantee.PureDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import dev.tradeoff.accounting.guarantee.ZeroConcentratedDp;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of accounting events in ledger entries (entry format 1, docs/ledger.md). Every
 * number is written with Jackson's shortest round-trip form of a double, so reading gives back the
 * same event. An event tree with a guarantee that has no JSON form here (a tradeoff function, a
 * numerical privacy profile, an ex-post guarantee) is refused; the ledger then records the release
 * as an opaque (ε, δ) charge.
 */
final class EventJson {

  static final ObjectMapper MAPPER = new ObjectMapper();

  private EventJson() {}

  /** Whether {@link #write} can represent the event. */
  static boolean representable(DpEvent event) {
    try {
      write(event);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  static ObjectNode write(DpEvent event) {
    ObjectNode n = MAPPER.createObjectNode();
    if (event instanceof GaussianEvent g) {
      n.put("type", "gaussian").put("sigma", g.sigma());
    } else if (event instanceof LaplaceEvent l) {
      n.put("type", "laplace").put("scale", l.scale());
    } else if (event instanceof DiscreteGaussianEvent g) {
      n.put("type", "discrete-gaussian").put("sigma", g.sigma());
    } else if (event instanceof DiscreteLaplaceEvent l) {
      n.put("type", "discrete-laplace").put("scale", l.scale());
    } else if (event instanceof RandomizedResponseEvent r) {
      n.put("type", "randomized-response").put("epsilon", r.epsilon())
          .put("categories", r.categories());
    } else if (event instanceof PoissonSampledEvent p) {
      n.put("type", "poisson-sampled").put("q", p.samplingProbability());
      n.set("event", write(p.event()));
    } else if (event instanceof SampledWithoutReplacementEvent w) {
      n.put("type", "sampled-without-replacement").put("datasetSize", w.datasetSize())
          .put("sampleSize", w.sampleSize());
      n.set("event", write(w.event()));
    } else if (event instanceof SelfComposedEvent s) {
      n.put("type", "self-composed").put("count", s.count());
      n.set("event", write(s.event()));
    } else if (event instanceof ComposedEvent c) {
      n.put("type", "composed");
      ArrayNode a = n.putArray("events");
      for (DpEvent e : c.events()) {
        a.add(write(e));
      }
    } else if (event instanceof GuaranteeEvent g) {
      n.put("type", "guarantee");
      n.set("guarantee", writeGuarantee(g.guarantee()));
    } else {
      throw new IllegalArgumentException("no JSON form for event " + event);
    }
    return n;
  }

  static ObjectNode writeGuarantee(PrivacyGuarantee g) {
    ObjectNode n = MAPPER.createObjectNode();
    if (g instanceof PureDp p) {
      n.put("kind", "pure").put("epsilon", p.epsilon());
    } else if (g instanceof ApproxDp a) {
      n.put("kind", "approx").put("epsilon", a.epsilon()).put("delta", a.delta());
    } else if (g instanceof GaussianDp d) {
      n.put("kind", "gdp").put("mu", d.mu());
    } else if (g instanceof ZeroConcentratedDp z) {
      n.put("kind", "zcdp").put("rho", z.rho());
    } else if (g instanceof RenyiDp r) {
      n.put("kind", "renyi");
      n.set("orders", doubles(r.orders()));
      n.set("epsilons", doubles(r.epsilons()));
    } else {
      throw new IllegalArgumentException(
          "no JSON form for a " + g.getClass().getSimpleName() + " guarantee");
    }
    return n;
  }

  static ArrayNode doubles(double[] values) {
    ArrayNode a = MAPPER.createArrayNode();
    for (double v : values) {
      a.add(v);
    }
    return a;
  }

  static double[] readDoubles(JsonNode a, String what) {
    if (a == null || !a.isArray()) {
      throw new IllegalArgumentException("missing " + what);
    }
    double[] v = new double[a.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = number(a.get(i), what);
    }
    return v;
  }

  static DpEvent read(JsonNode n) {
    String type = text(n, "type");
    return switch (type) {
      case "gaussian" -> new GaussianEvent(number(n, "sigma"));
      case "laplace" -> new LaplaceEvent(number(n, "scale"));
      case "discrete-gaussian" -> new DiscreteGaussianEvent(number(n, "sigma"));
      case "discrete-laplace" -> new DiscreteLaplaceEvent(number(n, "scale"));
      case "randomized-response" ->
          new RandomizedResponseEvent(number(n, "epsilon"), integer(n, "categories"));
      case "poisson-sampled" -> new PoissonSampledEvent(number(n, "q"), read(child(n, "event")));
      case "sampled-without-replacement" -> new SampledWithoutReplacementEvent(
          integer(n, "datasetSize"), integer(n, "sampleSize"), read(child(n, "event")));
      case "self-composed" -> new SelfComposedEvent(read(child(n, "event")), integer(n, "count"));
      case "composed" -> {
        JsonNode a = child(n, "events");
        List<DpEvent> events = new ArrayList<>();
        for (JsonNode e : a) {
          events.add(read(e));
        }
        yield new ComposedEvent(events);
      }
      case "guarantee" -> new GuaranteeEvent(readGuarantee(child(n, "guarantee")));
      default -> throw new IllegalArgumentException("unknown event type \"" + type + "\"");
    };
  }

  static PrivacyGuarantee readGuarantee(JsonNode n) {
    String kind = text(n, "kind");
    return switch (kind) {
      case "pure" -> new PureDp(number(n, "epsilon"));
      case "approx" -> new ApproxDp(number(n, "epsilon"), number(n, "delta"));
      case "gdp" -> new GaussianDp(number(n, "mu"));
      case "zcdp" -> new ZeroConcentratedDp(number(n, "rho"));
      case "renyi" -> RenyiDp.of(readDoubles(n.get("orders"), "orders"),
          readDoubles(n.get("epsilons"), "epsilons"));
      default -> throw new IllegalArgumentException("unknown guarantee kind \"" + kind + "\"");
    };
  }

  private static JsonNode child(JsonNode n, String field) {
    JsonNode c = n == null ? null : n.get(field);
    if (c == null || c.isNull()) {
      throw new IllegalArgumentException("missing field \"" + field + "\"");
    }
    return c;
  }

  private static String text(JsonNode n, String field) {
    JsonNode c = child(n, field);
    if (!c.isTextual()) {
      throw new IllegalArgumentException("field \"" + field + "\" must be text");
    }
    return c.asText();
  }

  static double number(JsonNode n, String field) {
    JsonNode c = n.isNumber() || n.isTextual() ? n : child(n, field);
    if (c.isTextual() && "Infinity".equals(c.asText())) {
      return Double.POSITIVE_INFINITY;
    }
    if (!c.isNumber()) {
      throw new IllegalArgumentException("field \"" + field + "\" must be a number");
    }
    return c.doubleValue();
  }

  private static int integer(JsonNode n, String field) {
    JsonNode c = child(n, field);
    if (!c.canConvertToInt()) {
      throw new IllegalArgumentException("field \"" + field + "\" must be an int");
    }
    return c.intValue();
  }
}
