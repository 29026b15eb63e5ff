package dev.tradeoff.beam.budget;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/** The manifests' JSON writer ({@link RunManifest#write}), configured once. */
final class ManifestJson {

  static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

  private ManifestJson() {}
}
