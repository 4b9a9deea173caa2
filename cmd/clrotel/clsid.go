package main

// clsid is the COM class id of the clrotel profiler, the value of
// CORECLR_PROFILER. The profiler library answers to the same value
// (k_clsid in profiler/callbacks.c); the two must change together.
const clsid = "{8A4C3E5B-2F61-4D7A-9C0E-5B1D7E3F6A21}"
