// Package cstartup tests the per-module scope of profiler/startup.c (which
// modules can hold a selected method, so that the others keep their
// ReadyToRun code and never reach Go) against a fake runtime whose modules
// hold the type names a test gives, and what Initialize reads from the
// environment when it does not wait for Go (profiler/golazy.c, and the scope
// from CLROTEL_INCLUDE) against package config and package scope. Test-only:
// nothing imports it.
package cstartup
