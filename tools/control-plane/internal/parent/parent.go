// Package parent ties a test program's life to the test process that started it.
package parent

import (
	"bufio"
	"os"
)

// OnExit calls stop once standard input closes. The test holds the program's standard input open;
// it closes when the test process ends, however it ends, so the program stops with it instead of
// running on without a parent.
func OnExit(stop func()) {
	go func() {
		reader := bufio.NewReader(os.Stdin)
		for {
			if _, err := reader.ReadByte(); err != nil {
				stop()
				return
			}
		}
	}()
}
