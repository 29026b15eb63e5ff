/**
 * Data for the learners: the binary {@link dev.tradeoff.learning.data.Dataset}, multi-class
 * {@link dev.tradeoff.learning.data.ClassData} as read from a file, the possibly empty C-class
 * {@link dev.tradeoff.learning.data.MulticlassData} that softmax trainers use, readers of the IDX
 * format of MNIST and Fashion-MNIST ({@link dev.tradeoff.learning.data.IdxReader}), and the
 * Fashion-MNIST sandal-vs-bag split used by [DaRRM24, Section 6.2]
 * ({@link dev.tradeoff.learning.data.FashionMnist}). CSV is read by the one RFC 4180 reader of
 * the Beam module ({@code dev.tradeoff.beam.csv.CsvRecords}).
 */
package dev.tradeoff.learning.data;
