package dev.tradeoff.learning.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tradeoff.learning.data.FashionMnist.Split;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

class ShippedSubsetTest {

  @Test
  void shipsThePaperSizedSandalVersusBagSplitAt7x7() {
    ClassData train = FashionMnist.shipped(Split.TRAIN);
    ClassData test = FashionMnist.shipped(Split.TEST);
    assertThat(train.dimension()).isEqualTo(49);
    assertThat(train.distinctClasses()).containsExactly(5, 8);
    assertThat(train.count(5)).isEqualTo(5000);
    assertThat(train.count(8)).isEqualTo(5000);
    assertThat(test.count(5)).isEqualTo(1000);
    assertThat(test.count(8)).isEqualTo(1000);
    Dataset binary = train.binary(5, 8);
    assertThat(binary.positiveFraction()).isEqualTo(0.5);
    for (int i = 0; i < binary.size(); i += 97) {
      for (double v : binary.row(i)) {
        assertThat(v).isBetween(0.0, 1.0);
      }
    }
  }

  @Test
  void regeneratingFromTheDebianPackageGivesTheShippedBytes() throws IOException {
    assumeTrue(
        Files.isDirectory(FashionMnist.DEBIAN_DIRECTORY),
        "Debian's dataset-fashion-mnist is not installed");
    for (Split split : Split.values()) {
      int perClass =
          split == Split.TRAIN
              ? FashionMnist.SHIPPED_TRAIN_PER_CLASS
              : FashionMnist.SHIPPED_TEST_PER_CLASS;
      IdxImages images =
          IdxReader.readImages(FashionMnist.find(FashionMnist.DEBIAN_DIRECTORY, split.imagesFile()))
              .downsampled(FashionMnist.SHIPPED_POOL);
      int[] labels =
          IdxReader.readLabels(FashionMnist.find(FashionMnist.DEBIAN_DIRECTORY, split.labelsFile()));
      byte[][] regenerated =
          SubsetWriter.subset(
              images, labels, new int[] {FashionMnist.SANDAL, FashionMnist.BAG}, perClass);
      assertThat(regenerated[0]).isEqualTo(shipped(split.imagesFile()));
      assertThat(regenerated[1]).isEqualTo(shipped(split.labelsFile()));
    }
  }

  private static byte[] shipped(String file) throws IOException {
    try (InputStream in =
        new GZIPInputStream(
            FashionMnist.class.getResourceAsStream(FashionMnist.SHIPPED_RESOURCE + file + ".gz"))) {
      return in.readAllBytes();
    }
  }
}
