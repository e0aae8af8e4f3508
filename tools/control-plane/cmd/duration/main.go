// Command duration reads a JSON list of strings on standard input and prints, for each, what Go's
// time.ParseDuration makes of it (the parser cert-manager's webhook and controllers use): a JSON
// list of {"ok": true, "ms": <milliseconds>} or {"ok": false}. The tests compare the library's
// reading of durations with it.
package main

import (
	"encoding/json"
	"os"
	"time"
)

type result struct {
	OK bool    `json:"ok"`
	MS float64 `json:"ms,omitempty"`
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		os.Stderr.WriteString("duration: reading the input: " + err.Error() + "\n")
		os.Exit(2)
	}
	out := make([]result, len(texts))
	for i, text := range texts {
		if d, err := time.ParseDuration(text); err == nil {
			out[i] = result{OK: true, MS: float64(d) / float64(time.Millisecond)}
		}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
}
