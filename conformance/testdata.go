package conformance

import (
	"os"
	"path/filepath"
	"runtime"
)

// testdataDir is the repository's testdata directory, found from this source
// file so that Run works from any package's test.
func testdataDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "testdata"
	}
	return filepath.Join(filepath.Dir(file), "..", "testdata")
}

func readTestdata(parts ...string) ([]byte, error) {
	return os.ReadFile(filepath.Join(append([]string{testdataDir()}, parts...)...))
}
