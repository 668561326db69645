package shellwords

// IsName reports whether s is a name a shell can assign and export: a
// letter or underscore, then letters, digits and underscores (POSIX's
// "name"). It is the one definition of an environment variable's name:
// the configuration's fix.watch_env, the scripts' watch list, a chain's
// env: and every environment the history stores (recorded here, merged
// from another machine) are checked against it, so that a name is always
// one word of an `export NAME=VALUE` line and never code.
func IsName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
