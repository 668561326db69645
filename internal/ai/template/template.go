// Package template expands the prompt template of `hookd ask`: `$NAME`
// and `${NAME}` stand for a variable, `$$` for a dollar. Built-in variables (`$_SCREEN`, `$_LAST`, `$_GIT`, …) are
// computed only when the template uses them and inserted as they are,
// never expanded again: their text comes from the terminal and must not
// be able to pull in anything. The user's own variables are templates
// themselves and may refer to each other and to the built-ins; a cycle
// among them is an error that names them.
package template

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Builtin computes the value of a built-in variable. It is called at most
// once per Expand, and only when the variable is used.
type Builtin func() (string, error)

// Vars are what a template can refer to.
type Vars struct {
	// Builtin are the built-in variables, by name without the dollar
	// ("_SCREEN"). Their values are inserted literally.
	Builtin map[string]Builtin
	// User are the user's variables, by name; their values are expanded
	// in turn.
	User map[string]string
}

// Result says what an expansion met besides the text.
type Result struct {
	// Unknown are the `$_NAME`s used that are neither built in nor the
	// user's, left as written, in order of first use.
	Unknown []string
	// Used are the variables expanded, built-in and the user's, in order
	// of first use.
	Used []string
}

// CycleError is a user variable that refers back to itself.
type CycleError struct {
	// Names is the cycle, starting and ending with the same name.
	Names []string
}

func (e *CycleError) Error() string {
	return "template variables refer to each other in a cycle: $" + strings.Join(e.Names, " → $")
}

// BuiltinError is a built-in variable that could not be computed.
type BuiltinError struct {
	Name string
	Err  error
}

func (e *BuiltinError) Error() string { return fmt.Sprintf("$%s: %v", e.Name, e.Err) }
func (e *BuiltinError) Unwrap() error { return e.Err }

// Expand expands text. A variable name is a letter or underscore followed
// by letters, digits and underscores; `${NAME}` delimits one inside a
// word. A `$NAME` that is neither built in nor the user's is left as it
// is (it may be shell text in the template, such as $HOME); Result lists
// the unknown ones that start with an underscore, the built-ins' prefix,
// since those are likely typos. The error is a *CycleError or a
// *BuiltinError.
func Expand(text string, v Vars) (string, Result, error) {
	e := expander{vars: v, builtins: map[string]string{}, users: map[string]string{}, seen: map[string]bool{}}
	out, err := e.expand(text, nil)
	return out, e.res, err
}

// Check reports a cycle among the user's variables, whether or not a
// template uses them: a configuration is checked once, when it is read.
func Check(user map[string]string) error {
	names := make([]string, 0, len(user))
	for n := range user {
		names = append(names, n)
	}
	sort.Strings(names)
	e := expander{vars: Vars{User: user}, builtins: map[string]string{}, users: map[string]string{}, seen: map[string]bool{}, check: true}
	for _, n := range names {
		if _, err := e.user(n, nil); err != nil {
			return err
		}
	}
	return nil
}

type expander struct {
	vars     Vars
	builtins map[string]string // computed built-ins
	users    map[string]string // expanded user variables
	seen     map[string]bool   // names in Result already
	res      Result
	check    bool // only look for cycles: built-ins are not computed
}

func (e *expander) expand(text string, stack []string) (string, error) {
	var b strings.Builder
	b.Grow(len(text))
	for {
		i := strings.IndexByte(text, '$')
		if i < 0 {
			b.WriteString(text)
			return b.String(), nil
		}
		b.WriteString(text[:i])
		text = text[i:]
		name, n := varName(text)
		switch {
		case strings.HasPrefix(text, "$$"):
			b.WriteByte('$')
			text = text[2:]
			continue
		case name == "":
			b.WriteByte('$')
			text = text[1:]
			continue
		}
		val, ok, err := e.lookup(name, stack)
		if err != nil {
			return "", err
		}
		if ok {
			b.WriteString(val)
		} else {
			b.WriteString(text[:n])
		}
		text = text[n:]
	}
}

// varName reads the variable at the start of s ("$NAME" or "${NAME}") and
// returns its name and length; "" when there is none.
func varName(s string) (string, int) {
	if strings.HasPrefix(s, "${") {
		end := strings.IndexByte(s, '}')
		if end < 0 || !isName(s[2:end]) {
			return "", 0
		}
		return s[2:end], end + 1
	}
	j := 1
	for j < len(s) && (isLetter(s[j]) || (j > 1 && isDigit(s[j]))) {
		j++
	}
	if j == 1 {
		return "", 0
	}
	return s[1:j], j
}

func isName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) && !isDigit(s[i]) {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }

// lookup returns the value of name: the user's variable first (a user may
// override a built-in), then the built-in.
func (e *expander) lookup(name string, stack []string) (string, bool, error) {
	if _, ok := e.vars.User[name]; ok {
		val, err := e.user(name, stack)
		return val, err == nil, err
	}
	if f, ok := e.vars.Builtin[name]; ok {
		e.use(name)
		if e.check {
			return "", true, nil
		}
		if val, done := e.builtins[name]; done {
			return val, true, nil
		}
		val, err := f()
		if err != nil {
			return "", false, &BuiltinError{name, err}
		}
		e.builtins[name] = val
		return val, true, nil
	}
	if strings.HasPrefix(name, "_") && !slices.Contains(e.res.Unknown, name) {
		e.res.Unknown = append(e.res.Unknown, name)
	}
	return "", false, nil
}

func (e *expander) user(name string, stack []string) (string, error) {
	for i, s := range stack {
		if s == name {
			return "", &CycleError{Names: append(append([]string{}, stack[i:]...), name)}
		}
	}
	if val, done := e.users[name]; done {
		return val, nil
	}
	e.use(name)
	val, err := e.expand(e.vars.User[name], append(stack, name))
	if err != nil {
		return "", err
	}
	e.users[name] = val
	return val, nil
}

func (e *expander) use(name string) {
	if !e.seen[name] {
		e.seen[name] = true
		e.res.Used = append(e.res.Used, name)
	}
}
