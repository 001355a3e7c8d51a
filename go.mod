module github.com/isojson/isojson

go 1.26
