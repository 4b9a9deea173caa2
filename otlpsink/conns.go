package otlpsink

import (
	"net"
	"sync"
)

// countingListener counts the receiver's open client connections, so that
// a caller can tell when every client that sent to it has gone
// (Sink.WaitClientsGone).
type countingListener struct {
	net.Listener
	sink *Sink
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.sink.connChanged(1)
	return &countedConn{Conn: c, sink: l.sink}, nil
}

// countedConn is an accepted connection that says when it closes (the
// server closes it when the client has gone).
type countedConn struct {
	net.Conn
	sink *Sink
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.sink.connChanged(-1) })
	return err
}

// connChanged adds d to the open connections and wakes the waiters.
func (s *Sink) connChanged(d int) {
	s.mu.Lock()
	s.conns += d
	close(s.changed)
	s.changed = make(chan struct{})
	s.mu.Unlock()
}

// openConns is how many client connections are open.
func (s *Sink) openConns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}
