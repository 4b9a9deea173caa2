package summary

// Level is how a line is logged.
type Level int

const (
	Info Level = iota
	Warn
	Debug
)

// Line is one line of the log.
type Line struct {
	Level Level
	Text  string
}

// lines collects the lines a report gives, skipping empty ones.
type lines []Line

func (l *lines) add(level Level, text string) {
	if text != "" {
		*l = append(*l, Line{level, text})
	}
}
