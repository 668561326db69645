package redact

import (
	"fmt"
	"strings"
	"testing"
)

// Fake credentials, assembled at run time so that secret scanners do not
// flag this file.
var (
	ghToken     = "ghp_" + strings.Repeat("a1B2", 9)
	ghPAT       = "github_pat_" + strings.Repeat("11AbC_dE", 10)
	glToken     = "glpat-" + strings.Repeat("x9Y-", 5)
	slackToken  = "xoxb-" + "1234567890-0987654321-" + strings.Repeat("AbCd", 6)
	stripeKey   = "sk_live_" + strings.Repeat("4eC39HqLyjWDarjtT1zdp7dc", 1)
	npmToken    = "npm_" + strings.Repeat("aB3", 12)
	openAIKey   = "sk-proj-" + strings.Repeat("Ab3d_Ef6", 6)
	googleKey   = "AIza" + "SyD" + strings.Repeat("x1Y2z", 6) + "AB"
	awsKeyID    = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret   = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	jwt         = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	hfToken     = "hf_" + strings.Repeat("AbCdEfGhIj", 3) + "KlMn"
	privateBody = "\nMIIEowIBAAKCAQEA" + strings.Repeat("q83Lx+/", 8) + "\n" + strings.Repeat("Zm9vYmFy", 8) + "\n"
)

type stringCase struct {
	name, in, want string
}

func runCases(t *testing.T, cases []stringCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, n := (*Redactor)(nil).String(tc.in)
			if got != tc.want {
				t.Errorf("String(%q) = %q; want %q", tc.in, got, tc.want)
			}
			wantN := strings.Count(tc.want, Marker) - strings.Count(tc.in, Marker)
			if n != wantN {
				t.Errorf("String(%q) count = %d; want %d", tc.in, n, wantN)
			}
			if again, n := (*Redactor)(nil).String(got); again != got || n != 0 {
				t.Errorf("String(%q) = %q, %d; want it unchanged (idempotent)", got, again, n)
			}
		})
	}
}

