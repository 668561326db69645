package render_test

import (
	"fmt"
	"os"

	"github.com/hookd/hookd/internal/ai/render"
)

func ExampleWriter() {
	w := render.NewWriter(os.Stdout, render.Options{Style: "plain"})
	for _, delta := range []string{"Clear the ", "screen with:\n\n```sh\n", "clear \x1b]0;pwned\x07\n```"} {
		if err := w.Text(delta); err != nil {
			fmt.Println(err)
		}
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Clear the screen with:
	//
	// ```sh
	// clear \e]0;pwned\x07
	// ```
}

func ExampleCommands() {
	md := "Free some space:\n\n```console\n$ du -sh ~/.cache\n1.2G\t/root/.cache\n$ rm -rf ~/.cache/go-build\n```\n"
	for _, c := range render.Commands(md) {
		fmt.Println(c)
	}
	// Output:
	// du -sh ~/.cache
	// rm -rf ~/.cache/go-build
}
