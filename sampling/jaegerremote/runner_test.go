package jaegerremote

import (
	"context"
	"testing"
	"time"

	"github.com/clrotel/clrotel/sampling"
)

// endpointFetcher answers every poll with a probability of its own.
type endpointFetcher struct{ body string }

func (f endpointFetcher) Fetch(context.Context, string) ([]byte, error) { return []byte(f.body), nil }

type published struct {
	st   sampling.Strategy
	live func() bool
}

func TestRunner(t *testing.T) {
	bodies := map[string]string{
		"http://a:5778": `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.25}}`,
		"http://b:5778": `{"strategyType":0,"probabilisticSampling":{"samplingRate":0.5}}`,
	}
	got := make(chan published, 4)
	var made []string
	r := &Runner{Service: "shop",
		Fetcher: func(endpoint string) Fetcher { made = append(made, endpoint); return endpointFetcher{bodies[endpoint]} },
		Publish: func(st sampling.Strategy, live func() bool) { got <- published{st, live} }}
	remote := func(endpoint string, every time.Duration) sampling.Config {
		c := sampling.Default()
		c.Sampler, c.Remote.Endpoint, c.Remote.PollingInterval = sampling.JaegerRemote, endpoint, every
		return c
	}

	r.Apply(remote("http://a:5778", time.Hour))
	a := <-got
	if a.st.Probability != 0.25 || !a.live() {
		t.Fatalf("first poll published %+v, live %v; want a's strategy, live", a.st, a.live())
	}
	// The same endpoint and interval: the poller keeps running.
	r.Apply(remote("http://a:5778", time.Hour))
	if len(made) != 1 || !a.live() {
		t.Errorf("the same settings restarted the poller (fetchers %q)", made)
	}
	// Another interval, then another endpoint: restarted, the old answers dead.
	r.Apply(remote("http://a:5778", 2*time.Hour))
	a2 := <-got
	if a.live() || !a2.live() {
		t.Errorf("another interval: old poller live %v, new %v; want false, true", a.live(), a2.live())
	}
	r.Apply(remote("http://b:5778", 2*time.Hour))
	b := <-got
	if b.st.Probability != 0.5 || a2.live() || !b.live() {
		t.Errorf("another endpoint: published %+v; old live %v, new %v", b.st, a2.live(), b.live())
	}
	// Another sampler: stopped.
	r.Apply(sampling.Default())
	if b.live() {
		t.Errorf("a local sampler left the poller running")
	}
	r.Apply(remote("http://b:5778", 2*time.Hour))
	b2 := <-got
	r.Stop()
	r.Stop()
	if b2.live() {
		t.Errorf("Stop left the poller running")
	}
	if want := []string{"http://a:5778", "http://a:5778", "http://b:5778", "http://b:5778"}; len(made) != len(want) {
		t.Errorf("fetchers made for %q; want %q", made, want)
	}
}
