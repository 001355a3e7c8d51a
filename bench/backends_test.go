package bench

// Every parser and writer, where its package's build constraints allow (see
// allbackends); with -tags isojson_nosimdjson, isojson_nosonic,
// isojson_nofastjson or isojson_noreference one registers nothing.
import _ "github.com/isojson/isojson/allbackends"
