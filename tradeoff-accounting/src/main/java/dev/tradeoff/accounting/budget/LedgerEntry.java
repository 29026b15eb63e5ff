package dev.tradeoff.accounting.budget;

import dev.tradeoff.accounting.guarantee.PrivacyGuarantee;
import dev.tradeoff.accounting.internal.Require;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One line of the ledger: what was charged, for what, and when.
 *
 * <p>A {@link EntryStatus#RESERVED} entry counts at its reserved (worst-case) cost; a {@link
 * EntryStatus#COMMITTED} one at its realised cost.
 */
public final class LedgerEntry {

  private final long id;
  private final String label;
  private final GuaranteeKind kind;
  private final EntryStatus status;
  private final PrivacyGuarantee reserved;
  private final PrivacyGuarantee charged;
  private final Instant reservedAt;
  private final Instant committedAt;
  private final long processId;

  /**
   * @param committedAt when it was settled; {@code null} exactly when the entry is still reserved
   */
  public LedgerEntry(
      long id,
      String label,
      GuaranteeKind kind,
      EntryStatus status,
      PrivacyGuarantee reserved,
      PrivacyGuarantee charged,
      Instant reservedAt,
      Instant committedAt,
      long processId) {
    Require.positive("id", id);
    this.id = id;
    this.label = Require.nonNull("label", label);
    this.kind = Require.nonNull("kind", kind);
    this.status = Require.nonNull("status", status);
    this.reserved = Require.nonNull("reserved", reserved);
    this.charged = Require.nonNull("charged", charged);
    this.reservedAt = Require.nonNull("reservedAt", reservedAt);
    Require.that(
        (committedAt == null) == (status == EntryStatus.RESERVED),
        "committedAt",
        "must be present exactly for committed entries",
        committedAt);
    this.committedAt = committedAt;
    this.processId = processId;
  }

  public long id() {
    return id;
  }

  public String label() {
    return label;
  }

  /** The guarantee type of the amounts. */
  public GuaranteeKind kind() {
    return kind;
  }

  public EntryStatus status() {
    return status;
  }

  /** The worst-case cost admitted at reservation. */
  public PrivacyGuarantee reserved() {
    return reserved;
  }

  /** What counts against the budget: the reserved cost while reserved, the realised cost after. */
  public PrivacyGuarantee charged() {
    return charged;
  }

  public Instant reservedAt() {
    return reservedAt;
  }

  /** When the entry was settled; empty while it is reserved. */
  public Optional<Instant> committedAt() {
    return Optional.ofNullable(committedAt);
  }

  /** The operating-system id of the process that made the reservation. */
  public long processId() {
    return processId;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LedgerEntry e
        && id == e.id
        && processId == e.processId
        && label.equals(e.label)
        && kind == e.kind
        && status == e.status
        && reserved.equals(e.reserved)
        && charged.equals(e.charged)
        && reservedAt.equals(e.reservedAt)
        && Objects.equals(committedAt, e.committedAt);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, label, kind, status, reserved, charged, reservedAt, committedAt);
  }

  @Override
  public String toString() {
    return "LedgerEntry[#" + id + " " + label + " " + status + " charged=" + charged + "]";
  }
}
