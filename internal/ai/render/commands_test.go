package render

import (
	"reflect"
	"testing"
)

func TestCommands(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"none", "Just text, `ls` inline.\n", nil},
		{"one", "Try:\n\n```bash\nls -la\n```\n", []string{"ls -la"}},
		{"languages", "```sh\na\n```\n```zsh\nb\n```\n```shell\nc\n```\n```Bash\nd\n```\n", []string{"a", "b", "c", "d"}},
		{"other languages skipped", "```python\nprint(1)\n```\n```\nls\n```\n```go\nfmt.Println()\n```\n", nil},
		{"one per statement", "```sh\ncd /tmp\n# list it\nls -l\n\ngit status\n```\n", []string{"cd /tmp", "ls -l", "git status"}},
		{"statements on one line", "```sh\ncd /tmp && ls; pwd\n```\n", []string{"cd /tmp && ls; pwd"}},
		{"continuation kept", "```bash\ndocker run \\\n  -it \\\n  alpine sh\necho done\n```\n",
			[]string{"docker run \\\n  -it \\\n  alpine sh", "echo done"}},
		{"pipeline broken after |", "```sh\nps aux |\n  grep x\n```\n", []string{"ps aux |\n  grep x"}},
		{"compound", "```bash\nfor f in *.log; do\n  gzip \"$f\"\ndone\nls\n```\n",
			[]string{"for f in *.log; do\n  gzip \"$f\"\ndone", "ls"}},
		{"function", "```bash\ngreet() {\n  echo hi\n}\n```\n", []string{"greet() {\n  echo hi\n}"}},
		{"heredoc", "```sh\ncat > f <<'EOF'\na $b\nEOF\nls\n```\n", []string{"cat > f <<'EOF'\na $b\nEOF", "ls"}},
		{"heredocs", "```bash\ncat <<A; cat <<-B\na\nA\n\tb\n\tB\nid\n```\n", []string{"cat <<A; cat <<-B\na\nA\n\tb\n\tB", "id"}},
		{"prompt stripped", "```sh\n$ make\n$ make install\n```\n", []string{"make", "make install"}},
		{"console skips output", "```console\n$ ls\nfile1  file2\n$ echo a \\\n> b\na b\n```\n", []string{"ls", "echo a \\\nb"}},
		{"mixed prompts are a session", "```bash\n$ whoami\nroot\n```\n", []string{"whoami"}},
		{"unparsable gives lines", "```sh\necho \"unterminated\nls\n```\n", []string{"echo \"unterminated", "ls"}},
		{"in a list", "1. Install:\n\n   ```sh\n   apt install jq\n   ```\n2. Run:\n   ```sh\n   jq . f.json\n   ```\n",
			[]string{"apt install jq", "jq . f.json"}},
		{"in a quote", "> ```sh\n> uptime\n> ```\n", []string{"uptime"}},
		{"tilde fence", "~~~bash\nid\n~~~\n", []string{"id"}},
		{"hostile left out", "```sh\necho \x1b]52;c;cm0gLXJmIC8=\x07\n```\n```sh\nrm -rf /tmp/x\u202e\n```\n```sh\nls\u200b\n```\n```sh\nok\n```\n", []string{"ok"}},
		{"zsh syntax", "```zsh\nprint -l ${(f)\"$(ls)\"}\n```\n", []string{"print -l ${(f)\"$(ls)\"}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Commands(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Commands(%q) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzCommands(f *testing.F) {
	f.Add("```sh\ncat <<EOF\nx\nEOF\n$ ls\n```\n")
	f.Add("```console\n$ a \\\n")
	f.Fuzz(func(t *testing.T, md string) {
		for _, c := range Commands(md) {
			if c == "" {
				t.Fatalf("Commands(%q) holds an empty command", md)
			}
		}
	})
}

func TestFence(t *testing.T) {
	tests := []struct {
		open, close string
		opens       bool
		closes      bool
	}{
		{"```bash", "```", true, true},
		{"~~~ python", "~~~~", true, true},
		{"  ```", "  ```", true, true},
		{"- ```sh", "  ```", true, true},
		{"> ```", "> ```", true, true},
		{"````", "```", true, false},
		{"```", "~~~", true, false},
		{"```", "``` x", true, false},
		{"``` `x`", "", false, false},
		{"``", "", false, false},
		{"text", "", false, false},
	}
	for _, tt := range tests {
		f, ok := openFence(tt.open)
		if ok != tt.opens {
			t.Errorf("openFence(%q) = %v; want %v", tt.open, ok, tt.opens)
		}
		if got := f.closes(tt.close); got != tt.closes {
			t.Errorf("%q closes %q: %v; want %v", tt.close, tt.open, got, tt.closes)
		}
	}
}
