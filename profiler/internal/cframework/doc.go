// Package cframework tests the C copy of the framework rule
// (profiler/framework.h, generated from package scope's lists and
// symlinked here so the go command hashes it) against package scope:
// which assemblies, by name and by file name, are the runtime's own, and
// which selection prefixes can name their methods. Test-only: nothing
// imports it.
package cframework
