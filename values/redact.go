package values

import (
	"strings"

	"github.com/clrotel/clrotel/internal/memo"
)

// DefaultSensitive are the name fragments whose arguments, fields and
// return values are never read: matched case-insensitively against the
// parameter, field or method name with '_' and '-' removed.
var DefaultSensitive = []string{
	"password", "passwd", "pwd", "secret", "token", "apikey", "accesskey", "privatekey",
	"authorization", "credential", "connectionstring", "cookie", "session", "pin", "cvv", "ssn",
	"card", "pan", "iban", "cvc",
}

// Redactor decides which names are sensitive.
type Redactor struct {
	fragments []string

	// verdicts remembers Sensitive's answers (name -> bool): the same
	// parameter and field names come back for every method and class
	// planned. At most maxVerdicts names are kept; later ones are judged
	// each time.
	verdicts memo.Map[string, bool]
}

// maxVerdicts bounds the names whose verdict is remembered.
const maxVerdicts = 1 << 14

// NewRedactor returns a Redactor for the given fragments (nil: none).
func NewRedactor(fragments []string) *Redactor {
	r := &Redactor{}
	r.verdicts.Limit = maxVerdicts
	for _, f := range fragments {
		if f = normalize(f); f != "" {
			r.fragments = append(r.fragments, f)
		}
	}
	return r
}

// separators are left out of names before they are compared, by one
// Replacer built once: building one costs more than the replacing it does.
var separators = strings.NewReplacer("_", "", "-", "", " ", "")

func normalize(s string) string {
	return separators.Replace(strings.ToLower(s))
}

// Sensitive reports whether name contains a sensitive fragment. Short
// fragments ("pin", "pwd", "ssn", "cvv") must match the whole name, so that
// "Shipping" or "Spinner" are not taken for a PIN; a field's "m_" or "_"
// prefix and an accessor's "get_" or "set_" do not count. Names compilers
// give hoisted variables are judged by the variable's name:
// <Password>k__BackingField, <apiKey>5__2, <>3__password (a parameter's
// copy in an iterator or async state machine).
func (r *Redactor) Sensitive(name string) bool {
	if r == nil || name == "" {
		return false
	}
	s, _ := r.verdicts.Get(name, func() (bool, error) { return r.judge(name), nil })
	return s
}

func (r *Redactor) judge(name string) bool {
	n := strings.ToLower(name)
	if i := strings.IndexByte(n, '>'); i > 0 && n[0] == '<' {
		if i > 1 {
			// <Name>k__BackingField, <name>5__2, <name>__0
			return r.matches(n[1:i])
		}
		// <>3__name: a digit, two underscores, the name.
		n = strings.TrimLeft(n[i+1:], "0123456789")
	}
	return r.matches(n)
}

// matches reports whether the lowercase name n contains a fragment.
func (r *Redactor) matches(n string) bool {
	for _, p := range []string{"get_", "set_", "m_"} {
		n = strings.TrimPrefix(n, p)
	}
	n = normalize(n)
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
