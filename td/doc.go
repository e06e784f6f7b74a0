// Package td will hold the TD(0)/TD(lambda) self-play trainer of the
// evaluation network (Veness 2006, section 4.2.3; Tesauro 1995). It has no
// code yet; "starlab train" arrives with it.
package td
