package config

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/hookd/hookd/internal/yamlpos"
)

// Warning is something wrong in a file and what hookd does instead. hookd
// never stops for a bad file: a bad value gives way to its default, the
// rest of the file still applies.
type Warning struct {
	File         string
	Line, Column int    // where in File, from 1; 0 when unknown
	Key          string // the setting, such as output.limit; "" for the whole file
	Msg          string // what is wrong
	Then         string // what applies instead, such as "using 1MiB"
}

// String formats the warning as file:line:column: key: message; then
// (yamlpos.Message, as the chain files' problems).
func (w Warning) String() string {
	if w.Then != "" {
		return yamlpos.Message(w.File, w.Line, w.Column, w.Key, w.Msg) + "; " + w.Then
	}
	return yamlpos.Message(w.File, w.Line, w.Column, w.Key, w.Msg)
}

// Under reports whether w is about the setting key or one inside it:
// Under("llm") holds for llm and llm.provider, not for llmx;
// Under("ask.skills") for ask.skills[2].pattern. A * in key stands for
// one or more names, such as a profile's (which may hold dots):
// Under("ask.profiles.*.skills").
func (w Warning) Under(key string) bool {
	return under(keyPath(w.Key), keyPath(key))
}

func under(have, want []string) bool {
	switch {
	case len(want) == 0:
		return true
	case len(have) == 0:
		return false
	case want[0] == "*":
		for i := 1; i <= len(have); i++ {
			if under(have[i:], want[1:]) {
				return true
			}
		}
		return false
	}
	return have[0] == want[0] && under(have[1:], want[1:])
}

// keyPath splits a key into its names and list items:
// ask.skills[2].pattern is ask, skills, [2], pattern.
func keyPath(key string) []string {
	var path []string
	for name := range strings.SplitSeq(key, ".") {
		for name != "" {
			i := strings.IndexByte(name[1:], '[') + 1
			if i <= 0 {
				break
			}
			path = append(path, name[:i])
			name = name[i:]
		}
		if name != "" {
			path = append(path, name)
		}
	}
	return path
}

// inOrder sorts warnings in the order of their lines in the file.
func inOrder(warns []Warning) []Warning {
	slices.SortStableFunc(warns, func(a, b Warning) int { return a.Line - b.Line })
	return warns
}

// valueError is a value refused by one of this package's types, with the
// node that held it.
type valueError struct {
	tok *token.Token
	err error
}

func (e *valueError) Error() string { return e.err.Error() }
func (e *valueError) Unwrap() error { return e.err }

// reject is the error a type's UnmarshalYAML returns for a bad value in n.
func reject(n ast.Node, err error) error {
	return &valueError{tok: n.GetToken(), err: err}
}

// source is one YAML file, parsed.
type source struct {
	file string
	body ast.Node // nil for an empty file
}

// parse parses data, read from file. A syntax error is a Warning with
// the line and column the parser reported.
func parse(file string, data []byte) (*source, *Warning) {
	f, err := parser.ParseBytes(data, 0)
	if err != nil {
		w := &Warning{File: file}
		w.Msg, w.Line, w.Column, _ = yamlpos.Error(err)
		return nil, w
	}
	s := &source{file: file}
	if len(f.Docs) > 0 {
		s.body = f.Docs[0].Body
	}
	return s, nil
}

// at returns a Warning about the setting at path (such as
// "$.output.limit"), placed where the file sets it.
func (s *source) at(path string, msg, then string) Warning {
	w := Warning{File: s.file, Key: strings.TrimPrefix(path, "$."), Msg: msg, Then: then}
	if p, err := yaml.PathString(path); err == nil && s.body != nil {
		if n, err := p.FilterNode(s.body); err == nil && n != nil {
			w.Line, w.Column = yamlpos.Node(n)
		}
	}
	return w
}

// maxDrops bounds the entries dropped from one file before it is given up
// on as a whole (each drop decodes the file again).
const maxDrops = 50

