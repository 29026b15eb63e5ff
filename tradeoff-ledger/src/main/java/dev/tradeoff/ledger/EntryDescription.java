package dev.tradeoff.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tradeoff.accounting.event.DpEvent;
import dev.tradeoff.accounting.guarantee.ApproxDp;
import dev.tradeoff.accounting.guarantee.RenyiDp;
import java.util.Optional;

/**
 * What a ledger entry records about its release (entry format {@value #FORMAT}, the JSON in the
 * {@code description} column; docs/ledger.md): the filter that admitted it, the release's
 * accounting event where there is one, its GDP μ and RDP curve where they exist, and always its
 * (ε, δ). Entries migrated from schema version 1 are opaque (ε, δ) charges: no event.
 *
 * @param filter the filter that admitted it; null in a pure-DP or Rényi-DP ledger (their charges
 *     are summed coordinate by coordinate as before)
 * @param event the accounting event, or null for an opaque charge
 * @param approxDp the release's (ε, δ); null only in a Rényi-DP ledger
 * @param gdpMu its μ-GDP parameter (rounded up) if it is a Gaussian-type release, else null
 * @param rdp its RDP curve on the ledger's RDP grid if it has one, else null
 * @param commandLine the command line that made the charge, or null
 */
public record EntryDescription(FilterKind filter, DpEvent event, ApproxDp approxDp, Double gdpMu,
    RenyiDp rdp, String commandLine) {

  /** The version of the entry format written in every description. */
  public static final int FORMAT = 1;

  public EntryDescription {
    if (approxDp == null && filter != null) {
      throw new IllegalArgumentException("approxDp must not be null in an (epsilon, delta) ledger");
    }
  }

  public Optional<DpEvent> eventIfKnown() {
    return Optional.ofNullable(event);
  }

  /** The canonical JSON text (field order fixed, so the bytes are what the hash chain covers). */
  String toJson() {
    ObjectNode n = EventJson.MAPPER.createObjectNode();
    n.put("format", FORMAT);
    if (filter == null) {
      n.putNull("filter");
    } else {
      n.put("filter", filter.cliName());
    }
    if (event == null) {
      n.putNull("event");
    } else {
      n.set("event", EventJson.write(event));
    }
    if (approxDp == null) {
      n.putNull("epsilon");
      n.putNull("delta");
    } else {
      n.put("epsilon", approxDp.epsilon());
      n.put("delta", approxDp.delta());
    }
    if (gdpMu == null) {
      n.putNull("gdpMu");
    } else {
      n.put("gdpMu", gdpMu.doubleValue());
    }
    if (rdp == null) {
      n.putNull("rdp");
    } else {
      ObjectNode r = n.putObject("rdp");
      r.set("orders", EventJson.doubles(rdp.orders()));
      r.set("epsilons", EventJson.doubles(rdp.epsilons()));
    }
    if (commandLine == null) {
      n.putNull("commandLine");
    } else {
      n.put("commandLine", commandLine);
    }
    try {
      return EventJson.MAPPER.writeValueAsString(n);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Parses {@link #toJson()} output.
   *
   * @throws IllegalArgumentException for text that is not a description of a known format
   */
  static EntryDescription fromJson(String text) {
    JsonNode n;
    try {
      n = EventJson.MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("unreadable description: " + e.getOriginalMessage(), e);
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("description is not a JSON object");
    }
    JsonNode format = n.get("format");
    if (format == null || !format.canConvertToInt() || format.intValue() != FORMAT) {
      throw new IllegalArgumentException("entry format " + format + " is not " + FORMAT);
    }
    JsonNode f = n.get("filter");
    FilterKind filter = f == null || f.isNull() ? null : FilterKind.parse(f.asText());
    JsonNode e = n.get("event");
    DpEvent event = e == null || e.isNull() ? null : EventJson.read(e);
    JsonNode eps = n.get("epsilon");
    ApproxDp approx = eps == null || eps.isNull() ? null
        : new ApproxDp(EventJson.number(n, "epsilon"), EventJson.number(n, "delta"));
    JsonNode m = n.get("gdpMu");
    Double mu = m == null || m.isNull() ? null : EventJson.number(m, "gdpMu");
    JsonNode r = n.get("rdp");
    RenyiDp rdp = r == null || r.isNull() ? null : RenyiDp.of(
        EventJson.readDoubles(r.get("orders"), "rdp orders"),
        EventJson.readDoubles(r.get("epsilons"), "rdp epsilons"));
    JsonNode c = n.get("commandLine");
    String commandLine = c == null || c.isNull() ? null : c.asText();
    return new EntryDescription(filter, event, approx, mu, rdp, commandLine);
  }
}
