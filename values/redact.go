package values

import "strings"

// DefaultSensitive are the name fragments whose arguments, fields and
// return values are never read: matched case-insensitively against the
// parameter, field or method name with '_' and '-' removed.
var DefaultSensitive = []string{
	"password", "passwd", "pwd", "secret", "token", "apikey", "accesskey", "privatekey",
	"authorization", "credential", "connectionstring", "cookie", "session", "pin", "cvv", "ssn",
}

// Redactor decides which names are sensitive.
type Redactor struct {
	fragments []string
}

// NewRedactor returns a Redactor for the given fragments (nil: none).
func NewRedactor(fragments []string) *Redactor {
	r := &Redactor{}
	for _, f := range fragments {
		if f = normalize(f); f != "" {
			r.fragments = append(r.fragments, f)
		}
	}
	return r
}

func normalize(s string) string {
	s = strings.ToLower(s)
	return strings.NewReplacer("_", "", "-", "", " ", "").Replace(s)
}

// Sensitive reports whether name contains a sensitive fragment. Short
// fragments ("pin", "pwd", "ssn", "cvv") must match the whole name, so that
// "Shipping" or "Spinner" are not taken for a PIN.
func (r *Redactor) Sensitive(name string) bool {
	if r == nil || name == "" {
		return false
	}
	n := normalize(name)
	// Compiler-generated backing fields: <Password>k__BackingField.
	if i := strings.IndexByte(n, '>'); i > 0 && n[0] == '<' {
		n = n[1:i]
	}
	n = strings.TrimPrefix(n, "m_")
	n = strings.TrimPrefix(n, "_")
	for _, f := range r.fragments {
		if len(f) <= 3 {
			if n == f {
				return true
			}
			continue
		}
		if strings.Contains(n, f) {
			return true
		}
	}
	return false
}
