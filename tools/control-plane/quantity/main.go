// Command quantity reads storage quantities the way Kubernetes does, with the parser of
// k8s.io/apimachinery that the API server and the operator use, so that the tests can hold the
// library's own check of a storage size to the real one.
//
// Input (JSON on stdin): a list of strings. Output (JSON on stdout): for each, whether
// resource.ParseQuantity accepts it, whether the quantity is greater than zero, and its exact
// decimal value (or the parser's error).
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/api/resource"
)

type result struct {
	Valid    bool   `json:"valid"`
	Positive bool   `json:"positive"`
	Decimal  string `json:"decimal,omitempty"`
	Error    string `json:"error,omitempty"`
}

func main() {
	var inputs []string
	if err := json.NewDecoder(os.Stdin).Decode(&inputs); err != nil {
		fmt.Fprintln(os.Stderr, "quantity: reading a JSON list of strings from stdin:", err)
		os.Exit(2)
	}
	results := make([]result, len(inputs))
	for i, text := range inputs {
		q, err := resource.ParseQuantity(text)
		if err != nil {
			results[i] = result{Error: err.Error()}
			continue
		}
		results[i] = result{Valid: true, Positive: q.Sign() > 0, Decimal: q.AsDec().String()}
	}
	if err := json.NewEncoder(os.Stdout).Encode(results); err != nil {
		fmt.Fprintln(os.Stderr, "quantity:", err)
		os.Exit(2)
	}
}
