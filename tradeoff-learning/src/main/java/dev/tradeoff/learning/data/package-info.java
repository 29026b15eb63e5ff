/**
 * Data for the learners: the binary {@link dev.tradeoff.learning.data.Dataset}, multi-class
 * {@link dev.tradeoff.learning.data.ClassData} as read from a file, the possibly empty C-class
 * {@link dev.tradeoff.learning.data.MulticlassData} that softmax trainers use, readers of the IDX
 * format of MNIST and Fashion-MNIST ({@link dev.tradeoff.learning.data.IdxReader}) and of numeric
 * CSV ({@link dev.tradeoff.learning.data.CsvReader}), and the Fashion-MNIST sandal-vs-bag split used
 * by [DaRRM24, Section 6.2] ({@link dev.tradeoff.learning.data.FashionMnist}).
 */
package dev.tradeoff.learning.data;
