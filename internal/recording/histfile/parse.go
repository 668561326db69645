package histfile

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
)

// Shells are the shells whose history files Parse reads.
var Shells = []string{"bash", "zsh", "fish"}

// Parse reads the history file of shell ("bash", "zsh" or "fish") from r. It stops
// with ctx's error as soon as ctx ends, however long or endless r is.
func Parse(ctx context.Context, shell string, r io.Reader) (Result, error) {
	r = ctxReader{ctx, r}
	var res Result
	var err error
	switch shell {
	case "bash":
		res, err = ParseBash(r)
	case "zsh":
		res, err = ParseZsh(r)
	case "fish":
		res, err = ParseFish(r)
	default:
		return Result{}, fmt.Errorf("unsupported shell %q (supported: bash, zsh, fish)", shell)
	}
	if ctx.Err() != nil {
		return Result{}, ctx.Err()
	}
	return res, err
}

// DefaultFile returns where shell keeps its history by default:
// ~/.bash_history, or .zsh_history in $ZDOTDIR (zdotdir) or home.
func DefaultFile(shell, home, zdotdir string) string {
	if shell == "zsh" {
		if zdotdir == "" {
			zdotdir = home
		}
		return filepath.Join(zdotdir, ".zsh_history")
	}
	return filepath.Join(home, "."+shell+"_history")
}

// ctxReader is a reader that fails once its context has ended.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
