// Command render renders a Helm 3 chart the way `helm template` does, without helm: Go's
// text/template with sprig's function map and Helm's own functions (include, tpl, required,
// toYaml, fromYaml, toJson, fromJson, lookup). Built in GOPATH mode against Debian's packages
// (golang-go, golang-github-masterminds-sprig-dev, golang-gopkg-yaml.v3-dev), because this
// machine has no helm binary and reaches no Go module proxy for helm's own code.
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o render ./deploy/helm/render
//	render [-f values.yaml]... [--set a.b=c]... [--name RELEASE] [--namespace NS] CHART_DIR
//
// What is faithful and what is not is listed in deploy/helm/quarry/README.md.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"gopkg.in/yaml.v3"
)

// helm's releaseutil document separator.
var docSeparator = regexp.MustCompile(`(?:^|\s*\n)---\s*`)

// Helm's recursion bound for include (engine.go: recursionMaxNums).
const recursionMax = 1000

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// ChartMeta mirrors helm's chart.Metadata fields that templates read as .Chart.X.
type ChartMeta struct {
	Name        string   `yaml:"name"`
	Version     string   `yaml:"version"`
	AppVersion  string   `yaml:"appVersion"`
	Description string   `yaml:"description"`
	APIVersion  string   `yaml:"apiVersion"`
	Type        string   `yaml:"type"`
	KubeVersion string   `yaml:"kubeVersion"`
	Home        string   `yaml:"home"`
	Keywords    []string `yaml:"keywords"`
}

// Release is .Release of `helm template` (a first install, revision 1).
type Release struct {
	Name      string
	Namespace string
	Revision  int
	IsUpgrade bool
	IsInstall bool
	Service   string
}

// KubeVersion is .Capabilities.KubeVersion.
type KubeVersion struct {
	Version    string
	Major      string
	Minor      string
	GitVersion string
}

func (k KubeVersion) String() string { return k.Version }

// VersionSet is .Capabilities.APIVersions, with Has as in helm.
type VersionSet []string

func (v VersionSet) Has(apiVersion string) bool {
	for _, x := range v {
		if x == apiVersion {
			return true
		}
	}
	return false
}

// Capabilities is .Capabilities: helm template's defaults (no cluster is asked).
type Capabilities struct {
	KubeVersion KubeVersion
	APIVersions VersionSet
}

func main() {
	var valueFiles, sets multiFlag
	flag.Var(&valueFiles, "f", "values file merged over the chart's values.yaml (repeatable)")
	flag.Var(&sets, "set", "a.b.c=value override, applied after -f (repeatable)")
	name := flag.String("name", "release-name", "release name (.Release.Name)")
	namespace := flag.String("namespace", "default", "release namespace (.Release.Namespace)")
	kubeVersion := flag.String("kube-version", "v1.30.0", "Kubernetes version of .Capabilities")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: render [-f values.yaml]... [--set a.b=c]... [--name R] [--namespace NS] CHART_DIR")
		os.Exit(2)
	}
	out, err := render(flag.Arg(0), valueFiles, sets, *name, *namespace, *kubeVersion)
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	os.Stdout.WriteString(out)
}

// loadYAML reads YAML the way helm does (sigs.k8s.io/yaml: YAML → JSON → Go), so numbers are
// float64 and maps are map[string]interface{}, as templates see them under helm.
func loadYAML(data []byte) (map[string]interface{}, error) {
	var raw interface{}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return nil, err
	}
	if raw == nil {
		return map[string]interface{}{}, nil
	}
	js, err := json.Marshal(jsonable(raw))
	if err != nil {
		return nil, err
	}
	out := map[string]interface{}{}
	if err := json.Unmarshal(js, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// jsonable turns yaml.v3's map[interface{}]… (non-string keys) into JSON-encodable maps.
func jsonable(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, x := range t {
			t[k] = jsonable(x)
		}
		return t
	case map[interface{}]interface{}:
		m := map[string]interface{}{}
		for k, x := range t {
			m[fmt.Sprint(k)] = jsonable(x)
		}
		return m
	case []interface{}:
		for i, x := range t {
			t[i] = jsonable(x)
		}
		return t
	}
	return v
}

