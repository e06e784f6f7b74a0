package report

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"image/png"
	"io/fs"
	"os"

	"starlab/runs"
)

// Image is an inline picture.
type Image struct {
	Title string
	Data  template.URL // data:image/png;base64,...
}

// Cell is a table cell: its text, and a title (shown on hover) that holds
// what the text shortens, such as a variant's full spec.
type Cell struct {
	Text  string
	Title string
	Href  string // a link, such as to a section of the page
	Left  bool   // text, aligned left (numbers are aligned right)
}

// Table is a table of cells.
type Table struct {
	Caption string
	Head    []string
	Rows    [][]Cell
	Open    bool // folded, shown open: the section's main table, however long
}

// foldRows is the number of rows above which a table is folded, shown on
// demand under its caption, so that a long curve does not push the rest of
// the page down.
const foldRows = 12

// Fold reports whether the table is folded.
func (t Table) Fold() bool { return len(t.Rows) > foldRows }

// add appends a row of plain cells.
func (t *Table) add(texts ...string) {
	row := make([]Cell, len(texts))
	for i, x := range texts {
		row[i] = Cell{Text: x}
	}
	t.Rows = append(t.Rows, row)
}

// Details is text behind a disclosure, shown on demand.
type Details struct {
	Summary string
	Text    string
}

// Section is one run directory's part of the page.
type Section struct {
	ID       string // the anchor: the directory's name
	Title    string
	Why      string // what the stage is for (a recipe match's why)
	Paper    string // the paper's result, beside ours
	Dir      string
	Manifest runs.Manifest
	Status   runs.Status // as shown: a pipeline writing this page is done
	Command  string      // the command line
	Settings string      // indented JSON
	Notes    []string
	Tables   []Table
	Text     string // preformatted
	WrapText bool   // Text is prose lines, wrapped at the page's width
	Images   []Image
	Details  []Details

	path  string // the directory, as found
	names *namer // short names of variant specs
	games Games  // the games by name, for what a game owns (the chapter's tables)
}

func inline(data []byte, title string) Image {
	return Image{Title: title, Data: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data))}
}

// image adds the PNG name of the run directory as an inline image; a
// missing file is no image, and one that does not decode whole (truncated,
// not a PNG) is refused by name rather than shown broken.
func (s *Section) image(run *runs.Run, name, title string) error {
	data, err := os.ReadFile(run.Path(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		return fmt.Errorf("%s: not a whole PNG image: %v", run.Path(name), err)
	}
	s.Images = append(s.Images, inline(data, title))
	return nil
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: 1em 0; font-size: .9em; }
caption { text-align: left; font-weight: 600; padding-bottom: .3em; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: right; }
th { background: #f4f4f4; }
pre { background: #f8f8f8; padding: .8em; overflow-x: auto; font-size: .85em; }
pre.wrap { white-space: pre-wrap; overflow-wrap: anywhere; }
figure { display: inline-block; margin: 1em 1em 1em 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .9em; color: #555; }
.meta { color: #555; font-size: .9em; }
.why { font-size: 1.05em; }
details.table summary { font-weight: 600; margin: 1em 0 .3em; }
td[title] { text-decoration: underline dotted #999; cursor: help; }
td.left { text-align: left; }
.scroll { overflow-x: auto; max-width: 100%; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="meta">Made {{.Made}} by starlab {{.Build}}.</p>
{{if gt (len .Sections) 1}}<nav><ol>{{range .Sections}}<li><a href="#{{.ID}}">{{.Title}}</a> <span class="meta">{{.Status}}</span></li>{{end}}</ol></nav>{{end}}
{{range .Sections}}
<section id="{{.ID}}">
<h2>{{.Title}}</h2>
{{if .Why}}<p class="why"><strong>Why:</strong> {{.Why}}</p>{{end}}
{{if .Paper}}<p class="why"><strong>The paper:</strong> {{.Paper}}</p>{{end}}
<p class="meta">{{.Dir}}: <code>{{.Command}}</code>; status {{.Status}}; started {{.Manifest.Start.Format "2006-01-02 15:04:05"}}{{if not .Manifest.End.IsZero}}, ended {{.Manifest.End.Format "2006-01-02 15:04:05"}}{{end}}; build {{.Manifest.Build}}, {{.Manifest.GoVersion}}.</p>
{{range .Notes}}<p>{{.}}</p>{{end}}
{{range .Tables}}
{{if .Fold}}<details class="table"{{if .Open}} open{{end}}><summary>{{.Caption}} ({{len .Rows}} rows)</summary>{{end}}
<div class="scroll"><table>
{{if not .Fold}}<caption>{{.Caption}}</caption>{{end}}
<tr>{{range .Head}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td{{if .Title}} title="{{.Title}}"{{end}}{{if .Left}} class="left"{{end}}>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>
{{end}}</table></div>
{{if .Fold}}</details>{{end}}
{{end}}
{{if .Text}}<pre{{if .WrapText}} class="wrap"{{end}}>{{.Text}}</pre>{{end}}
{{range .Images}}<figure><img src="{{.Data}}" alt="{{.Title}}"><figcaption>{{.Title}}</figcaption></figure>{{end}}
{{range .Details}}<details><summary>{{.Summary}}</summary><pre>{{.Text}}</pre></details>{{end}}
{{if .Settings}}<details><summary>Settings</summary><pre>{{.Settings}}</pre></details>{{end}}
</section>
{{end}}
</body>
</html>
`))
