package dev.tradeoff.beam.label;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tradeoff.beam.runner.BeamRunner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.testing.PAssert;
import org.apache.beam.sdk.transforms.Create;
import org.apache.beam.sdk.transforms.GroupByKey;
import org.apache.beam.sdk.transforms.MapElements;
import org.apache.beam.sdk.values.KV;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TypeDescriptors;
import org.junit.jupiter.api.Test;

class TeacherPartitionTest {

  @Test
  void everyRecordGoesToExactlyOnePartitionOnEveryCall() {
    TeacherPartition p = TeacherPartition.secure(7);
    int[] sizes = new int[7];
    for (int i = 0; i < 7000; i++) {
      String record = "label" + (i % 3) + "," + i * 0.5;
      int k = p.of(record);
      assertThat(k).isBetween(0, 6).isEqualTo(p.of(record));
      sizes[k]++;
    }
    for (int s : sizes) {
      assertThat(s).isBetween(800, 1200); // 1000 ± 6.3 standard deviations
    }
  }

  @Test
  void seededPartitionsAgreeAndSecureOnesDiffer() {
    List<String> records = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      records.add("r" + i);
    }
    TeacherPartition a = TeacherPartition.seeded(3, 5);
    TeacherPartition b = TeacherPartition.seeded(3, 5);
    TeacherPartition c = TeacherPartition.secure(5);
    int differ = 0;
    for (String r : records) {
      assertThat(a.of(r)).isEqualTo(b.of(r));
      differ += a.of(r) != c.of(r) ? 1 : 0;
    }
    assertThat(differ).isGreaterThan(100);
  }

  @Test
  void thePipelinesPartitionsAreDisjointAndCoverTheInput() {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      lines.add("x," + i);
    }
    TeacherPartition partition = TeacherPartition.seeded(9, 4);
    Pipeline pipeline = Pipeline.create(BeamRunner.DIRECT.options(2));
    PCollection<KV<Integer, Iterable<String>>> groups = pipeline
        .apply(Create.of(lines))
        .apply(MapElements.into(TypeDescriptors.kvs(TypeDescriptors.integers(),
            TypeDescriptors.strings())).via(line -> KV.of(partition.of(line), line)))
        .apply(GroupByKey.create());
    PAssert.that(groups).satisfies(all -> {
      Set<String> seen = new HashSet<>();
      Map<Integer, Integer> count = new HashMap<>();
      for (KV<Integer, Iterable<String>> g : all) {
        assertThat(count.put(g.getKey(), 1)).isNull();
        for (String s : g.getValue()) {
          assertThat(seen.add(s)).as("%s in one partition only", s).isTrue();
          assertThat(partition.of(s)).isEqualTo(g.getKey());
        }
      }
      assertThat(seen).containsExactlyInAnyOrderElementsOf(lines);
      return null;
    });
    pipeline.run().waitUntilFinish();
  }
}
