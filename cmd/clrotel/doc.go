// Command clrotel attaches the clrotel profiler to .NET processes and shows
// what it traced.
//
// Usage:
//
//	clrotel env [flags]                  print the variables that attach the profiler
//	clrotel run [flags] -- command ...   run a command traced and print its traces
//	clrotel config validate FILE         check a configuration file
//	clrotel sampling show [flags]        print the strategy a Jaeger sampling endpoint gives a service
//	clrotel version                      print the version
//
// Every command takes -h or --help. A usage error exits with status 2; run
// exits with its command's status.
//
// It owns the command line and what the commands print. The settings are
// package config's (config validate parses with it) and the traces come
// from the profiler library through package otlpsink's receiver: it must
// not interpret either in a way of its own.
package main
