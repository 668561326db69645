package spool

import (
	"strconv"
	"strings"
)

// AppendSession appends s as a header record, as the shell code writes it.
// A Session with a Capture mode is written as an S2 header, one without
// as S1; one with an Author or a Session as S3.
func AppendSession(buf []byte, s Session) []byte {
	if s.Author != "" || s.Session != "" {
		return appendFields(buf, tagSession3, s.Shell, s.Version, strconv.Itoa(s.PID), s.Host, s.User,
			strconv.Itoa(s.UID), strconv.FormatInt(s.Start, 10), s.Capture, s.Author, s.Session)
	}
	if s.Capture != "" {
		return appendFields(buf, tagSession2, s.Shell, s.Version, strconv.Itoa(s.PID), s.Host, s.User,
			strconv.Itoa(s.UID), strconv.FormatInt(s.Start, 10), s.Capture)
	}
	return appendFields(buf, tagSession, s.Shell, s.Version, strconv.Itoa(s.PID), s.Host, s.User,
		strconv.Itoa(s.UID), strconv.FormatInt(s.Start, 10))
}

// AppendCommand appends c as a command record in zsh's form (the text as
// typed). c.Text must not contain a NUL byte.
func AppendCommand(buf []byte, c Command) []byte {
	return appendCommand(buf, c, FormatRaw, c.Text)
}

// AppendHistoryCommand appends c as bash writes it: the text as `history 1`
// prints it, under history number num.
func AppendHistoryCommand(buf []byte, c Command, num int) []byte {
	n := strconv.Itoa(num)
	if len(n) < 5 {
		n = strings.Repeat(" ", 5-len(n)) + n
	}
	return appendCommand(buf, c, FormatHistory, n+"  "+c.Text+"\n")
}

func appendCommand(buf []byte, c Command, format byte, text string) []byte {
	ps := make([]string, len(c.Pipestatus))
	for i, v := range c.Pipestatus {
		ps[i] = strconv.Itoa(v)
	}
	nums := strings.Join(append([]string{strconv.FormatInt(c.Seq, 10), strconv.FormatInt(c.Start, 10),
		strconv.FormatInt(c.End, 10), strconv.Itoa(c.Exit)}, ps...), " ")
	return appendFields(buf, tagCommand, nums, c.Cwd, string(format), text)
}

// AppendEnv appends e as an environment record, as the shell code writes
// it: an EnvSep in a value is written as EnvSepShown. No value may contain
// a NUL byte.
func AppendEnv(buf []byte, e Env) []byte {
	var vals strings.Builder
	for _, v := range e.Values {
		vals.WriteString(strings.ReplaceAll(v, string(EnvSep), EnvSepShown))
		vals.WriteByte(EnvSep)
	}
	return appendFields(buf, tagEnv, strconv.FormatInt(e.Seq, 10), strings.Join(e.Names, " "), vals.String())
}

// AppendWhy appends w as a why record. w.Text must not contain a NUL
// byte.
func AppendWhy(buf []byte, w Why) []byte {
	return appendFields(buf, tagWhy, strconv.FormatInt(w.Seq, 10)+" "+strconv.FormatInt(w.Time, 10), string(w.Kind), w.Text)
}

func appendFields(buf []byte, fields ...string) []byte {
	for _, f := range fields {
		buf = append(buf, f...)
		buf = append(buf, 0)
	}
	return buf
}
