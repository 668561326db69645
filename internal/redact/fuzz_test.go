package redact

import (
	"strings"
	"testing"
)

// planted secrets for FuzzString: text inserted between the two fuzzed
// halves, and the secret inside it that must not survive. A quoted value is
// only one if the halves have no quotes of their own: in
// TOKEN=" API_TOKEN="x y" the shell sees x outside quotes.
var planted = []struct {
	text, secret string
	quoted       bool
}{
	{" " + ghToken + " ", ghToken, false},
	{" " + awsKeyID + " ", awsKeyID, false},
	{" PASSWORD=Zq8vN3xKp ", "Zq8vN3xKp", false},
	{` export API_TOKEN="Zq8 vN3xKp" `, "Zq8 vN3xKp", true},
	{" https://bob:Zq8vN3xKp@example.com/ ", "Zq8vN3xKp", false},
	{` -H "Authorization: Bearer Zq8vN3xKp" `, "Zq8vN3xKp", false},
	{" " + jwt + " ", jwt, false},
	{"\n-----BEGIN PRIVATE KEY-----\nZq8vN3xKpMIIEv\n-----END PRIVATE KEY-----\n", "Zq8vN3xKpMIIEv", false},
}

func FuzzString(f *testing.F) {
	f.Add("curl -s", "https://x", uint8(5))
	f.Add("export", "; echo $PASSWORD", uint8(2))
	f.Add("\x1b[31m\xff", "\x00\r\n", uint8(7))
	f.Add(`TOKEN="${X}`, `" x`, uint8(3))
	f.Add("Authorization: Bearer", "password=", uint8(4))
	f.Fuzz(func(t *testing.T, a, b string, kind uint8) {
		p := planted[int(kind)%len(planted)]
		in := a + p.text + b
		out, n := (*Redactor)(nil).String(in)
		check := !strings.Contains(a, p.secret) && !strings.Contains(b, p.secret)
		if p.quoted && strings.ContainsAny(a+b, `"'`) {
			check = false
		}
		if check && strings.Contains(out, p.secret) {
			t.Errorf("String(%q) = %q; planted secret %q survived", in, out, p.secret)
		}
		if n == 0 || !strings.Contains(out, Marker) {
			t.Errorf("String(%q) = %q, %d; want at least one redaction", in, out, n)
		}
		if again, n2 := (*Redactor)(nil).String(out); again != out || n2 != 0 {
			t.Errorf("String(String(%q)) = %q, %d; want %q, 0 (idempotent)", in, again, n2, out)
		}
		// The halves alone: no panic, idempotent, unchanged when nothing found.
		for _, s := range []string{a, a + b} {
			out, n := (*Redactor)(nil).String(s)
			if n == 0 && out != s {
				t.Errorf("String(%q) = %q with count 0", s, out)
			}
			if again, _ := (*Redactor)(nil).String(out); again != out {
				t.Errorf("String(String(%q)) = %q; want %q (idempotent)", s, again, out)
			}
		}
	})
}
