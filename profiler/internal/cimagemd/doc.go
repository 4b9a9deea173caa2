// Package cimagemd tests profiler/imagemd.c, the read-only reader of a
// module's metadata tables from its image, against real assemblies: the
// runtimes' CoreLib (as the file lays it out, and as a loader maps it) and
// a small assembly compiled for the test.
package cimagemd
