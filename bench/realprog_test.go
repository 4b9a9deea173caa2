package main

import "testing"

func TestAccountingRead(t *testing.T) {
	tests := []struct {
		name   string
		stderr string
		ok     bool
		want   accounting
	}{
		{"no exit line", "clrotel: started\n", false, accounting{}},
		{"nothing lost", "clrotel: shut down: 12 records drained; 6 spans exported, 0 failed, 0 lost at exit; 0 calls dropped; 40 calls folded; 7 calls shed (3 traces); 0 traces not sampled, 0 rate-limited\n",
			true, accounting{spans: 6, folded: 40, shed: 7, shedTraces: 3}},
		{"records lost", "clrotel: 5 calls traced without their values since the last report, 5 so far: capture buffers too full for them\n" +
			"clrotel: 4 calls traced without their values since the last report, 9 so far: capture buffers too full for them\n" +
			"clrotel: 2 exception, catch or Activity records not recorded: capture buffers full (their spans miss those events)\n" +
			"clrotel: shut down: 12 records drained; 6 spans exported, 1 failed, 2 lost at exit; 3 calls dropped; 0 calls folded; 0 calls shed (0 traces); 0 traces not sampled, 0 rate-limited\n",
			true, accounting{spans: 6, failed: 1, lost: 2, dropped: 3, eventsLost: 2, valuesLost: 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var a accounting
			if ok := a.read(tt.stderr); ok != tt.ok || a != tt.want {
				t.Errorf("read = %v, %+v; want %v, %+v", ok, a, tt.ok, tt.want)
			}
		})
	}
}
