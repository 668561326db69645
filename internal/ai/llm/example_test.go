package llm_test

import (
	"context"
	"fmt"

	"github.com/hookd/hookd/internal/ai/llm"
)

// A command is the simplest provider: the prompt on its stdin, the answer
// on its stdout, streamed.
func ExampleProvider_Stream() {
	p, err := llm.New(llm.Config{Provider: llm.Command, Command: "tr a-z A-Z"}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	req := llm.Request{Messages: []llm.Message{{Role: "user", Content: "why did make fail?"}}}
	res, err := p.Stream(context.Background(), req, func(e llm.Event) error {
		if e.Kind == llm.Text {
			fmt.Print(e.Text)
		}
		return nil
	})
	fmt.Println(res.StopReason, err)
	// Output:
	// WHY DID MAKE FAIL?
	// exit <nil>
}

// DryRun shows what would be sent, and sends nothing.
func ExampleDryRun() {
	cfg := llm.Config{Provider: llm.Ollama, Model: "llama3.2"}
	req := llm.Request{System: "Be brief.", Messages: []llm.Message{{Role: "user", Content: "why did make fail?"}}}
	sent, err := llm.DryRun(context.Background(), cfg, req)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(sent)
	// Output:
	// provider: ollama
	// model: llama3.2
	// POST http://localhost:11434/api/chat
	// Content-Type: application/json
	// User-Agent: hookd
	//
	// {
	//   "model": "llama3.2",
	//   "messages": [
	//     {
	//       "role": "system",
	//       "content": "Be brief."
	//     },
	//     {
	//       "role": "user",
	//       "content": "why did make fail?"
	//     }
	//   ],
	//   "stream": true
	// }
}
