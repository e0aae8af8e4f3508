// Command dm-task-check reads a migration's task file and source files with the migration tool's
// own configuration package (TiDB Data Migration, github.com/pingcap/tiflow/dm/dm/config), as its
// master does on start-task: the task decoded strictly and adjusted (TaskConfig.Decode), each
// source decoded and verified (ParseYamlAndVerify), the task split into one subtask per source
// (TaskConfigToSubTaskConfigs) and each subtask adjusted (SubTaskConfig.Adjust). It connects to
// no database: the checks that need one (the source's flavor and server id) are not run.
//
// Usage: dm-task-check <task file> <source file>...
// Output (JSON on stdout): the number of sources the task names, of subtasks made, and the bytes of
// the subtasks' TOML, which the master writes to its etcd in one transaction. Exit 1 with the
// tool's error on stderr when a check fails, 2 when a file cannot be read.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/pingcap/tiflow/dm/dm/config"
)

type result struct {
	Sources      int `json:"sources"`
	Subtasks     int `json:"subtasks"`
	SubtaskBytes int `json:"subtaskBytes"`
}

func read(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "dm-task-check:", err)
		os.Exit(2)
	}
	return string(data)
}

func fail(what string, err error) {
	fmt.Fprintf(os.Stderr, "dm-task-check: %s: %v\n", what, err)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: dm-task-check <task file> <source file>...")
		os.Exit(2)
	}
	task := config.NewTaskConfig()
	if err := task.Decode(read(os.Args[1])); err != nil {
		fail(os.Args[1], err)
	}
	sources := map[string]config.DBConfig{}
	for _, path := range os.Args[2:] {
		source, err := config.ParseYamlAndVerify(read(path))
		if err != nil {
			fail(path, err)
		}
		sources[source.SourceID] = source.From
	}
	subtasks, err := config.TaskConfigToSubTaskConfigs(task, sources)
	if err != nil {
		fail("subtasks", err)
	}
	out := result{Sources: len(task.MySQLInstances), Subtasks: len(subtasks)}
	for _, subtask := range subtasks {
		if err := subtask.Adjust(false); err != nil {
			fail("subtask of "+subtask.SourceID, err)
		}
		text, err := subtask.Toml()
		if err != nil {
			fail("subtask of "+subtask.SourceID, err)
		}
		out.SubtaskBytes += len(text)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fail("writing the result", err)
	}
}
