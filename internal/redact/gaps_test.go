package redact

import "testing"

// TestSecretsAndProse (issue 20, item 8): the secrets that went out as they
// were, and ordinary prose and paths that must stay as they are.
func TestSecretsAndProse(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"export DB_PASS=hunter2xyz", "export DB_PASS=[REDACTED]"},
		{"DB_PASS=hunter2xyz ./run", "DB_PASS=[REDACTED] ./run"},
		{"export DB_PASS='x y'", "export DB_PASS='[REDACTED]'"},
		{"REDIS_PASS=abc", "REDIS_PASS=[REDACTED]"},
		{"export PASS=abc", "export PASS=[REDACTED]"},
		{"SSHPASS=abc sshpass -e ssh host", "SSHPASS=[REDACTED] sshpass -e ssh host"},
		{"DB_PASS: hunter2", "DB_PASS: [REDACTED]"},
		{`{"db_pass": "hunter2", "x": 1}`, `{"db_pass": "[REDACTED]", "x": 1}`},
		{"export SMTP_PASSWD=abc123def", "export SMTP_PASSWD=[REDACTED]"},
		{"export APP_SECRET=s3cr3tvalue", "export APP_SECRET=[REDACTED]"},
		{"    client-key-data: LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=", "    client-key-data: [REDACTED]"},
		{"    client-certificate-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCg==", "    client-certificate-data: [REDACTED]"},
		{`    "client-key-data": "LS0tLS1CRUdJTiBSU0E=",`, `    "client-key-data": "[REDACTED]",`},
		{"OPENROUTER_KEY sk-or-v1-0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", "OPENROUTER_KEY [REDACTED]"},
		{"key is gsk_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN.", "key is [REDACTED]."},
		{"api_key: abcdef123456", "api_key: [REDACTED]"},
		{`{"name":"x","apiKey":"abcdef123456","url":"y"}`, `{"name":"x","apiKey":"[REDACTED]","url":"y"}`},
		{`  "apiKey": "abcdef123456"`, `  "apiKey": "[REDACTED]"`},
		{"mysql -u root -p'pw with space' db", "mysql -u root -p'[REDACTED]' db"},
		{"mysql -u root -ppw123 db", "mysql -u root -p[REDACTED] db"},
		{"docker exec -it db mysql -uroot -pS3cret db", "docker exec -it db mysql -uroot -p[REDACTED] db"},
		// Left alone.
		{"bypass=abc compass=north", "bypass=abc compass=north"},
		{"the test will pass: yes", "the test will pass: yes"},
		{"pass the value as an input", "pass the value as an input"},
		{"/usr/share/secret/file.txt and ~/secrets/tokens/", "/usr/share/secret/file.txt and ~/secrets/tokens/"},
		{"see docs/api_key.md for the client-key-data field", "see docs/api_key.md for the client-key-data field"},
		{"sk-or-v1-short", "sk-or-v1-short"},
		{"gsk_ is Groq's prefix", "gsk_ is Groq's prefix"},
		{"mysql -p db", "mysql -p db"},
		{"ls -p /tmp", "ls -p /tmp"},
	} {
		got, _ := (*Redactor)(nil).String(tc.in)
		if got != tc.want {
			t.Errorf("%q\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// TestRecoveryPhrase (issue 30, item 11): hookd's sync recovery phrase is
// a secret wherever it appears, whole or in part, however it is spaced;
// talk about its format is left alone. (cmd/hookd's
// TestRecoveryPhraseRedacted checks phrases that hookd's sync makes.)
func TestRecoveryPhrase(t *testing.T) {
	const phrase = "hookd1-mfrgg-zdfmz-twq2l-knnwg-23tob-zhe5l-uoruw-k4tbm-nzhg6-3lhbq-wc3dm"
	for _, tc := range []struct{ in, want string }{
		{phrase, "hookd1-[REDACTED]"},
		{"phrase: " + phrase + "\nnext line", "phrase: hookd1-[REDACTED]\nnext line"},
		{"echo " + phrase + " | hookd sync join", "echo hookd1-[REDACTED] | hookd sync join"},
		{"HOOKD1-MFRGG-ZDFMZ-TWQ2L-KNNWG-23TOB-ZHE5L-UORUW-K4TBM-NZHG6-3LHBQ-WC3DM.", "HOOKD1-[REDACTED]."},
		{"hookd1 mfrgg zdfmz twq2l knnwg 23tob zhe5l uoruw k4tbm nzhg6 3lhbq wc3dm and more", "hookd1 [REDACTED] and more"},
		{"hookd1mfrggzdfmztwq2lknnwg23tobzhe5luoruwk4tbmnzhg63lhbqwc3dm", "hookd1[REDACTED]"},
		{"first part: hookd1-mfrgg-zdfmz-tw then", "first part: hookd1-[REDACTED] then"},
		// Left alone.
		{"a phrase starts with hookd1-; check it", "a phrase starts with hookd1-; check it"},
		{"hookd1-abc", "hookd1-abc"},
		{"myhookd1-mfrgg-zdfmz-tw", "myhookd1-mfrgg-zdfmz-tw"},
	} {
		got, _ := (*Redactor)(nil).String(tc.in)
		if got != tc.want {
			t.Errorf("%q\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}
