// Package difffuzz checks that every compiled-in backend that runs on this
// CPU decides every input exactly as backend/scalar, the reference, does:
// the same accept or reject, the same error message and offset, and the same
// tape. FuzzDifferential drives it with mutated documents; the tests run it
// over the repository's test data.
package difffuzz
