package dev.tradeoff.beam.coder;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.AtomicCoder;
import org.apache.beam.sdk.coders.CoderException;
import org.apache.beam.sdk.util.VarInt;

/**
 * A compact deterministic coder for vote vectors: the length, then each entry, as variable-length
 * integers (a vote of 0 or 1 takes one byte).
 */
public final class IntArrayCoder extends AtomicCoder<int[]> {

  private static final long serialVersionUID = 1L;
  private static final IntArrayCoder INSTANCE = new IntArrayCoder();

  private IntArrayCoder() {}

  public static IntArrayCoder of() {
    return INSTANCE;
  }

  @Override
  public void encode(int[] value, OutputStream out) throws IOException {
    if (value == null) {
      throw new CoderException("cannot encode a null int[]");
    }
    VarInt.encode(value.length, out);
    for (int v : value) {
      VarInt.encode(v, out);
    }
  }

  @Override
  public int[] decode(InputStream in) throws IOException {
    int n = VarInt.decodeInt(in);
    if (n < 0) {
      throw new CoderException("negative int[] length " + n);
    }
    int[] value = new int[n];
    for (int i = 0; i < n; i++) {
      value[i] = VarInt.decodeInt(in);
    }
    return value;
  }

  @Override
  public void verifyDeterministic() {}

  @Override
  public boolean consistentWithEquals() {
    return false;
  }
}
