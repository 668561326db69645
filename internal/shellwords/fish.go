package shellwords

import "strings"

// QuoteFish returns s as one single-quoted word that fish reads back as
// exactly s. Inside fish's single quotes \' and \\ are escapes (a
// backslash before anything else is itself), so both are escaped: Quote's
// form would be misread where s holds a backslash before a quote or at
// its end. s must not contain a NUL byte.
func QuoteFish(s string) string {
	if !strings.ContainsAny(s, `\'`) {
		return "'" + s + "'"
	}
	return "'" + fishQuoted.Replace(s) + "'"
}

// fishQuoted escapes what a single-quoted fish string cannot hold as is.
var fishQuoted = strings.NewReplacer(`\`, `\\`, `'`, `\'`)