func TestStringTokens(t *testing.T) {
	R := Marker
	runCases(t, []stringCase{
		{"aws key id", "aws s3 ls --profile x # " + awsKeyID, "aws s3 ls --profile x # " + R},
		{"aws session key id", "id=ASIA" + "Y34FZKBOKMUTVV7A", "id=" + R},
		{"aws secret env", "AWS_SECRET_ACCESS_KEY=" + awsSecret + " aws s3 ls", "AWS_SECRET_ACCESS_KEY=" + R + " aws s3 ls"},
		{"aws secret ini", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = " + R},
		{"aws configure set", "aws configure set aws_secret_access_key " + awsSecret, "aws configure set aws_secret_access_key " + R},
		{"github ghp", "git push https://" + ghToken + "@github.com/o/r", "git push https://" + R + "@github.com/o/r"},
		{"github pat", "echo " + ghPAT + " | gh auth login --with-token", "echo " + R + " | gh auth login --with-token"},
		{"github gho ghs", "gho_" + ghToken[4:] + " ghs_" + ghToken[4:], R + " " + R},
		{"gitlab", "glab auth login --stdin <<< " + glToken, "glab auth login --stdin <<< " + R},
		{"slack token", "curl -d token=x " + slackToken, "curl -d token=" + R + " " + R},
		{"slack webhook", "curl -X POST https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX -d '{}'",
			"curl -X POST https://hooks.slack.com/services/" + R + " -d '{}'"},
		{"stripe", "stripe login --api-key " + stripeKey, "stripe login --api-key " + R},
		{"stripe test", "sk_test_" + "abcdefghij1234", R},
		{"npm", "//registry.npmjs.org/:_authToken=" + npmToken, "//registry.npmjs.org/:_authToken=" + R},
		{"npm bare", "echo " + npmToken, "echo " + R},
		{"openai", "llm -k " + openAIKey + " hi", "llm -k " + R + " hi"},
		{"google", "curl 'https://maps.googleapis.com/x?key=" + googleKey + "'", "curl 'https://maps.googleapis.com/x?key=" + R + "'"},
		{"huggingface", "huggingface-cli login --token " + hfToken, "huggingface-cli login --token " + R},
		{"jwt", "echo " + jwt + " | jwt decode -", "echo " + R + " | jwt decode -"},
		{"private key", "cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----" + privateBody + "-----END RSA PRIVATE KEY-----\n$ ",
			"cat id_rsa\n-----BEGIN RSA PRIVATE KEY-----" + R + "-----END RSA PRIVATE KEY-----\n$ "},
		{"openssh private key", "-----BEGIN OPENSSH PRIVATE KEY-----" + privateBody + "-----END OPENSSH PRIVATE KEY-----",
			"-----BEGIN OPENSSH PRIVATE KEY-----" + R + "-----END OPENSSH PRIVATE KEY-----"},
		{"private key in json", `{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkq\n-----END PRIVATE KEY-----\n"}`,
			`{"private_key": "-----BEGIN PRIVATE KEY-----` + R + `-----END PRIVATE KEY-----\n"}`},
		{"private key truncated", "-----BEGIN EC PRIVATE KEY-----" + privateBody, "-----BEGIN EC PRIVATE KEY-----" + R},
		{"two private keys", "-----BEGIN PRIVATE KEY-----a-----END PRIVATE KEY----- x -----BEGIN PRIVATE KEY-----b-----END PRIVATE KEY-----",
			"-----BEGIN PRIVATE KEY-----" + R + "-----END PRIVATE KEY----- x -----BEGIN PRIVATE KEY-----" + R + "-----END PRIVATE KEY-----"},
	})
}

func TestStringTokensNegative(t *testing.T) {
	runCases(t, []stringCase{
		{"short ghp", "ghp_abc", "ghp_abc"},
		{"akia in word", "XAKIA" + "IOSFODNN7EXAMPLE", "XAKIA" + "IOSFODNN7EXAMPLE"},
		{"akia too short", "AKIA1234", "AKIA1234"},
		{"timezone", "TZ=Asia/Tokyo date", "TZ=Asia/Tokyo date"},
		{"short sk-", "sk-abc123", "sk-abc123"},
		{"kebab sk-", "pip install sk-learn-compatible-extension-for-everything", "pip install sk-learn-compatible-extension-for-everything"},
		{"npm config env", "npm_config_cache=/tmp/npm npm ci", "npm_config_cache=/tmp/npm npm ci"},
		{"public key", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----"},
		{"stripe publishable", "pk_live_" + "abcdefghij1234", "pk_live_" + "abcdefghij1234"},
		{"slack channel url", "open https://hooks.slack.com/", "open https://hooks.slack.com/"},
		{"not a jwt", "echo eyJhbGciOi", "echo eyJhbGciOi"},
	})
}

func TestStringHeaders(t *testing.T) {
	R := Marker
	runCases(t, []stringCase{
		{"bearer", `curl -H "Authorization: Bearer abc.def" https://x`, `curl -H "Authorization: Bearer ` + R + `" https://x`},
		{"basic", `curl -H 'Authorization: Basic dXNlcjpwYXNz' https://x`, `curl -H 'Authorization: Basic ` + R + `' https://x`},
		{"token scheme", `curl -H 'Authorization: token abc123' https://api.github.com`, `curl -H 'Authorization: token ` + R + `' https://api.github.com`},
		{"header equals", `curl --header="Authorization: Bearer abc" x`, `curl --header="Authorization: Bearer ` + R + `" x`},
		{"no scheme", `curl -H "Authorization: abc123" x`, `curl -H "Authorization: ` + R + `" x`},
		{"api key header", `curl -H 'X-Api-Key: k3y' -H 'Accept: a/b' x`, `curl -H 'X-Api-Key: ` + R + `' -H 'Accept: a/b' x`},
		{"gitlab private token", `curl --header "PRIVATE-TOKEN: abc" x`, `curl --header "PRIVATE-TOKEN: ` + R + `" x`},
		{"verbose output", "> GET / HTTP/1.1\r\n> Authorization: Bearer abcdef\r\n> Accept: */*",
			"> GET / HTTP/1.1\r\n> Authorization: Bearer " + R + "\r\n> Accept: */*"},
		{"json header", `{"Authorization": "Bearer abc.def"}`, `{"Authorization": "Bearer ` + R + `"}`},
		{"cookie header", `curl -H 'Cookie: session=abc; theme=dark' x`, `curl -H 'Cookie: ` + R + `' x`},
		{"curl cookie flag", `curl -b 'session=abc' x`, `curl -b '` + R + `' x`},
		{"set-cookie output", "< Set-Cookie: id=a3fWa; Path=/", "< Set-Cookie: " + R},
		{"curl user", "curl -u bob:s3cret https://x", "curl -u bob:" + R + " https://x"},
		{"curl user quoted", `curl --user 'bob:s3cret' https://x`, `curl --user 'bob:` + R + `' https://x`},
		{"curl token only", "curl -u :tok https://x", "curl -u :" + R + " https://x"},
		{"httpie", "http -a bob:pw example.org", "http -a bob:" + R + " example.org"},
	})
}

func TestStringHeadersNegative(t *testing.T) {
	runCases(t, []stringCase{
		{"content type", `curl -H 'Content-Type: application/json' x`, `curl -H 'Content-Type: application/json' x`},
		{"variable", `curl -H "Authorization: Bearer $TOKEN" x`, `curl -H "Authorization: Bearer $TOKEN" x`},
		{"braced variable", `curl -H "Authorization: Bearer ${GH_TOKEN}" x`, `curl -H "Authorization: Bearer ${GH_TOKEN}" x`},
		{"prose", `git commit -m "authorization: basic auth docs"`, `git commit -m "authorization: basic auth docs"`},
		{"cookie prose", `git commit -m "cookie: fix expiry"`, `git commit -m "cookie: fix expiry"`},
		{"curl user no password", "curl -u bob https://x", "curl -u bob https://x"},
		{"curl user agent", "curl --user-agent=a:b https://x", "curl --user-agent=a:b https://x"},
		{"curl cookie file", "curl -b cookies.txt https://x", "curl -b cookies.txt https://x"},
		{"docker uid", "docker run -u 1000:1000 img", "docker run -u 1000:1000 img"},
		{"git branch", "git checkout -b a=b", "git checkout -b a=b"},
	})
}

func TestStringAssignments(t *testing.T) {
	R := Marker
	runCases(t, []stringCase{
		{"password flag eq", "mysql -u root --password=hunter2 db", "mysql -u root --password=" + R + " db"},
		{"export token", "export GITHUB_TOKEN=ghp_xxx", "export GITHUB_TOKEN=" + R},
		{"env prefix", "DB_PASSWORD=x cmd", "DB_PASSWORD=" + R + " cmd"},
		{"double quoted", `export FOO_TOKEN="x y"`, `export FOO_TOKEN="` + R + `"`},
		{"single quoted", `export FOO_SECRET='a $b c'`, `export FOO_SECRET='` + R + `'`},
		{"escaped quote", `API_KEY="a\"b" run`, `API_KEY="` + R + `" run`},
		{"unterminated quote", `PASSWORD="abc`, `PASSWORD="` + R},
		{"case insensitive", "Password=x Passwd=y pwd=z", "Password=" + R + " Passwd=" + R + " pwd=" + R},
		{"secret", "secret=s3", "secret=" + R},
		{"token", "token=t", "token=" + R},
		{"api_key apikey", "api_key=a apikey=b api-key=c", "api_key=" + R + " apikey=" + R + " api-key=" + R},
		{"access token client secret", "access_token=a&client_secret=b&x=1", "access_token=" + R + "&client_secret=" + R + "&x=1"},
		{"url query", "curl 'https://x/cb?code=1&access_token=abc'", "curl 'https://x/cb?code=1&access_token=" + R + "'"},
		{"apikey env suffix", "FOO_APIKEY=a FOO_API_KEY=b", "FOO_APIKEY=" + R + " FOO_API_KEY=" + R},
		{"pgpassword", "PGPASSWORD=pw psql -h db", "PGPASSWORD=" + R + " psql -h db"},
		{"mysql pwd", "MYSQL_PWD=pw mysql", "MYSQL_PWD=" + R + " mysql"},
		{"ini spaces", "password = hunter2", "password = " + R},
		{"json", `{"user":"bob","password":"hunter2"}`, `{"user":"bob","password":"` + R + `"}`},
		{"json spaced", `{"token": "abc", "name": "x"}`, `{"token": "` + R + `", "name": "x"}`},
		{"python dict", `{'api_key': 'abc'}`, `{'api_key': '` + R + `'}`},
		{"ruby hash", `'password' => 'abc'`, `'password' => '` + R + `'`},
		{"docker env", "docker run -e POSTGRES_PASSWORD=pw postgres", "docker run -e POSTGRES_PASSWORD=" + R + " postgres"},
		{"kubectl literal", "kubectl create secret generic s --from-literal=password=abc", "kubectl create secret generic s --from-literal=password=" + R},
		{"powershell", `$env:API_TOKEN = "abc"`, `$env:API_TOKEN = "` + R + `"`},
		{"test comparison", `[ "$PASSWORD" = "hunter2" ]`, `[ "$PASSWORD" = "` + R + `" ]`},
		{"passphrase", "passphrase=abc", "passphrase=" + R},
		{"quoted assignment in string", `bash -c "PASSWORD='x' run"`, `bash -c "PASSWORD='` + R + `' run"`},
		{"hidden behind variable", `TOKEN="${X} PASSWORD=y"`, `TOKEN="${X} PASSWORD=` + R + `"`},
		{"single quoted dollar", `PASSWORD='$ecret'`, `PASSWORD='` + R + `'`},
		{"yaml", "db:\n  password: hunter2\n  user: bob", "db:\n  password: " + R + "\n  user: bob"},
		{"yaml quoted", "api_key: \"a b\" # prod", "api_key: \"" + R + "\" # prod"},
		{"yaml list", "- token: abc", "- token: " + R},
		{"yaml crlf", "secret: abc\r\nx: y", "secret: " + R + "\r\nx: y"},
		// Password labels in output, anywhere on the line.
		{"password label", "password: hunter2", "password: " + R},
		{"db password label", "db password: hunter2", "db password: " + R},
		{"label mid-line", "Created user bob, db password: hunter2", "Created user bob, db password: " + R},
		{"label then bracket", "DB password: hunter2 (user admin)", "DB password: " + R + " (user admin)"},
		{"two labels", "root password: hunter2 user password: x2", "root password: " + R + " user password: " + R},
		{"label then key", "password: hunter2 host=db", "password: " + R + " host=db"},
		{"label space colon", "admin password : hunter2", "admin password : " + R},
		{"label quoted prose", `Your password: "a b c"`, `Your password: "` + R + `"`},
		{"passwd label", "passwd: hunter2", "passwd: " + R},
		{"password key", "Password=hunter2", "Password=" + R},
		{"json password", `{"password": "hunter2"}`, `{"password": "` + R + `"}`},
		{"pgpassword env", "PGPASSWORD=hunter2 psql -h db", "PGPASSWORD=" + R + " psql -h db"},
	})
}

func TestStringAssignmentsNegative(t *testing.T) {
	runCases(t, []stringCase{
		{"commit message", `git commit -m "fix password reset"`, `git commit -m "fix password reset"`},
		{"grep token", "grep -r token src/", "grep -r token src/"},
		{"password file flag", "ls --password-file=x", "ls --password-file=x"},
		{"token path", "vault login -token-path=/x", "vault login -token-path=/x"},
		{"echo variable", "echo $PASSWORD", "echo $PASSWORD"},
		{"assign variable", "PASSWORD=$OTHER cmd", "PASSWORD=$OTHER cmd"},
		{"assign braced", `export TOKEN="${GH_TOKEN}"`, `export TOKEN="${GH_TOKEN}"`},
		{"command substitution", "TOKEN=$(cat ~/.token) cmd", "TOKEN=$(cat ~/.token) cmd"},
		{"backticks", "TOKEN=`cat ~/.token` cmd", "TOKEN=`cat ~/.token` cmd"},
		{"empty value", "PASSWORD= make", "PASSWORD= make"},
		{"empty quoted", `PASSWORD="" make`, `PASSWORD="" make`},
		{"passwd command", "passwd", "passwd"},
		{"passwd user", "sudo passwd alice", "sudo passwd alice"},
		{"passwd output", "passwd: password updated successfully", "passwd: password updated successfully"},
		{"pwd env", "PWD=/home/me OLDPWD=~/src", "PWD=/home/me OLDPWD=~/src"},
		{"pwd command", "pwd", "pwd"},
		{"grep quoted key", `grep "password=" config | sort`, `grep "password=" config | sort`},
		{"comparison", `if [ "$TOKEN" == "" ]; then x; fi`, `if [ "$TOKEN" == "" ]; then x; fi`},
		{"max tokens", "llm --max_tokens=100", "llm --max_tokens=100"},
		{"tokenizer", "tokenizer=bpe", "tokenizer=bpe"},
		{"unset", "unset GITHUB_TOKEN AWS_SECRET_ACCESS_KEY", "unset GITHUB_TOKEN AWS_SECRET_ACCESS_KEY"},
		{"env lookup", "env | grep -i token", "env | grep -i token"},
		{"yaml prose", "token: refresh on expiry", "token: refresh on expiry"},
		{"yaml block", "password: |", "password: |"},
		{"yaml template", "password: ${DB_PASSWORD}", "password: ${DB_PASSWORD}"},
		{"prompt", "Password: ", "Password: "},
		{"masked", "Password: ********", "Password: ********"},
		{"placeholder", "TOKEN=<your-token>", "TOKEN=<your-token>"},
		{"github actions", "token: ${{ secrets.GH_TOKEN }}", "token: ${{ secrets.GH_TOKEN }}"},
		{"json null", `{"token": null}`, `{"token": null}`},
		{"already redacted", "password=" + Marker, "password=" + Marker},
		// Prompts and prose about passwords.
		{"prompt prose", "Enter your password:", "Enter your password:"},
		{"prompt trailing blank", "db password: ", "db password: "},
		{"prose after label", "error: wrong password: try again", "error: wrong password: try again"},
		{"prose word", "The password: is required", "The password: is required"},
		{"statement", "Password: incorrect", "Password: incorrect"},
		{"statement dot", "root password: unchanged.", "root password: unchanged."},
		{"passwd error", "passwd: Authentication token manipulation error", "passwd: Authentication token manipulation error"},
		{"mysql warning", "mysql: [Warning] Using a password on the command line interface can be insecure.",
			"mysql: [Warning] Using a password on the command line interface can be insecure."},
		{"quoted in command", `git commit -m "password: fix reset"`, `git commit -m "password: fix reset"`},
	})
}

func TestStringFlags(t *testing.T) {
	R := Marker
	runCases(t, []stringCase{
		{"password", "psql --password hunter2", "psql --password " + R},
		{"token", "vault login --token s.abc", "vault login --token " + R},
		{"api-key", "tool --api-key k3y run", "tool --api-key " + R + " run"},
		{"secret", "tool --secret s3 run", "tool --secret " + R + " run"},
		{"suffix", "gh-tool --github-token abc --client-secret def", "gh-tool --github-token " + R + " --client-secret " + R},
		{"single dash", "app -token abc", "app -token " + R},
		{"quoted", `app --password "a b"`, `app --password "` + R + `"`},
		{"openssl pass", "openssl enc -pass pass:hunter2", "openssl enc -pass " + R},
		{"oauth2 bearer", "curl --oauth2-bearer abc x", "curl --oauth2-bearer " + R + " x"},
		{"mysql attached", "mysql -u root -phunter2", "mysql -u root -p" + R},
		{"mysql quoted", `mysqldump -uroot -p'a b' db`, `mysqldump -uroot -p'` + R + `' db`},
		{"sshpass", "sshpass -p s3cret ssh host", "sshpass -p " + R + " ssh host"},
		{"sshpass attached", "sshpass -ps3cret ssh host", "sshpass -p" + R + " ssh host"},
		{"docker login", "docker login -u bob -p s3cret registry", "docker login -u bob -p " + R + " registry"},
		{"az login", "az login --service-principal -u id -p s3cret --tenant t", "az login --service-principal -u id -p " + R + " --tenant t"},
		{"redis-cli", "redis-cli -h db -a s3cret ping", "redis-cli -h db -a " + R + " ping"},
		{"npm config set", "npm config set //registry.npmjs.org/:_authToken abc", "npm config set //registry.npmjs.org/:_authToken " + R},
		{"git config", "git config --global user.password abc", "git config --global user.password " + R},
		{"aws configure profile", "aws configure set profile.dev.aws_session_token abc", "aws configure set profile.dev.aws_session_token " + R},
		{"ssh-keygen", `ssh-keygen -t ed25519 -N "my pass" -f k`, `ssh-keygen -t ed25519 -N "` + R + `" -f k`},
		{"netrc", "machine github.com login bob password hunter2", "machine github.com login bob password " + R},
		{"kubectl literal", "kubectl create secret generic s --from-literal=db=abc", "kubectl create secret generic s --from-literal=db=" + R},
		{"gh secret", `gh secret set API --body "abc"`, `gh secret set API --body "` + R + `"`},
	})
}

func TestStringFlagsNegative(t *testing.T) {
	runCases(t, []stringCase{
		{"boolean", "tool --no-password db", "tool --no-password db"},
		{"ask", "ansible-playbook --ask-password site.yml", "ansible-playbook --ask-password site.yml"},
		{"stdin", "docker login --password-stdin -u bob", "docker login --password-stdin -u bob"},
		{"next flag", "psql --password -h db", "psql --password -h db"},
		{"variable", `tool --token "$TOKEN"`, `tool --token "$TOKEN"`},
		{"docker secret spec", "docker build --secret id=npm,src=.npmrc .", "docker build --secret id=npm,src=.npmrc ."},
		{"with-token", "gh auth login --with-token < tok", "gh auth login --with-token < tok"},
		{"mysql prompt", "mysql -u root -p db", "mysql -u root -p db"},
		{"mysql port", "mysql -P3306 -h db", "mysql -P3306 -h db"},
		{"other -p", "mkdir -pv dir", "mkdir -pv dir"},
		{"ssh port", "ssh -p 2222 host", "ssh -p 2222 host"},
		{"bypass", "tool --bypass x", "tool --bypass x"},
		{"config get", "git config --get user.password", "git config --get user.password"},
		{"config unset", "npm config delete //x/:_authToken", "npm config delete //x/:_authToken"},
		{"configmap literal", "kubectl create configmap c --from-literal=a=b", "kubectl create configmap c --from-literal=a=b"},
		{"ssh-keygen prompt", "ssh-keygen -t ed25519 -f k", "ssh-keygen -t ed25519 -f k"},
		{"netrc prose", "echo password reset", "echo password reset"},
	})
}

func TestStringURLs(t *testing.T) {
	R := Marker
	runCases(t, []stringCase{
		{"https", "git clone https://user:pass@github.com/o/r", "git clone https://user:" + R + "@github.com/o/r"},
		{"remote", "git remote set-url origin https://oauth2:tok@gitlab.com/o/r.git", "git remote set-url origin https://oauth2:" + R + "@gitlab.com/o/r.git"},
		{"postgres", "psql postgres://app:s3cret@db:5432/app?sslmode=off", "psql postgres://app:" + R + "@db:5432/app?sslmode=off"},
		{"mysql jdbc", "jdbc:mysql://root:pw@localhost/db", "jdbc:mysql://root:" + R + "@localhost/db"},
		{"redis no user", "redis-cli -u redis://:pw@localhost:6379", "redis-cli -u redis://:" + R + "@localhost:6379"},
		{"amqp", `AMQP_URL="amqp://guest:guest@rabbit:5672/"`, `AMQP_URL="amqp://guest:` + R + `@rabbit:5672/"`},
		{"mongodb srv", "mongosh mongodb+srv://u:p@cluster0.x.net/db", "mongosh mongodb+srv://u:" + R + "@cluster0.x.net/db"},
		{"at in password", "psql postgres://u:p@ss@db/x", "psql postgres://u:" + R + "@db/x"},
	})
}

func TestStringURLsNegative(t *testing.T) {
	runCases(t, []stringCase{
		{"port", "curl https://example.com:8443/path", "curl https://example.com:8443/path"},
		{"user only", "git clone ssh://git@github.com:22/o/r", "git clone ssh://git@github.com:22/o/r"},
		{"scp style", "git clone git@github.com:o/r.git", "git clone git@github.com:o/r.git"},
		{"variable", "psql postgres://app:$PGPASS@db/app", "psql postgres://app:$PGPASS@db/app"},
		{"ipv6", "curl http://[::1]:8080/x@y", "curl http://[::1]:8080/x@y"},
		{"email in query", "open https://x.com/?to=a@b.c", "open https://x.com/?to=a@b.c"},
	})
}

func TestStringBytes(t *testing.T) {
	R := Marker
	runCases(t, []stringCase{
		{"invalid utf8 around secret", "\xff\xfe password=abc \xc3", "\xff\xfe password=" + R + " \xc3"},
		{"escape codes kept", "\x1b[31merror\x1b[0m: TOKEN=abc", "\x1b[31merror\x1b[0m: TOKEN=" + R},
		{"invalid utf8 clean", "ls \xff\xfe\x00\x1b[2J", "ls \xff\xfe\x00\x1b[2J"},
		{"multibyte", "échec: mot de passe=x PASSWORD=ü", "échec: mot de passe=x PASSWORD=" + R},
		{"empty", "", ""},
	})
}

func TestNew(t *testing.T) {
	r, err := New([]string{`hunter\d`, `corp-id=(?P<secret>\w+)`})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	for _, tc := range []stringCase{
		{"whole match", "echo hunter2 ok", "echo " + Marker + " ok"},
		{"secret group", "login corp-id=bob2 x", "login corp-id=" + Marker + " x"},
		{"builtin still applies", "PASSWORD=x", "PASSWORD=" + Marker},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := r.String(tc.in); got != tc.want {
				t.Errorf("String(%q) = %q; want %q", tc.in, got, tc.want)
			}
		})
	}

	_, err = New([]string{`ok`, `bad(`})
	if err == nil || !strings.Contains(err.Error(), "bad(") || !strings.Contains(err.Error(), "1") {
		t.Errorf("New with bad pattern: err = %v; want it to name pattern 1 %q", err, "bad(")
	}
}

