package dev.tradeoff.beam.label;

import dev.tradeoff.accounting.internal.Require;
import java.io.Serializable;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The classes a run labels with: public input, never read from the training data (a class held
 * by one record would otherwise reveal that record when released as the output's vocabulary).
 * Names are compared after Unicode NFC normalisation and trimming, so "é" typed as one code point
 * or as "e" and a combining accent is one class. A training row whose label is not a class is
 * skipped by the teachers (refusing it would reveal it).
 *
 * @param names the classes, normalised, in the order given; class i is {@code names.get(i)}
 */
public record ClassSet(List<String> names) implements Serializable {

  /** At most this many classes. */
  public static final int MAX_CLASSES = 1000;

  public ClassSet {
    List<String> normalised = new ArrayList<>();
    for (String name : Require.nonNull("classes", names)) {
      String n = normalise(Require.nonNull("class", name));
      Require.that(!n.isEmpty(), "classes", "must not hold an empty name", names);
      Require.that(!normalised.contains(n), "classes", "must name each class once (after NFC "
          + "normalisation and trimming), but repeats '" + n + "'", names);
      normalised.add(n);
    }
    Require.that(normalised.size() >= 2 && normalised.size() <= MAX_CLASSES, "classes",
        "must name between 2 and " + MAX_CLASSES + " classes", normalised.size());
    names = List.copyOf(normalised);
  }

  /** The label as compared: NFC-normalised and trimmed. */
  public static String normalise(String label) {
    return Normalizer.normalize(label, Normalizer.Form.NFC).strip();
  }

  /** The number of classes. */
  public int size() {
    return names.size();
  }

  /** A lookup from a raw label cell to its class index, or -1 if it is not a class. */
  public Lookup lookup() {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      index.put(names.get(i), i);
    }
    return raw -> index.getOrDefault(normalise(raw), -1);
  }

  /** Class indices of raw label cells. */
  @FunctionalInterface
  public interface Lookup {
    /** The class of a raw label cell, or -1 if it is none of the classes. */
    int classOf(String raw);
  }
}
