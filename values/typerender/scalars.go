package typerender

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/clrotel/clrotel/values"
	"go.opentelemetry.io/otel/attribute"
)

// renderDecimal: exact text (99.95, trailing zeros kept as .NET prints
// them) and a float64 ".value" for queries. 3.1 keeps flags/hi/lo/mid
// (Int32); .NET 5+ keeps _flags, _hi32 and _lo64.
func renderDecimal(f fields, _ values.Context) (values.Rendering, bool) {
	var flags, hi, lo uint64
	var ok bool
	if flags, ok = f.primBits("_flags", "flags"); !ok {
		return values.Rendering{}, false
	}
	if hi, ok = f.primBits("_hi32", "hi"); !ok {
		return values.Rendering{}, false
	}
	if lo64, ok64 := f.primBits("_lo64"); ok64 {
		lo = lo64
	} else {
		l, ok1 := f.primBits("lo")
		m, ok2 := f.primBits("mid")
		if !ok1 || !ok2 {
			return values.Rendering{}, false
		}
		lo = uint64(uint32(m))<<32 | uint64(uint32(l))
	}
	text, fl, ok := decimalText(uint32(flags), uint32(hi), lo)
	if !ok {
		return values.Rendering{}, false
	}
	return values.Rendering{Text: text, Subs: []values.Sub{sub(".value", attribute.Float64Value(fl))}}, true
}