func TestZeroAndNilRedactor(t *testing.T) {
	in := "export FOO_TOKEN=abc"
	want := "export FOO_TOKEN=" + Marker
	var zero Redactor
	for name, r := range map[string]*Redactor{"nil": nil, "zero": &zero} {
		if got, n := r.String(in); got != want || n != 1 {
			t.Errorf("%s: String(%q) = %q, %d; want %q, 1", name, in, got, n, want)
		}
	}
}

func TestCount(t *testing.T) {
	in := "A_TOKEN=1 B_TOKEN=2 " + awsKeyID + " TOKEN=" + jwt
	got, n := (*Redactor)(nil).String(in)
	if n != 4 {
		t.Errorf("String(%q) = %q, %d; want 4 secrets", in, got, n)
	}
}

func TestStringManyPerLine(t *testing.T) {
	// More triggers on one line than anchored attempts are made for: the
	// line is scanned as a whole.
	var in, want strings.Builder
	for i := range 40 {
		fmt.Fprintf(&in, "K%d_TOKEN=v%d TOKEN=$X ", i, i)
		fmt.Fprintf(&want, "K%d_TOKEN=%s TOKEN=$X ", i, Marker)
	}
	runCases(t, []stringCase{{"many", in.String(), want.String()}})
}

func TestStringOutput(t *testing.T) {
	R := Marker
	in := "$ env | sort\n" +
		"HOME=/home/me\n" +
		"GITHUB_TOKEN=" + ghToken + "\n" +
		"PWD=/home/me/src\n" +
		"\x1b[1mwarning\x1b[0m: token refresh failed\r\n" +
		"config:\n  password: \"p w\"\n  host: db\n" +
		"-----BEGIN OPENSSH PRIVATE KEY-----" + privateBody + "-----END OPENSSH PRIVATE KEY-----\n"
	want := "$ env | sort\n" +
		"HOME=/home/me\n" +
		"GITHUB_TOKEN=" + R + "\n" +
		"PWD=/home/me/src\n" +
		"\x1b[1mwarning\x1b[0m: token refresh failed\r\n" +
		"config:\n  password: \"" + R + "\"\n  host: db\n" +
		"-----BEGIN OPENSSH PRIVATE KEY-----" + R + "-----END OPENSSH PRIVATE KEY-----\n"
	runCases(t, []stringCase{{"env and config", in, want}})
}
