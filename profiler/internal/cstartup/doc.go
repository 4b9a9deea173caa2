// Package cstartup tests the per-module scope of profiler/startup.c (which
// modules can hold a selected method, so that the others keep their
// ReadyToRun code and never reach Go) against a fake runtime whose modules
// hold the type names a test gives. Test-only: nothing imports it.
package cstartup
