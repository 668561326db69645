package redact

import (
	"slices"
	"strings"
	"sync"
)

// Building blocks for the built-in rules. Except for private keys, rules
// never match "\r" or "\n": they work on single lines.
const (
	bt = "`"
	// dqValue is a double-quoted value with backslash escapes. A missing
	// closing quote (value cut off at the end of the line) still counts.
	dqValue = `"(?P<secret>(?:[^"\\\r\n]|\\[^\r\n])*)(?:"|$)`
	// sqValue is a single-quoted value.
	sqValue = `'(?P<secret>[^'\r\n]*)(?:'|$)`
	// uqValue is an unquoted shell word: it ends at whitespace, a quote or
	// a shell operator and does not start with "=" (so "a == b" is no
	// assignment).
	uqValue = `(?P<secret>[^\s"'=&;|<>()` + bt + `][^\s"'&;|<>()` + bt + `]*)`
	value   = `(?:` + dqValue + `|` + sqValue + `|` + uqValue + `)`
	// lineValue is a value that must be the last thing on its line (YAML).
	lineValue = `(?:` + dqValue + `|` + sqValue + `|(?P<secret>[^\s"']\S*))`

	// secretWords end key names whose value is a secret: DB_PASSWORD,
	// client_secret, GITHUB_TOKEN, x-api-key, aws_secret_access_key...
	secretWords = `passw(?:or)?d|passphrase|secret(?:[_-]?key)?|token|api[_-]?key|access[_-]?key|account[_-]?key`
	// authSchemes are HTTP Authorization schemes followed by the credential.
	authSchemes = `bearer|basic|token|bot|apikey|api-key|key|ssws|oauth|jwt|negotiate|ntlm|splunk|sso-key`
)

// Trigger lists. Every alternative of a keyword group starts with one of
// its triggers, since anchored rules match from the trigger on.
var (
	secretWordTriggers = []string{"passw", "passphrase", "secret", "token", "api_key", "api-key", "apikey",
		"access_key", "access-key", "accesskey", "account_key", "account-key", "accountkey"}
	assignmentTriggers = append(slices.Clip(secretWordTriggers), "pwd")
	yamlTriggers       = append(slices.Clip(secretWordTriggers), "authorization")
	flagTriggers       = []string{"pass", "secret", "token", "api_key", "api-key", "apikey",
		"access_key", "access-key", "accesskey", "account_key", "account-key", "accountkey", "bearer"}
)