// coalesce merges src over dst as helm merges user values over chart values: maps merge
// key by key, anything else replaces, and a null deletes the key.
func coalesce(dst, src map[string]interface{}) map[string]interface{} {
	for k, v := range src {
		if v == nil {
			delete(dst, k)
			continue
		}
		sm, sok := v.(map[string]interface{})
		dm, dok := dst[k].(map[string]interface{})
		if sok && dok {
			dst[k] = coalesce(dm, sm)
		} else {
			dst[k] = v
		}
	}
	return dst
}

// parseSet applies one `--set a.b.c=value` (no list indexes, no escaped commas): the value is
// typed as helm's strvals types it (int64, bool, null, else string).
func parseSet(values map[string]interface{}, expr string) error {
	for _, part := range strings.Split(expr, ",") {
		eq := strings.Index(part, "=")
		if eq < 1 {
			return fmt.Errorf("--set %q: want key=value", part)
		}
		keys := strings.Split(part[:eq], ".")
		raw := part[eq+1:]
		var val interface{} = raw
		if n, err := strconv.ParseInt(raw, 10, 64); err == nil {
			val = n
		} else if raw == "true" || raw == "false" {
			val = raw == "true"
		} else if raw == "null" {
			val = nil
		}
		m := values
		for _, k := range keys[:len(keys)-1] {
			next, ok := m[k].(map[string]interface{})
			if !ok {
				next = map[string]interface{}{}
				m[k] = next
			}
			m = next
		}
		last := keys[len(keys)-1]
		if val == nil {
			delete(m, last)
		} else {
			m[last] = val
		}
	}
	return nil
}

