package capture_test

import (
	"bytes"
	"fmt"

	"github.com/hookd/hookd/capture"
)

func ExampleScanner() {
	const nonce = "3f2a9c"
	id := capture.ID{Session: "1712-42-7", Seq: 3}
	stream := "\x1b]133;C\a" + capture.BeginMark(nonce, id) +
		"50%\r100%\r\n\x1b[31merror\x1b[0m: no rule\r\n" +
		capture.EndMark(nonce, id, 2) + "\x1b]133;D;2\a"

	var captures []capture.Capture
	c := capture.NewCollector(0, func(cp capture.Capture) { captures = append(captures, cp) })
	var terminal bytes.Buffer
	s := capture.NewScanner(&terminal, c, nonce)
	if _, err := s.Write([]byte(stream)); err != nil {
		fmt.Println(err)
	}
	fmt.Printf("forwarded %q\n", terminal.String())
	for _, cp := range captures {
		text, _ := capture.Render(cp.Raw)
		fmt.Printf("%s exited %d after %d bytes:\n%s", cp.ID, cp.Status, cp.Size, text)
	}
	// Output:
	// forwarded "\x1b]133;C\a50%\r100%\r\n\x1b[31merror\x1b[0m: no rule\r\n\x1b]133;D;2\a"
	// 1712-42-7:3 exited 2 after 35 bytes:
	// 100%
	// error: no rule
}

func ExampleRender() {
	text, full := capture.Render([]byte("\x1b[1mtotal\x1b[0m 3\r\nfile\xff\tok\r\n"))
	fmt.Printf("%q %v\n", text, full)
	text, full = capture.Render([]byte("\x1b[?1049h\x1b[Hvim\x1b[?1049l"))
	fmt.Printf("%q %v\n", text, full)
	// Output:
	// "total 3\nfile\\xff\tok\n" false
	// "[full-screen program: output not kept]\n" true
}
