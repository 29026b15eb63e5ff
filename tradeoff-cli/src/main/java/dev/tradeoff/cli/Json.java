package dev.tradeoff.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The command line's one JSON writer: compact (one line) or indented. */
final class Json {

  /** Shared, thread-safe once configured; also builds trees ({@code MAPPER.createObjectNode()}). */
  static final ObjectMapper MAPPER = new ObjectMapper();

  private static final ObjectMapper INDENTED =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private Json() {}

  /** One line of JSON. */
  static String compact(Object value) {
    return write(MAPPER, value);
  }

  /** Indented JSON. */
  static String pretty(Object value) {
    return write(INDENTED, value);
  }

  private static String write(ObjectMapper mapper, Object value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialise " + value.getClass().getSimpleName(), e);
    }
  }
}
