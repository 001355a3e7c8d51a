package bench

// Compiled in where its package's build constraints allow (see its doc.go);
// elsewhere, or with -tags isojson_nosimdjson, the package registers nothing.
import _ "github.com/isojson/isojson/backend/simdjson"
