// Command yaml-read reads a JSON list of YAML documents on standard input and prints, for each,
// what two real readers make of it, as JSON: sigs.k8s.io/yaml, the YAML 1.1 reader of kubectl and
// Helm (go.yaml.in/yaml/v2 underneath, with 1.1's booleans, sexagesimals and merge keys), and
// go.yaml.in/yaml/v3, a YAML 1.2 reader (its core schema's 0o octals, only true/false as
// booleans). Each answer is {"json": <the value>} or {"error": "<why>"}; a value JSON cannot hold
// (an infinity, a map with a key that is no string) is an error. The tests check that what the
// library writes reads back, in both, as the value it wrote.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	yamlv3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

type answer struct {
	JSON  json.RawMessage `json:"json,omitempty"`
	Error string          `json:"error,omitempty"`
}

type result struct {
	V11 answer `json:"v1.1"`
	V12 answer `json:"v1.2"`
}

func read11(text string) answer {
	out, err := yaml.YAMLToJSONStrict([]byte(text))
	if err != nil {
		return answer{Error: err.Error()}
	}
	return answer{JSON: out}
}

func read12(text string) answer {
	var value any
	if err := yamlv3.Unmarshal([]byte(text), &value); err != nil {
		return answer{Error: err.Error()}
	}
	out, err := json.Marshal(value)
	if err != nil {
		return answer{Error: fmt.Sprintf("no JSON for %#v: %v", value, err)}
	}
	return answer{JSON: out}
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		fmt.Fprintln(os.Stderr, "yaml-read: reading the input:", err)
		os.Exit(2)
	}
	out := make([]result, len(texts))
	for i, text := range texts {
		out[i] = result{V11: read11(text), V12: read12(text)}
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		os.Exit(2)
	}
}
