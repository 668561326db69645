package analyze

import (
	"reflect"
	"testing"
)

func TestSpelling(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"pip install numpy", "python3 -m pip install numpy", true},
		{"pip install numpy", "pip3 install --user numpy", true},
		{"git pull --rebase && git push", "git pull && git push", true},
		{"git stash && git pull && git stash pop", "git pull --autostash", true},
		{"pyenv install 3.9", "pyenv install 3.9 && pyenv local 3.9", true},
		{"sudo apt-get install -y zstd", "apt install zstd", true},
		{"bash deploy.sh", "sh deploy.sh", true},
		{"ls", "ss", false},
		{"python3 main.py", "python2 main.py", false},
		{"chmod +x ./d.sh && ./d.sh", "sh ./d.sh", false},
		{"pip install numpy", "source .venv/bin/activate", false},
		{"git checkout main", "git checkout -b master", false},
		{"go run main.go", "go run .", false},
		{"git push --force-with-lease", "git pull --rebase && git push", false},
		{"git rm --cached c.yml", "git rm -f c.yml", false},
		{"git tag -f v1", "git tag --force v1", true},
		{"rm -r build", "rm -rf build", true},
	}
	for _, tt := range tests {
		if got := spelling(action(tt.a), action(tt.b)); got != tt.same {
			t.Errorf("spelling(%q, %q) = %v; want %v", tt.a, tt.b, got, tt.same)
		}
	}
}

func TestShown(t *testing.T) {
	f := func(cmd string, conf float64) Fix { return Fix{Command: cmd, Confidence: conf} }
	alt := func(cmd string, conf float64) Fix { return Fix{Command: cmd, Confidence: conf, alternative: true} }
	tests := []struct {
		name string
		in   []Fix
		want []string
	}{
		{"another family goes before a spelling",
			[]Fix{f("pip install x", 0.9), f("python3 -m pip install x", 0.85), f("source .venv/bin/activate", 0.8)},
			[]string{"pip install x", "source .venv/bin/activate", "python3 -m pip install x"}},
		{"an unlikely alternative is shown from altFloor on, an unlikely spelling never",
			[]Fix{f("git pull --rebase && git push", 0.88), f("git pull && git push", 0.8), alt("git push --force-with-lease", 0.5), f("git pull --autostash --rebase && git push", 0.4)},
			[]string{"git pull --rebase && git push", "git push --force-with-lease", "git pull && git push"}},
		{"below the floor, or not an alternative, and far from the best: not shown",
			[]Fix{f("a", 0.9), alt("b", 0.4), f("c", 0.5)},
			[]string{"a"}},
		{"an alternative never comes first while another fix is there",
			[]Fix{alt("a", 0.9), f("b", 0.7), f("c", 0.3)},
			[]string{"b", "a"}},
		{"spellings fill what is left, close to the best only",
			[]Fix{f("pip install x", 0.9), f("pip3 install x", 0.8), f("python3 -m pip install x", 0.5)},
			[]string{"pip install x", "pip3 install x"}},
		{"at most three, the first never moves",
			[]Fix{f("a", 0.6), f("b", 0.99), f("c", 0.5), f("d", 0.5)},
			[]string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		var got []string
		for _, x := range shown(tt.in) {
			got = append(got, x.Command)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: shown = %q; want %q", tt.name, got, tt.want)
		}
	}
}
