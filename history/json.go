package history

import (
	"encoding/base64"
	"time"
	"unicode/utf8"
)

// JSON is the JSON shape of an entry, as `hookd history --json` prints it
// (the contract in docs/design.md): a command that is not valid UTF-8 also
// carries its exact bytes, in base64.
func (en Entry) JSON() map[string]any {
	m := map[string]any{
		"id":           en.ID,
		"session":      en.Session,
		"seq":          en.Seq,
		"command":      en.Command,
		"exit_code":    en.ExitCode,
		"pipestatus":   append([]int{}, en.Pipestatus...),
		"cwd":          en.Cwd,
		"started_at":   time.UnixMicro(en.StartedAt).UTC().Format(time.RFC3339Nano),
		"duration_ms":  float64(en.DurationUS) / 1000,
		"shell":        en.Shell,
		"host":         en.Host,
		"host_name":    en.Host,
		"user":         en.User,
		"tty":          en.TTY,
		"output_bytes": en.OutputBytes,
		"source":       en.Source,
		"author":       en.Author,
	}
	if en.HostID != "" {
		// A host is an installation: its id, the same on every machine
		// the command is synced to (the hostname is only its label).
		m["host"], m["host_id"] = en.HostID, en.HostID
	}
	if !utf8.ValidString(en.Command) {
		// JSON strings cannot carry invalid UTF-8: the exact bytes go here.
		m["command_base64"] = base64.StdEncoding.EncodeToString([]byte(en.Command))
	}
	return m
}