// builtin is the list of built-in rules.
// builtinRules is the list of built-in rules, compiled the first time
// they are needed (compiling them takes more than a millisecond, which
// commands that redact nothing do not pay).
var builtinRules = sync.OnceValue(func() []rule {
	return []rule{
		// Private key blocks (PEM, OpenSSH, PGP): the body is replaced. A block
		// without an END line (cut-off output) is redacted to the end of input.
		wholeRule("private-key", []string{"private key"},
			`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?P<secret>(?s:.*?))(?:-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|\z)`),

		// Well-known token formats: the whole token is replaced.
		anchored("aws-access-key-id", []string{"akia", "asia"}, leftWord, `(?:AKIA|ASIA)[A-Z0-9]{16}\b`),
		anchored("github", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, leftWord,
			`gh[pousr]_[A-Za-z0-9]{30,}\b|github_pat_[A-Za-z0-9_]{30,}\b`),
		anchored("gitlab", []string{"glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glcbt-", "glimt-", "gloas-", "glsoat-"}, leftWord,
			`gl(?:pat|dt|rt|ptt|ft|cbt|imt|oas|soat)-[A-Za-z0-9_-]{20,}`),
		anchored("slack-token", []string{"xox"}, leftWord, `xox[abeoprs]-[A-Za-z0-9-]{10,}`),
		anchored("slack-webhook", []string{"hooks.slack.com"}, leftAny,
			`hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9_/-]+)`),
		anchored("discord-webhook", []string{"discord"}, leftAny,
			`discord(?:app)?\.com/api/webhooks/(?P<secret>[0-9]+/[A-Za-z0-9_-]+)`),
		anchored("stripe", []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"}, leftWord,
			`[sr]k_(?:live|test)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9+/=]{20,}`),
		anchored("npm", []string{"npm_"}, leftWord, `npm_[A-Za-z0-9]{36,}\b`),
		checked(anchored("openai-style", []string{"sk-"}, leftWord, `sk-[A-Za-z0-9_-]{32,}`), mixedCase),
		anchored("google", []string{"aiza", "gocspx-", "ya29."}, leftWord,
			`AIza[0-9A-Za-z_-]{35}|GOCSPX-[0-9A-Za-z_-]{20,}|ya29\.[0-9A-Za-z_-]{20,}`),
		// OpenRouter's keys are lowercase hex, which openai-style's
		// mixed-case check would let through; Groq's start gsk_.
		anchored("openrouter", []string{"sk-or-v1-"}, leftWord, `sk-or-v1-[A-Za-z0-9]{32,}`),
		anchored("groq", []string{"gsk_"}, leftWord, `gsk_[A-Za-z0-9]{20,}\b`),
		anchored("huggingface", []string{"hf_"}, leftWord, `hf_[A-Za-z0-9]{30,}\b`),
		anchored("pypi", []string{"pypi-ageichlwas5vcmc"}, leftWord, `pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,}`),
		anchored("sendgrid", []string{"sg."}, leftWord, `SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`),
		anchored("digitalocean", []string{"dop_v1_", "doo_v1_", "dor_v1_"}, leftWord, `do[opr]_v1_[a-f0-9]{64}\b`),
		anchored("shopify", []string{"shpat_", "shpca_", "shppa_", "shpss_"}, leftWord, `shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`),
		anchored("age", []string{"age-secret-key-1"}, leftWord, `AGE-SECRET-KEY-1[0-9A-Z]{50,}`),
		anchored("jwt", []string{"eyj"}, leftWord, `eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),
		// hookd's own sync recovery phrase (hookd sync init): "hookd1-"
		// and eleven groups of five base32 letters. What follows "hookd1"
		// is replaced: the whole phrase with any spacing and case (as
		// hookd sync join reads it, 0 for o and 8 for b), or, dashed, any
		// part of it of five letters or more (a part leaves too few
		// letters to guess).
		anchored("hookd-recovery-phrase", []string{"hookd1"}, leftWord,
			`(?i:hookd1[- \t]?(?P<secret>[a-z02-8](?:[- \t]?[a-z02-8]){54})\b|hookd1-?(?P<secret>[a-z02-8](?:-?[a-z02-8]){4,}))`),

		// Credentials in URLs: scheme://user:SECRET@host (the user is kept).
		anchored("url-password", []string{"://"}, leftScheme, `://[^\s/?#@:'"]*:(?P<secret>[^\s/?#'"]+)@`),

		// Authorization headers with a scheme, anywhere in the text.
		checked(anchored("authorization", []string{"authorization"}, leftWord,
			`(?i:authorization["']?[ \t]*[:=][ \t]*["']?(?:`+authSchemes+`)[ \t]+)`+uqValue), looksSecret),
		// curl/wget style header arguments: -H 'X-Api-Key: SECRET', --header=...
		checked(anchored("header-arg", []string{"-h"}, leftSpace, `-H`+headerArg), secretHeader),
		checked(anchored("header-arg-long", []string{"--header"}, leftSpace, `--header`+headerArg), secretHeader),
		lineRule("cookie", []string{"cookie"},
			`(?:(?:^|[ \t])(?:-H|--header)[ \t]*=?[ \t]*["']?|^[ \t]*[<>*]?)[ \t]*(?i:(?:set-)?cookie)[ \t]*:[ \t]*(?P<secret>[^"'\r\n]*[^\s"'])`),

		// KEY=VALUE, KEY = VALUE, 'KEY' => VALUE, "KEY": VALUE for secret keys.
		checked(anchored("assignment", assignmentTriggers, leftKey,
			`(?i:(?P<key>`+secretWords+`|pwd))(?:["']?(?:=|[ \t]+=[ \t]*|[ \t]*=>[ \t]*)|["'][ \t]*:[ \t]*)`+value), assignment),
		// YAML / HTTP-dump lines "  password: VALUE" where the value ends the line.
		checked(anchored("yaml", yamlTriggers, leftYAML,
			`(?i:(?P<key>password|passphrase|secret(?:[_-]?key)?|token|api[_-]?key|access[_-]?key|account[_-]?key|authorization))["']?[ \t]*:[ \t]*(?i:(?:`+authSchemes+`)[ \t]+)?`+lineValue+`(?:[ \t]+#.*)?[ \t]*$`), yamlValue),
		// Keys named PASS or ending in _PASS (DB_PASS=…, "smtp_pass": …,
		// REDIS_PASS: …); bypass and compass are no such keys.
		checked(anchored("pass-assignment", []string{"pass"}, leftKey,
			`(?i:(?P<key>pass))(?:["']?(?:=|[ \t]+=[ \t]*|[ \t]*=>[ \t]*)|["'][ \t]*:[ \t]*)`+value), passKey(assignment)),
		checked(anchored("pass-yaml", []string{"pass"}, leftYAML,
			`(?i:(?P<key>pass))["']?[ \t]*:[ \t]*`+lineValue+`(?:[ \t]+#.*)?[ \t]*$`), passKey(yamlValue)),
		// Kubeconfig credentials: base64 of a PEM private key or client
		// certificate (kubectl config view --raw), in YAML or JSON.
		anchored("kubeconfig-data", []string{"client-key-data", "client-certificate-data"}, leftAny,
			`(?i:client-(?:key|certificate)-data)["']?[ \t]*:[ \t]*`+value),
		// Password labels in output, anywhere on a line: "db password: X",
		// "Your password: X", "passwd: X". Prose such as "wrong password: try
		// again" and prompts ("Password: ") are left alone by passwordLabel.
		checked(anchored("password-label", []string{"passw", "passphrase"}, leftKey,
			`(?i:(?P<key>passw(?:or)?d|passphrase))[ \t]*:[ \t]+`+value), passwordLabel),
		// Flags taking a secret as the next argument: --password X, -token X.
		// (--password=X is an assignment.)
		checked(anchored("flag", flagTriggers, leftFlag,
			`(?i:(?P<key>`+secretWords+`|bearer|pass(?:in|out)?))[ \t]+`+value), flagValue),
		// KEY VALUE after "set" or "config" (npm, git, aws configure).
		checked(anchored("config-set", secretWordTriggers, leftConfig,
			`(?i:(?P<key>`+secretWords+`))[ \t]+`+value), notFlag),

		// Command-specific password options.
		anchored("curl-user", []string{"-u", "--user", "--proxy-user"}, curlArg,
			`(?:-u|--user|-U|--proxy-user)(?:[ \t]+|=)?["']?(?:[^\s:"'-][^\s:"']*)?:(?P<secret>[^\s"']+)`),
		anchored("curl-cookie", []string{"-b", "--cookie"}, curlArg,
			`(?:-b|--cookie)(?:[ \t]+|=)(?:"(?P<secret>[^"\r\n]*=[^"\r\n]*)"|'(?P<secret>[^'\r\n]*=[^'\r\n]*)'|(?P<secret>[^\s"'=][^\s"']*=[^\s"']*))`),
		anchored("httpie-auth", []string{"-a", "--auth"}, leftAfter("|;&", []string{"http"}, "http", "https"),
			`(?:-a|--auth)(?:[ \t]+|=)?["']?(?:[^\s:"'-][^\s:"']*)?:(?P<secret>[^\s"']+)`),
		// mysql -pSECRET: for the MySQL clients an attached -p value is always
		// the password (-p alone prompts, -P is the port), so this is safe only
		// because the command name is checked.
		anchored("mysql-p", []string{"-p"}, leftAfter("|;&", []string{"mysql", "mariadb"},
			"mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlslap", "mysqlpump",
			"mariadb", "mariadb-dump", "mariadb-admin"),
			`-p(?:`+dqValue+`|`+sqValue+`|`+uqValue+`)`),
		anchored("sshpass", []string{"-p"}, leftAfter("|;&", []string{"sshpass"}, "sshpass"), `-p[ \t]*`+value),
		checked(anchored("login-p", []string{"-p"}, leftAfter("|;&", []string{"login"}, "login"), `-p[ \t]+`+value), notFlag),
		anchored("ssh-keygen", []string{"-n", "-p"}, leftAfter("|;&", []string{"ssh-keygen"}, "ssh-keygen"), `-[NP][ \t]*`+value),
		// .netrc: machine HOST login USER password SECRET.
		anchored("netrc", []string{"password"}, leftAfter("|;&", []string{"login"}, "login"), `password[ \t]+`+value),
		// Secrets set on the command line: kubectl create secret generic
		// --from-literal=KEY=SECRET, gh secret set NAME --body SECRET.
		anchored("secret-literal", []string{"--from-literal="}, leftAfter("|;&", []string{"secret"}, "secret"), `--from-literal=[^\s=]+=`+value),
		checked(anchored("secret-body", []string{"--body", "-b"}, leftAfter("|;&", []string{"secret"}, "secret"), `(?:--body|-b)(?:[ \t]+|=)`+value), notFlag),
		checked(anchored("redis-cli", []string{"-a"}, leftAfter("|;&", []string{"redis-cli"}, "redis-cli"), `-a[ \t]+`+value), notFlag),
	}
})

// curlArg: an option of curl. Quoted arguments may contain ";" (cookies),
// so only "|" and "&" end the command.
var curlArg = leftAfter("|&", []string{"curl"}, "curl")

// headerArg follows -H or --header: the header name and, for names that
// suggest a credential, the value after an optional scheme.
const headerArg = `[ \t]*=?[ \t]*["']?[ \t]*(?P<key>[A-Za-z0-9_-]+)[ \t]*:[ \t]*(?i:(?:` + authSchemes + `)[ \t]+)?` + uqValue

// anchored returns a rule whose body matches from a trigger on, after the
// condition l on the text before it.
func anchored(name string, triggers []string, l left, body string) rule {
	at := compile(`^(?:` + body + `)`)
	return rule{name: name, triggers: triggers, line: compile(l.frag + `(?:` + body + `)`), at: &at, left: l}
}

func lineRule(name string, triggers []string, expr string) rule {
	return rule{name: name, triggers: triggers, line: compile(expr)}
}

func wholeRule(name string, triggers []string, expr string) rule {
	return rule{name: name, triggers: triggers, line: compile(expr), whole: true}
}

func checked(ru rule, check func(*candidate) bool) rule {
	ru.check = check
	return ru
}

// mixedCase accepts sk-... keys containing a digit, an upper- and a
// lowercase letter, which random keys do and long kebab-case words do not.
func mixedCase(c *candidate) bool {
	var digit, upper, lower bool
	v := c.value()
	for i := len("sk-"); i < len(v); i++ {
		ch := v[i]
		digit = digit || '0' <= ch && ch <= '9'
		upper = upper || 'A' <= ch && ch <= 'Z'
		lower = lower || 'a' <= ch && ch <= 'z'
	}
	return digit && upper && lower
}

// looksSecret rejects short all-letter words, so that prose such as
// "authorization: basic auth" is left alone while "Bearer abc.def" is not.
func looksSecret(c *candidate) bool {
	v := c.value()
	if len(v) >= 16 {
		return true
	}
	for i := 0; i < len(v); i++ {
		if ch := v[i] | 0x20; ch < 'a' || ch > 'z' {
			return true
		}
	}
	return false
}

// secretHeader accepts headers whose name suggests a credential.
func secretHeader(c *candidate) bool {
	name := strings.ToLower(c.key())
	for _, suf := range []string{"authorization", "token", "secret", "password", "passphrase", "key", "auth", "credentials"} {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// assignment filters KEY=VALUE matches.
func assignment(c *candidate) bool {
	key := strings.ToLower(c.key())
	v := c.value()
	// PWD=/home/me and OLDPWD=~ are directories, not passwords.
	if strings.HasSuffix(key, "pwd") && (v[0] == '/' || v[0] == '~') {
		return false
	}
	// grep "password=" file: the quote after "=" closes the string that
	// opened before the key; it does not open a value.
	if q := c.quote(); q != 0 && c.keyStart > 0 && c.text[c.keyStart-1] == q && c.text[c.keyEnd] != q {
		return false
	}
	return true
}

// notPasswords are one-word statements about a password that output
// prints after "password:", which are not the password.
var notPasswords = map[string]bool{
	"incorrect": true, "invalid": true, "required": true, "missing": true, "none": true, "(none)": true,
	"empty": true, "wrong": true, "expired": true, "changed": true, "updated": true, "set": true,
	"unset": true, "not": true, "yes": true, "no": true, "ok": true, "failed": true, "denied": true,
	"hidden": true, "n/a": true, "unknown": true, "accepted": true, "rejected": true, "ignored": true,
	"unchanged": true, "correct": true, "too": true, "is": true, "must": true, "should": true,
}

// passwordLabel accepts "… password: VALUE" when VALUE is quoted, or is one
// word that ends the line or is followed by a bracket, a separator or
// another label ("user: x", "user password: x", "host=db"); prose goes on with ordinary words ("password: try
// again"), and a value that is a statement about the password (incorrect,
// required) is no password.
func passwordLabel(c *candidate) bool {
	v := strings.TrimRight(c.value(), ".,;!")
	if notPasswords[strings.ToLower(v)] || v == "" {
		return false
	}
	if c.quote() != 0 {
		return true
	}
	rest := c.text[c.valEnd:]
	if i := strings.IndexAny(rest, "\r\n"); i >= 0 {
		rest = rest[:i]
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" || strings.IndexByte("([{,;|#", rest[0]) >= 0 {
		return true
	}
	// Another label ("user: x", "user password: x", "host=db") may follow.
	words := strings.Fields(rest)
	for i := 0; i < len(words) && i < 2; i++ {
		if strings.HasSuffix(words[i], ":") || strings.Contains(words[i], "=") {
			return true
		}
	}
	return false
}

// yamlValue rejects YAML block scalar indicators (password: |) and
// statements about a password (Password: incorrect).
func yamlValue(c *candidate) bool {
	v := c.value()
	if c.quote() == 0 && strings.HasPrefix(strings.ToLower(c.key()), "pass") && notPasswords[strings.ToLower(strings.TrimRight(v, ".,;!"))] {
		return false // Password: incorrect
	}
	return !(len(v) <= 3 && (v[0] == '|' || v[0] == '>'))
}

// flagValue filters "--flag VALUE" matches: --bypass is no -pass, boolean
// flags such as --no-password or --ask-password take no value, a following
// "-x" is the next flag, and docker/buildkit "--secret id=...,src=..." is a
// secret specification, not a secret.
func flagValue(c *candidate) bool {
	name := strings.ToLower(c.key())
	// -pass, -passin, -passout (openssl) and --pass (redis-cli) only as
	// whole names: not --bypass.
	for _, p := range []string{"pass", "passin", "passout"} {
		if strings.HasSuffix(name, p) && name != p {
			return false
		}
	}
	for _, p := range []string{"no-", "ask-", "prompt-", "with-", "use-", "show-", "skip-"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	if !notFlag(c) {
		return false
	}
	if strings.HasSuffix(name, "secret") {
		for _, p := range []string{"id=", "type=", "src=", "source=", "env="} {
			if strings.HasPrefix(c.value(), p) {
				return false
			}
		}
	}
	return true
}

// passKey accepts keys that are PASS or end in _PASS, -PASS or .PASS
// (SSHPASS too), then applies check.
func passKey(check func(*candidate) bool) func(*candidate) bool {
	return func(c *candidate) bool {
		k := strings.ToLower(c.key())
		ok := k == "pass" || k == "sshpass"
		for _, suf := range []string{"_pass", "-pass", ".pass"} {
			ok = ok || strings.HasSuffix(k, suf)
		}
		return ok && check(c)
	}
}

// notFlag rejects unquoted values that look like the next option.
func notFlag(c *candidate) bool {
	return c.quote() != 0 || c.value()[0] != '-'
}