func toYAML(v interface{}) string {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		// helm swallows the error too: the template sees an empty string.
		return ""
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

func fromYAML(s string) map[string]interface{} {
	m, err := loadYAML([]byte(s))
	if err != nil {
		return map[string]interface{}{"Error": err.Error()}
	}
	return m
}

func toJSON(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

func fromJSON(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

// funcMap is helm's engine funcMap: sprig's text functions without env/expandenv, plus
// helm's own; include and tpl are bound to the template set in render.
func funcMap() template.FuncMap {
	f := sprig.TxtFuncMap()
	delete(f, "env")
	delete(f, "expandenv")
	extra := template.FuncMap{
		"toYaml":   toYAML,
		"fromYaml": fromYAML,
		"toJson":   toJSON,
		"fromJson": fromJSON,
		"required": func(msg string, v interface{}) (interface{}, error) {
			if v == nil {
				return v, errors.New(msg)
			}
			if s, ok := v.(string); ok && s == "" {
				return v, errors.New(msg)
			}
			return v, nil
		},
		// helm template has no cluster: lookup answers an empty map, as helm does offline.
		"lookup": func(apiVersion, kind, namespace, name string) (map[string]interface{}, error) {
			return map[string]interface{}{}, nil
		},
		"include": func(string, interface{}) (string, error) { return "", errors.New("not bound") },
		"tpl":     func(string, interface{}) (string, error) { return "", errors.New("not bound") },
	}
	for k, v := range extra {
		f[k] = v
	}
	return f
}

func render(chartDir string, valueFiles, sets []string, releaseName, namespace, kubeVersion string) (string, error) {
	chartYAML, err := os.ReadFile(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return "", err
	}
	var meta ChartMeta
	if err := yaml.Unmarshal(chartYAML, &meta); err != nil {
		return "", fmt.Errorf("Chart.yaml: %w", err)
	}
	if meta.Name == "" || meta.Version == "" || meta.APIVersion != "v2" {
		return "", errors.New("Chart.yaml: name, version and apiVersion v2 are required")
	}

	values := map[string]interface{}{}
	if data, err := os.ReadFile(filepath.Join(chartDir, "values.yaml")); err == nil {
		if values, err = loadYAML(data); err != nil {
			return "", fmt.Errorf("values.yaml: %w", err)
		}
	}
	for _, file := range valueFiles {
		data, err := os.ReadFile(file)
		if err != nil {
			return "", err
		}
		over, err := loadYAML(data)
		if err != nil {
			return "", fmt.Errorf("%s: %w", file, err)
		}
		values = coalesce(values, over)
	}
	for _, s := range sets {
		if err := parseSet(values, s); err != nil {
			return "", err
		}
	}

	major, minor := "1", "30"
	if parts := strings.Split(strings.TrimPrefix(kubeVersion, "v"), "."); len(parts) >= 2 {
		major, minor = parts[0], parts[1]
	}
	top := map[string]interface{}{
		"Values":  values,
		"Chart":   meta,
		"Release": Release{Name: releaseName, Namespace: namespace, Revision: 1, IsInstall: true, Service: "Helm"},
		"Capabilities": Capabilities{
			KubeVersion: KubeVersion{Version: kubeVersion, Major: major, Minor: minor, GitVersion: kubeVersion},
			APIVersions: VersionSet{"v1", "apps/v1", "autoscaling/v2", "policy/v1", "networking.k8s.io/v1", "batch/v1"},
		},
	}

	// Every file under templates/ joins one template set named as helm names them
	// (<chart>/templates/<file>), so include sees every define of every file.
	tdir := filepath.Join(chartDir, "templates")
	var files []string
	err = filepath.Walk(tdir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !info.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)

	t := template.New("gotpl")
	// helm's non-strict mode: a missing key is the zero value, printed "<no value>" then removed.
	t.Option("missingkey=zero")
	includedNames := map[string]int{}
	funcs := funcMap()
	funcs["include"] = func(name string, data interface{}) (string, error) {
		if includedNames[name] > recursionMax {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		includedNames[name]++
		defer func() { includedNames[name]-- }()
		var buf strings.Builder
		if err := t.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		clone, err := t.Clone()
		if err != nil {
			return "", err
		}
		nt, err := clone.New("tpl").Parse(text)
		if err != nil {
			return "", fmt.Errorf("cannot parse template %q: %w", text, err)
		}
		var buf strings.Builder
		if err := nt.Execute(&buf, data); err != nil {
			return "", fmt.Errorf("error during tpl function execution for %q: %w", text, err)
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	t.Funcs(funcs)

	names := make([]string, 0, len(files))
	for _, p := range files {
		rel, _ := filepath.Rel(chartDir, p)
		name := path.Join(meta.Name, filepath.ToSlash(rel))
		data, err := os.ReadFile(p)
		if err != nil {
			return "", err
		}
		if _, err := t.New(name).Parse(string(data)); err != nil {
			return "", fmt.Errorf("parse error in %s: %w", name, err)
		}
		names = append(names, name)
	}

	var out strings.Builder
	for _, name := range names {
		base := path.Base(name)
		// Partials (_*.tpl) only define; NOTES.txt is not a manifest (helm template omits it).
		if strings.HasPrefix(base, "_") || base == "NOTES.txt" {
			continue
		}
		// Each file sees .Template, as in helm.
		scope := map[string]interface{}{}
		for k, v := range top {
			scope[k] = v
		}
		scope["Template"] = map[string]interface{}{"Name": name, "BasePath": path.Join(meta.Name, "templates")}
		var buf strings.Builder
		if err := t.ExecuteTemplate(&buf, name, scope); err != nil {
			return "", fmt.Errorf("%s: %w", name, err)
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		// One file may hold several documents: each is printed under its own Source line,
		// and empty ones are dropped, as helm's releaseutil.SplitManifests does.
		for _, doc := range docSeparator.Split(text, -1) {
			if strings.TrimSpace(doc) == "" {
				continue
			}
			fmt.Fprintf(&out, "---\n# Source: %s\n%s\n", name, strings.TrimSpace(doc))
		}
	}
	return out.String(), nil
}
