package config

import (
	"errors"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clrotel/clrotel/sampling"
)

func TestWatcher(t *testing.T) {
	files := map[string]string{"c.yaml": "sampling:\n  sampler: always_on\n"}
	read := func(p string) ([]byte, error) {
		s, ok := files[p]
		if !ok {
			return nil, errors.New("no such file")
		}
		return []byte(s), nil
	}
	lookup := env("CLROTEL_CONFIG", "c.yaml", "CLROTEL_RATE_LIMIT", "50")
	running, err := Load(lookup, read)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher("c.yaml", running, lookup, read)
	if r, err := w.Check(); r != nil || err != nil {
		t.Fatalf("unchanged file: %+v, %v", r, err)
	}

	// A good edit: sampling applies, with the environment still winning;
	// selection and capture changes are reported, not applied.
	files["c.yaml"] = "include: [A.*]\ncapture:\n  max_string: 8\nsampling:\n  sampler: traceidratio\n  ratio: 0.5\n  rate_limit: 9\n  rules:\n    - {match: A.*, sample: never}\n"
	r, err := w.Check()
	if err != nil || r == nil {
		t.Fatalf("good edit: %+v, %v", r, err)
	}
	s := r.Config.Sampling
	if s.Sampler != sampling.TraceIDRatio || s.Ratio != 0.5 || s.RateLimit != 50 || len(s.Rules) != 1 {
		t.Errorf("sampling after reload: %+v", s)
	}
	if r.Config.MaxString != running.MaxString || !reflect.DeepEqual(r.NotLive, []string{"include", "capture"}) || r.Config.Include != nil {
		t.Errorf("max_string %d, not live %v", r.Config.MaxString, r.NotLive)
	}

	// A broken edit: rejected whole, with its line, once.
	files["c.yaml"] = "sampling:\n  sampler: traceidratio\n  ratio: 3\n"
	r, err = w.Check()
	if r != nil || err == nil || !strings.Contains(err.Error(), "c.yaml:3: sampling.ratio") || !strings.Contains(err.Error(), "settings in force stay") {
		t.Fatalf("broken edit: %+v, %v", r, err)
	}
	if r, err = w.Check(); r != nil || err != nil {
		t.Fatalf("the same broken file again: %+v, %v", r, err)
	}

	// Gone, then back.
	delete(files, "c.yaml")
	if _, err = w.Check(); err == nil {
		t.Fatal("a missing file is not reported")
	}
	if r, err = w.Check(); r != nil || err != nil {
		t.Fatalf("still missing: %+v, %v", r, err)
	}
	files["c.yaml"] = "sampling:\n  sampler: parentbased_jaeger_remote\n  remote:\n    endpoint: http://j:5778\n    polling_interval: 2s\n    initial_sampling_rate: 0.2\n"
	r, err = w.Check()
	if err != nil || r == nil || !r.Config.Sampling.IsRemote() || r.Config.Sampling.Remote.Endpoint != "http://j:5778" || r.Config.Sampling.Remote.InitialRate != 0.2 || len(r.NotLive) != 0 {
		t.Fatalf("back: %+v, %v", r, err)
	}
}

func TestRemoteFileErrors(t *testing.T) {
	_, err := ParseFile("f.yaml", []byte("sampling:\n  sampler: jaeger_remote\n  remote:\n    endpoint: grpc://x\n    polling_interval: 5ms\n    initial_sampling_rate: 2\n"))
	for _, want := range []string{"f.yaml:4: sampling.remote.endpoint", "f.yaml:5: sampling.remote.polling_interval", "f.yaml:6: sampling.remote.initial_sampling_rate"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("want %q in %v", want, err)
		}
	}
}

// Run hands each change to apply or fail, as Check finds it, until stop.
func TestWatcherRun(t *testing.T) {
	var mu sync.Mutex
	content := "sampling:\n  sampler: always_on\n"
	read := func(string) ([]byte, error) {
		mu.Lock()
		defer mu.Unlock()
		return []byte(content), nil
	}
	edit := func(s string) {
		mu.Lock()
		content = s
		mu.Unlock()
	}
	lookup := env("CLROTEL_CONFIG", "c.yaml")
	running, err := Load(lookup, read)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher("c.yaml", running, lookup, read)
	applied, failed := make(chan *Reload, 8), make(chan error, 8)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		w.Run(stop, time.Millisecond, func(r *Reload) { applied <- r }, func(err error) { failed <- err })
	}()
	edit("sampling:\n  sampler: always_off\n")
	if r := <-applied; r.Config.Sampling.Sampler != sampling.AlwaysOff {
		t.Errorf("applied %+v; want always_off", r.Config.Sampling)
	}
	edit("sampling:\n  sampler: [\n")
	if err := <-failed; !strings.Contains(err.Error(), "is not used") {
		t.Errorf("a bad file: %v", err)
	}
	close(stop)
	<-done
	if len(applied) != 0 || len(failed) != 0 {
		t.Errorf("unchanged content reported again: %d applied, %d failed", len(applied), len(failed))
	}
}