// decode decodes the file (strictly: unknown keys are errors) into what
// fresh returns. Each time the decoder refuses a value, the entry that holds
// it is dropped from the tree, with a Warning, and decoding starts again
// from fresh, so a bad value gives way to its default and the rest of the
// file still applies. With top, the entry dropped is the top-level item
// that holds the bad value (for a file that is a list of records). An error
// that cannot be placed is returned as the last Warning, with ok false: the
// file cannot be used.
func decode[T any](s *source, fresh func() T, top bool) (v T, warns []Warning, ok bool) {
	orig := numberItems(s.body)
	var keys []*entry // the keys dropped, by warning; nil for list items
	for {
		v = fresh()
		if s.body == nil {
			break
		}
		err := yaml.NodeToValue(s.body, &v, yaml.Strict())
		if err == nil {
			break
		}
		tok, msg := explain(err)
		w := Warning{File: s.file, Msg: msg}
		w.Line, w.Column = yamlpos.Of(tok)
		var hit *entry
		if tok != nil {
			hit = find(s.body, tok, orig, &entry{drop: func() { s.body = nil }})
		}
		if hit == nil || hit.path == nil || len(warns) == maxDrops {
			return fresh(), append(warns, w), false
		}
		w.Key = hit.name
		if top {
			hit = hit.outer()
		}
		hit.drop()
		warns = append(warns, w)
		keys = append(keys, hit)
	}
	// What applies instead of a key dropped is what the last pass decoded
	// where it was, unless what held it was dropped too.
	for i, e := range keys {
		warns[i].Then = "skipped"
		if e.holder == nil {
			continue
		}
		warns[i].Then = "ignored"
		if path, ok := pathTo(s.body, e.holder, nil); ok {
			warns[i].Then = fallback(reflect.ValueOf(v), append(path, e.path[len(e.path)-1]))
		}
	}
	return v, warns, true
}

// explain returns the token a decoding error is about and a message for
// people.
func explain(err error) (*token.Token, string) {
	var ve *valueError
	if errors.As(err, &ve) {
		return ve.tok, ve.err.Error()
	}
	var ye yaml.Error
	if !errors.As(err, &ye) {
		return nil, err.Error()
	}
	tok := ye.GetToken()
	val := ""
	if tok != nil {
		val = tok.Value
	}
	var (
		te *yaml.TypeError
		oe *yaml.OverflowError
		ue *yaml.UnknownFieldError
		ne *yaml.UnexpectedNodeTypeError
	)
	switch {
	case errors.As(err, &te):
		what := strconv.Quote(val)
		switch tok.Type {
		case token.SequenceStartType, token.SequenceEntryType:
			what = "a list"
		case token.MappingStartType, token.MappingValueType:
			what = "a mapping"
		}
		return tok, fmt.Sprintf("want %s, not %s", kindName(te.DstType), what)
	case errors.As(err, &oe):
		return tok, fmt.Sprintf("%s is too large", val)
	case errors.As(err, &ue):
		return tok, "unknown setting"
	case errors.As(err, &ne):
		return tok, fmt.Sprintf("want %s, not %s", article(ne.Expected.YAMLName()), article(ne.Actual.YAMLName()))
	}
	return tok, ye.GetMessage()
}

// kindName says what a value of type t looks like in YAML.
func kindName(t reflect.Type) string {
	if t == nil {
		return "valid here"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "text"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "a mapping"
	}
	return "a " + t.String()
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}

// entry is a place in the tree: a key of a mapping or an item of a list,
// with the way to drop it and the entry that holds it.
type entry struct {
	path []string // keys, and list indexes as [i]; nil for the whole document
	name string   // the path as the user wrote it: output.limit, ask.skills[2]
	// holder is the mapping that holds the key; nil for a list item.
	holder ast.Node
	drop   func()
	up     *entry
}

// outer returns the top-level entry that holds e.
func (e *entry) outer() *entry {
	for e.up != nil && e.up.path != nil {
		e = e.up
	}
	return e
}

// under returns the entry for a key of e, or for an item: [i].
func (e *entry) under(key string, drop func()) *entry {
	name := key
	switch {
	case strings.HasPrefix(key, "["):
		name = e.name + key
	case e.name != "":
		name = e.name + "." + key
	}
	return &entry{path: appendPath(e.path, key), name: name, drop: drop, up: e}
}

// numberItems numbers the items of every list under n, before any is
// dropped, so that warnings count as the file does.
func numberItems(n ast.Node) map[ast.Node]int {
	orig := map[ast.Node]int{}
	ast.Walk(visitor(func(n ast.Node) {
		if seq, ok := n.(*ast.SequenceNode); ok {
			for i, item := range seq.Values {
				orig[item] = i
			}
		}
	}), n)
	return orig
}

type visitor func(ast.Node)

func (v visitor) Visit(n ast.Node) ast.Visitor {
	v(n)
	return v
}

