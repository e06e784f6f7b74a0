// Package nn will hold starlab's evaluation network: the features of a Dice
// position (streak counts and cell occupancy, Veness 2006, section 4.2.3), a
// one-hidden-layer perceptron with an incrementally updated first layer, its
// weight files and an embedded default net. Until it lands, the search
// refuses the "mlp" evaluator with an error that says so.
package nn