// decimalText formats a System.Decimal from its parts: a 96-bit magnitude
// (hi:lo), the scale in bits 16-23 of flags and the sign in bit 31.
func decimalText(flags, hi uint32, lo uint64) (string, float64, bool) {
	scale := int(flags >> 16 & 0xff)
	if scale > 28 {
		return "", 0, false
	}
	m := new(big.Int).SetUint64(uint64(hi))
	m.Lsh(m, 64)
	m.Or(m, new(big.Int).SetUint64(lo))
	digits := m.String()
	if scale > 0 {
		if len(digits) <= scale {
			digits = strings.Repeat("0", scale-len(digits)+1) + digits
		}
		digits = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	if flags&0x80000000 != 0 && m.Sign() != 0 {
		digits = "-" + digits
	}
	fl, _ := strconv.ParseFloat(digits, 64)
	return digits, fl, true
}

const (
	ticksPerSecond = 10_000_000
	unixEpochTicks = 621355968000000000 // 1970-01-01 in ticks since 0001-01-01
	maxTicks       = 3155378975999999999
)

// ticksTime converts .NET ticks (100 ns since 0001-01-01) to a UTC time.
func ticksTime(ticks int64) time.Time {
	d := ticks - unixEpochTicks
	sec, rem := d/ticksPerSecond, d%ticksPerSecond
	if rem < 0 {
		sec--
		rem += ticksPerSecond
	}
	return time.Unix(sec, rem*100).UTC()
}

// isoTicks formats ticks as .NET's round-trip ("o") format without offset:
// 2026-11-23T09:00:00.0000000.
func isoTicks(ticks int64) string {
	return ticksTime(ticks).Format("2006-01-02T15:04:05.0000000")
}

var dateKinds = [4]string{"Unspecified", "Utc", "Local", "Local"}

// renderDateTime: ISO 8601 round-trip text, as .NET's "o" format: Z for
// UTC, the offset for a local time (2026-11-23T09:00:00.0000000+01:00),
// none for Unspecified; ".kind" says Utc, Local or Unspecified. A local
// time's offset is the one of the process's time zone (Renderer.Location)
// at that wall-clock time, as TimeZoneInfo.Local gives it to .NET.
func renderDateTime(f fields, _ values.Context) (values.Rendering, bool) {
	data, ok := f.primBits("_dateData", "dateData")
	if !ok {
		return values.Rendering{}, false
	}
	ticks := int64(data & 0x3FFFFFFFFFFFFFFF)
	if ticks > maxTicks {
		return values.Rendering{}, false
	}
	kind := dateKinds[data>>62]
	text := isoTicks(ticks)
	switch kind {
	case "Utc":
		text += "Z"
	case "Local":
		text += localOffset(ticksTime(ticks), f.loc)
	}
	return values.Rendering{Text: text, Subs: []values.Sub{sub(".kind", attribute.StringValue(kind))}}, true
}

// localOffset is the "+hh:mm" offset of zone loc (nil: time.Local) at the
// wall-clock time wall (read as UTC fields).
func localOffset(wall time.Time, loc *time.Location) string {
	if loc == nil {
		loc = time.Local
	}
	t := time.Date(wall.Year(), wall.Month(), wall.Day(), wall.Hour(), wall.Minute(), wall.Second(), wall.Nanosecond(), loc)
	_, off := t.Zone()
	return offsetText(int64(off / 60))
}

// offsetText is an offset in minutes as +hh:mm or -hh:mm.
func offsetText(min int64) string {
	sign := "+"
	if min < 0 {
		sign, min = "-", -min
	}
	return fmt.Sprintf("%s%02d:%02d", sign, min/60, min%60)
}

// renderDateTimeOffset: the local time with its offset, as .NET's "o".
func renderDateTimeOffset(f fields, _ values.Context) (values.Rendering, bool) {
	dt, ok := f.get("_dateTime", "m_dateTime")
	if !ok || dt.Shape != values.Struct || len(dt.Fields) != 1 || dt.Fields[0].Shape != values.Prim {
		return values.Rendering{}, false
	}
	off, ok := f.prim("_offsetMinutes", "m_offsetMinutes")
	if !ok {
		return values.Rendering{}, false
	}
	utc := int64(dt.Fields[0].Bits & 0x3FFFFFFFFFFFFFFF)
	local := utc + off*60*ticksPerSecond
	if utc > maxTicks || local < 0 || local > maxTicks {
		return values.Rendering{}, false
	}
	text := isoTicks(local) + offsetText(off)
	return values.Rendering{Text: text}, true
}

// timeSpanText is .NET's constant ("c") format: [-][d.]hh:mm:ss[.fffffff].
func timeSpanText(ticks int64) string {
	var b strings.Builder
	u := uint64(ticks)
	if ticks < 0 {
		b.WriteByte('-')
		u = uint64(-ticks)
	}
	days := u / (86400 * ticksPerSecond)
	u %= 86400 * ticksPerSecond
	if days > 0 {
		b.WriteString(strconv.FormatUint(days, 10) + ".")
	}
	h, m, s, frac := u/(3600*ticksPerSecond), u/(60*ticksPerSecond)%60, u/ticksPerSecond%60, u%ticksPerSecond
	fmt.Fprintf(&b, "%02d:%02d:%02d", h, m, s)
	if frac != 0 {
		fmt.Fprintf(&b, ".%07d", frac)
	}
	return b.String()
}

// renderTimeSpan: "c" format, and ".seconds" as a float64.
func renderTimeSpan(f fields, _ values.Context) (values.Rendering, bool) {
	ticks, ok := f.prim("_ticks")
	if !ok {
		return values.Rendering{}, false
	}
	return values.Rendering{Text: timeSpanText(ticks),
		Subs: []values.Sub{sub(".seconds", attribute.Float64Value(float64(ticks)/ticksPerSecond))}}, true
}

// renderDateOnly: yyyy-MM-dd from the day number since 0001-01-01.
func renderDateOnly(f fields, _ values.Context) (values.Rendering, bool) {
	days, ok := f.prim("_dayNumber")
	if !ok || days < 0 || days > maxTicks/(86400*ticksPerSecond) {
		return values.Rendering{}, false
	}
	return values.Rendering{Text: ticksTime(days * 86400 * ticksPerSecond).Format("2006-01-02")}, true
}

// renderTimeOnly: HH:mm:ss.fffffff from the ticks since midnight.
func renderTimeOnly(f fields, _ values.Context) (values.Rendering, bool) {
	ticks, ok := f.prim("_ticks")
	if !ok || ticks < 0 || ticks >= 86400*ticksPerSecond {
		return values.Rendering{}, false
	}
	return values.Rendering{Text: ticksTime(ticks).Format("15:04:05.0000000")}, true
}

// renderGuid: the canonical 8-4-4-4-12 form.
func renderGuid(f fields, _ values.Context) (values.Rendering, bool) {
	var p [len(guidFields)]uint64
	for i, n := range guidFields {
		v, ok := f.primBits(n)
		if !ok {
			return values.Rendering{}, false
		}
		p[i] = v
	}
	// _a, _b and _c, then _d to _k a byte each, grouped 8-4-4-4-12.
	const hex = "0123456789abcdef"
	var b [36]byte
	at := 0
	put := func(v uint64, digits int) {
		for d := digits - 1; d >= 0; d-- {
			b[at] = hex[(v>>(4*uint(d)))&0xf]
			at++
		}
	}
	put(p[0], 8)
	b[at], at = '-', at+1
	put(p[1], 4)
	b[at], at = '-', at+1
	put(p[2], 4)
	b[at], at = '-', at+1
	put(p[3], 2)
	put(p[4], 2)
	b[at], at = '-', at+1
	for _, v := range p[5:] {
		put(v, 2)
	}
	return values.Rendering{Text: string(b[:])}, true
}

// guidFields are System.Guid's fields in the order its text shows them.
var guidFields = [...]string{"_a", "_b", "_c", "_d", "_e", "_f", "_g", "_h", "_i", "_j", "_k"}

// renderUri: the string the Uri was made from.
func renderUri(f fields, _ values.Context) (values.Rendering, bool) {
	s, ok := f.get("_string", "m_String")
	if !ok || s.Shape != values.String {
		return values.Rendering{}, false
	}
	return values.Rendering{As: &s}, true
}

// renderVersion: 1.2, 1.2.3 or 1.2.3.4 (undefined parts are -1).
func renderVersion(f fields, _ values.Context) (values.Rendering, bool) {
	var parts []string
	for i, n := range []string{"_Major", "_Minor", "_Build", "_Revision"} {
		v, ok := f.prim(n)
		if !ok {
			return values.Rendering{}, false
		}
		if v < 0 {
			if i < 2 {
				return values.Rendering{}, false
			}
			break
		}
		parts = append(parts, strconv.FormatInt(v, 10))
	}
	return values.Rendering{Text: strings.Join(parts, ".")}, true
}

// renderStringBuilder: the text, following the chunks back from the last
// (each holds its characters up to m_ChunkLength and links the previous
// one), shown as a string. When a chunk was not captured whole (the byte
// budget, the depth limit) only the known end shows, after "…", with the
// length in ".length".
func renderStringBuilder(f fields, c values.Context) (values.Rendering, bool) {
	var chunks [][]uint16 // last chunk first
	total := int64(-1)
	cut := false
	for cur, i := f, 0; ; i++ {
		length, ok1 := cur.prim("m_ChunkLength")
		offset, ok2 := cur.prim("m_ChunkOffset")
		chars, ok3 := cur.get("m_ChunkChars")
		if !ok1 || !ok2 || !ok3 || chars.Shape != values.Array || length < 0 || offset < 0 {
			if i == 0 {
				return values.Rendering{}, false
			}
			cut = true
			break
		}
		if i == 0 {
			total = offset + length
		}
		if int64(len(chars.Elems)) < length {
			cut = true
			break
		}
		u := make([]uint16, 0, length)
		for _, e := range chars.Elems[:length] {
			if e.Shape != values.Prim {
				break
			}
			u = append(u, uint16(e.Bits))
		}
		if int64(len(u)) < length {
			cut = true
			break
		}
		chunks = append(chunks, u)
		if offset == 0 {
			break
		}
		prev, ok := cur.get("m_ChunkPrevious")
		if !ok || i >= 64 {
			cut = true
			break
		}
		if cur, ok = of(c, prev); !ok {
			cut = true
			break
		}
	}
	var text []uint16
	for i := len(chunks) - 1; i >= 0; i-- {
		text = append(text, chunks[i]...)
	}
	s := values.Value{Shape: values.String, Str: text, StrLen: uint32(len(text))}
	if !cut {
		return values.Rendering{As: &s}, true
	}
	return values.Rendering{Text: values.TextMore + c.Text(s),
		Subs: []values.Sub{sub(".length", attribute.Int64Value(total))}}, true
}

// renderCancellationToken: whether cancellation was requested; "None"
// for a token without a source.
func renderCancellationToken(f fields, c values.Context) (values.Rendering, bool) {
	src, ok := f.get("_source", "m_source")
	if !ok {
		return values.Rendering{}, false
	}
	if src.Shape == values.Null {
		return values.Rendering{Text: "None", Subs: []values.Sub{sub(".requested", attribute.BoolValue(false))}}, true
	}
	sf, ok := of(c, src)
	if !ok {
		return values.Rendering{}, false
	}
	// CancellationTokenSource._state: NotCanceledState, then the
	// notifying states (1/2/3 on .NET Core 3.1, 0/1/2 on .NET 5+).
	state, ok := sf.prim("_state", "m_state")
	if !ok {
		return values.Rendering{}, false
	}
	requested := state > stateBase(sf)
	text := "NotRequested"
	if requested {
		text = "CancellationRequested"
	}
	return values.Rendering{Text: text, Subs: []values.Sub{sub(".requested", attribute.BoolValue(requested))}}, true
}

// stateBase is the value of CancellationTokenSource's NotCanceledState:
// .NET 5+ laid the source out with _kernelEvent and _registrations and
// counts states from 0; 3.1 keeps _executingCallbackId and counts from 1.
func stateBase(sf fields) int64 {
	for _, fd := range sf.ci.Fields {
		if fd.Name == "_registrations" {
			return 0
		}
	}
	return 1
}

// renderType: a Type object (RuntimeType) as the name of the type it
// stands for: its m_handle is the type's MethodTable, which is its ClassID.
func renderType(f fields, c values.Context) (values.Rendering, bool) {
	h, ok := f.primBits("m_handle")
	if !ok || h == 0 {
		return values.Rendering{}, false
	}
	ci, ok := c.Class(h)
	if !ok || ci.Name == "" || ci.Name == "?" {
		return values.Rendering{}, false
	}
	return values.Rendering{Text: "typeof(" + ci.Name + ")"}, true
}

// Task state flags (Task.m_stateFlags).
const (
	taskFaulted         = 0x200000
	taskCanceled        = 0x400000
	taskRanToCompletion = 0x1000000
)

// renderTask: the status, and the result of a completed Task<T>.
func renderTask(f fields, c values.Context) (values.Rendering, bool) {
	flags, ok := f.prim("m_stateFlags")
	if !ok {
		return values.Rendering{}, false
	}
	status := "Pending"
	switch {
	case flags&taskRanToCompletion != 0:
		status = "RanToCompletion"
	case flags&taskFaulted != 0:
		status = "Faulted"
	case flags&taskCanceled != 0:
		status = "Canceled"
	}
	text := status
	if status == "RanToCompletion" {
		if r, ok := f.get("m_result"); ok {
			text += ": " + c.Text(r)
		}
	}
	return values.Rendering{Text: text, Subs: []values.Sub{sub(".status", attribute.StringValue(status))}}, true
}

// renderValueTask: a ValueTask<T> holding its result, or the task (or
// source) behind it.
func renderValueTask(f fields, c values.Context) (values.Rendering, bool) {
	obj, ok := f.get("_obj")
	if !ok {
		return values.Rendering{}, false
	}
	if obj.Shape != values.Null {
		return values.Rendering{Text: c.Text(obj)}, true
	}
	text := "RanToCompletion"
	if r, ok := f.get("_result"); ok {
		text += ": " + c.Text(r)
	}
	return values.Rendering{Text: text, Subs: []values.Sub{sub(".status", attribute.StringValue("RanToCompletion"))}}, true
}

// renderLazy: the value once created, else <not created>. Lazy<T> drops
// its _state once the value exists.
func renderLazy(f fields, _ values.Context) (values.Rendering, bool) {
	state, ok1 := f.get("_state", "m_state")
	val, ok2 := f.get("_value", "m_value")
	if !ok1 || !ok2 {
		return values.Rendering{}, false
	}
	if state.Shape != values.Null {
		return values.Rendering{Text: "<not created>", Subs: []values.Sub{sub(".created", attribute.BoolValue(false))}}, true
	}
	return values.Rendering{As: &val, Subs: []values.Sub{sub(".created", attribute.BoolValue(true))}}, true
}

// renderException: type and message, "System.InvalidOperationException:
// bad state".
func renderException(f fields, c values.Context) (values.Rendering, bool) {
	msg, ok := f.get("_message")
	if !ok {
		return values.Rendering{}, false
	}
	text := f.ci.Name
	if msg.Shape == values.String {
		text += ": " + strings.Trim(c.Text(msg), `"`)
	}
	return values.Rendering{Text: text}, true
}

var codePages = map[int64]string{
	65001: "utf-8", 1200: "utf-16", 1201: "utf-16BE", 12000: "utf-32", 12001: "utf-32BE",
	20127: "us-ascii", 28591: "iso-8859-1", 65000: "utf-7",
}

// renderEncoding: the encoding's web name, from its code page.
func renderEncoding(f fields, _ values.Context) (values.Rendering, bool) {
	cp, ok := f.prim("_codePage", "m_codePage")
	if !ok {
		return values.Rendering{}, false
	}
	name, ok := codePages[cp]
	if !ok {
		name = "codepage " + strconv.FormatInt(cp, 10)
	}
	return values.Rendering{Text: name}, true
}

// renderTuple: Tuple and ValueTuple as (1, "a"); a Rest tuple's items
// follow inline.
func renderTuple(f fields, c values.Context) (values.Rendering, bool) {
	var items []string
	if !tupleItems(f, c, &items, 0) {
		return values.Rendering{}, false
	}
	return values.Rendering{Text: "(" + strings.Join(items, ", ") + ")"}, true
}

func tupleItems(f fields, c values.Context, items *[]string, depth int) bool {
	n := 0
	for i := 1; i <= 7; i++ {
		is := strconv.Itoa(i)
		v, ok := f.get("Item"+is, "m_Item"+is)
		if !ok {
			break
		}
		*items = append(*items, c.Text(v))
		n++
	}
	if n == 0 {
		return false
	}
	if rest, ok := f.get("Rest", "m_Rest"); ok && depth < 4 {
		if rf, ok := of(c, rest); ok && tupleItems(rf, c, items, depth+1) {
			return true
		}
		*items = append(*items, c.Text(rest))
	}
	return true
}

// renderKeyValuePair: [key]=value, the value hidden when the key is
// sensitive; ".key" and ".value" sub-attributes.
func renderKeyValuePair(f fields, c values.Context) (values.Rendering, bool) {
	k, ok1 := f.get("key", "Key")
	v, ok2 := f.get("value", "Value")
	if !ok1 || !ok2 {
		return values.Rendering{}, false
	}
	kt, vt := c.Text(k), c.Text(v)
	if c.SensitiveKey(k) {
		vt = values.TextRedacted
	}
	return values.Rendering{Text: "[" + kt + "]=" + vt, Subs: []values.Sub{
		sub(".key", typedOr(k, kt)),
		sub(".value", typedOr(v, vt)),
	}}, true
}

// typedOr is a primitive as a typed attribute value (integers as int64,
// floats as float64, bool), anything else as its text, a string unquoted.
func typedOr(v values.Value, text string) attribute.Value {
	if v.Shape == values.Prim && text != values.TextRedacted {
		switch v.Kind {
		case values.KindBool:
			return attribute.BoolValue(v.Bits != 0)
		case values.KindR4, values.KindR8:
			return attribute.Float64Value(v.Float())
		case values.KindI1, values.KindI2, values.KindI4, values.KindI8, values.KindI,
			values.KindU1, values.KindU2, values.KindU4:
			return attribute.Int64Value(v.Int())
		}
	}
	return attribute.StringValue(plain(v, text))
}

// plain is a value's text without the quotes of a string.
func plain(v values.Value, text string) string {
	if v.Shape == values.String && strings.HasPrefix(text, `"`) {
		if s, err := strconv.Unquote(text); err == nil {
			return s
		}
	}
	return text
}

// renderDelegate: the delegate's type, the method it calls and, for an
// instance method, its target's class:
// System.Func<Int32, Int32>(Acme.Shop.Service.Count(Int32 extra), target
// Acme.Shop.Service); a static method: System.Func<Decimal,
// Decimal>(Acme.Shop.Pricing.Discount(Decimal d)); a multicast delegate
// says how many it calls. ".method" holds the method.
//
// The method comes from the code pointers the hook copied with the
// delegate's other fields (no runtime call on the app's thread): a static
// method's delegate calls a shuffle thunk (_methodPtr) that jumps to the
// method (_methodPtrAux); otherwise _methodPtr leads to it. The renderer's
// context turns the address into a method off the app's threads
// (values.Methods; the profiler asks GetFunctionFromIP, following the
// method's precode to its code). _methodBase is no help: the runtime fills
// it only once someone reads Delegate.Method. When the address names no
// method (code not compiled yet), the target's class alone shows.
func renderDelegate(f fields, c values.Context) (values.Rendering, bool) {
	target, ok := f.get("_target")
	if !ok {
		return values.Rendering{}, false
	}
	if n, ok := f.prim("_invocationCount"); ok && n > 1 {
		if list, ok := f.get("_invocationList"); ok && list.Shape == values.Array {
			return values.Rendering{Text: f.ci.Name + "(" + strconv.FormatInt(n, 10) + " handlers)"}, true
		}
	}
	var method string
	ptr, _ := f.primBits("_methodPtr")
	aux, _ := f.primBits("_methodPtrAux")
	for _, code := range []uint64{aux, ptr} {
		if m, ok := c.Method(code); ok {
			method = m
			break
		}
	}
	what := "static"
	switch target.Shape {
	case values.Object, values.NoPlan, values.DepthLimit, values.Boxed:
		if ci, ok := c.Class(target.Class); ok && ci.Name != "" {
			what = "target " + ci.Name
		} else {
			what = "target ?"
		}
	case values.Cycle:
		// A static method's delegate keeps itself as its target.
	}
	r := values.Rendering{Text: f.ci.Name + "(" + what + ")"}
	if method != "" {
		r.Subs = []values.Sub{sub(".method", attribute.StringValue(method))}
		r.Text = f.ci.Name + "(" + method + ")"
		if what != "static" {
			r.Text = f.ci.Name + "(" + method + ", " + what + ")"
		}
	}
	return r, true
}
