package shaping

// Log is where Load reports.
type Log interface {
	Errorf(format string, args ...any)
	Infof(format string, args ...any)
}

// Load gathers the no-code targets of clrotel's own file (own, its
// no_code key, first) and of the OpenTelemetry configuration file at path
// ("" for none), read by read; nil when there are none. A file with
// problems is not used: they are logged, each with its line and column,
// and the app runs traced, its spans unshaped by it.
func Load(own *Rules, path string, read func(string) ([]byte, error), log Log) *Rules {
	rules := &Rules{}
	if own != nil {
		rules.Targets = append(rules.Targets, own.Targets...)
	}
	if path != "" {
		data, err := read(path)
		if err != nil {
			log.Errorf("no-code configuration: %v; its targets do not shape spans", err)
		} else if fr, err := Parse(path, data); err != nil {
			log.Errorf("no-code configuration %s is not used (its targets do not shape spans; the app runs traced):\n%v", path, err)
		} else {
			log.Infof("no-code configuration %s: %d targets", path, len(fr.Targets))
			rules.Targets = append(rules.Targets, fr.Targets...)
		}
	}
	if len(rules.Targets) == 0 {
		return nil
	}
	return rules
}
