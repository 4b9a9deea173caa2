package memo

import "sync"

// Map is a concurrency-safe map of answers; the zero value is empty and
// unbounded. A failed ask is not remembered (it is asked again next time).
// Two goroutines asking for the same missing key at once both ask.
type Map[K comparable, V any] struct {
	// Limit, when above 0, is the most answers kept; later ones are
	// asked for each time, unless Renew.
	Limit int
	// Renew: a full map forgets every answer before it keeps the next one,
	// for keys whose recent answers matter more than the first ones.
	Renew bool

	mu sync.Mutex
	m  map[K]V
}

// Get returns the answer for k, from the map or, failing that, from ask.
func (c *Map[K, V]) Get(k K, ask func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := ask()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.m == nil {
		c.m = map[K]V{}
	}
	if c.Renew && c.Limit > 0 && len(c.m) >= c.Limit {
		c.m = map[K]V{}
	}
	if c.Limit <= 0 || len(c.m) < c.Limit {
		c.m[k] = v
	}
	c.mu.Unlock()
	return v, nil
}

// Len is how many answers are kept.
func (c *Map[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