// find returns the innermost entry under n, held by up, whose key or value
// is tok; orig numbers the list items.
func find(n ast.Node, tok *token.Token, orig map[ast.Node]int, up *entry) *entry {
	switch n := n.(type) {
	case *ast.MappingNode:
		for i, mv := range n.Values {
			e := up.under(keyName(mv.Key), func() { n.Values = slices.Delete(n.Values, i, i+1) })
			e.holder = n
			if hit := findIn(mv, tok, orig, e); hit != nil {
				return hit
			}
		}
	case *ast.SequenceNode:
		for i, item := range n.Values {
			e := up.under("["+strconv.Itoa(i)+"]", func() { dropItem(n, i) })
			e.name = up.name + "[" + strconv.Itoa(orig[item]) + "]"
			if hit := find(item, tok, orig, e); hit != nil {
				return hit
			}
			if item.GetToken() == tok {
				return e
			}
		}
	case *ast.AnchorNode:
		return find(n.Value, tok, orig, up)
	case *ast.TagNode:
		return find(n.Value, tok, orig, up)
	}
	return nil
}

// pathTo returns the path of target under n (at path), as the tree is now.
func pathTo(n, target ast.Node, path []string) ([]string, bool) {
	if n == target {
		return path, true
	}
	switch n := n.(type) {
	case *ast.MappingNode:
		for _, mv := range n.Values {
			if p, ok := pathTo(mv.Value, target, appendPath(path, keyName(mv.Key))); ok {
				return p, true
			}
		}
	case *ast.SequenceNode:
		for i, item := range n.Values {
			if p, ok := pathTo(item, target, appendPath(path, "["+strconv.Itoa(i)+"]")); ok {
				return p, true
			}
		}
	case *ast.AnchorNode:
		return pathTo(n.Value, target, path)
	case *ast.TagNode:
		return pathTo(n.Value, target, path)
	}
	return nil, false
}

// findIn looks for tok in one key and its value, e being the entry of
// that key.
func findIn(mv *ast.MappingValueNode, tok *token.Token, orig map[ast.Node]int, e *entry) *entry {
	if hit := find(mv.Value, tok, orig, e); hit != nil {
		return hit
	}
	if mv.Key.GetToken() == tok || mv.Value.GetToken() == tok {
		return e
	}
	return nil
}

func keyName(k ast.MapKeyNode) string {
	if s, ok := k.(*ast.StringNode); ok {
		return s.Value
	}
	return k.GetToken().Value
}

// dropItem removes item i of a list, and what the parser keeps beside it.
func dropItem(n *ast.SequenceNode, i int) {
	n.Values = slices.Delete(n.Values, i, i+1)
	if i < len(n.ValueHeadComments) {
		n.ValueHeadComments = slices.Delete(n.ValueHeadComments, i, i+1)
	}
	if i < len(n.Entries) {
		n.Entries = slices.Delete(n.Entries, i, i+1)
	}
}

// fallback says what applies at path in v, once what the file said there
// is dropped: the default, or nothing.
func fallback(v reflect.Value, path []string) string {
	for _, p := range path {
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		switch v.Kind() {
		case reflect.Struct:
			v = fieldByTag(v, p)
		case reflect.Map:
			v = v.MapIndex(reflect.ValueOf(p))
		case reflect.Slice:
			i, err := strconv.Atoi(strings.Trim(p, "[]"))
			if err != nil || i >= v.Len() {
				return "ignored"
			}
			v = v.Index(i)
		default:
			return "ignored"
		}
		if !v.IsValid() {
			return "ignored"
		}
	}
	if s, ok := v.Interface().(fmt.Stringer); ok {
		if str := s.String(); str != "" {
			return "using " + str
		}
		return "ignored"
	}
	switch v.Kind() {
	case reflect.Struct:
		return "using the defaults"
	case reflect.Bool, reflect.Int, reflect.Int64:
		return fmt.Sprintf("using %v", v.Interface())
	case reflect.String:
		if v.String() != "" {
			return "using " + v.String()
		}
	}
	return "ignored"
}

// fieldByTag returns the field of struct v whose yaml tag is name.
func fieldByTag(v reflect.Value, name string) reflect.Value {
	t := v.Type()
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if tag == name {
			return v.Field(i)
		}
	}
	return reflect.Value{}
}

// item returns the token of item i of a file that is a list; nil when
// there is none.
func (s *source) item(i int) *token.Token {
	seq, ok := s.body.(*ast.SequenceNode)
	if !ok || i >= len(seq.Values) {
		return nil
	}
	return seq.Values[i].GetToken()
}

func appendPath(path []string, p string) []string {
	return append(slices.Clip(path), p)
}
