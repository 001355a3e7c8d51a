package bench

// The portable parser, compiled on every GOARCH.
import _ "github.com/isojson/isojson/backend/scalar"
