package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"starlab/runs"
	"starlab/selfplay"
)

// TestSlurm submits the first Slurm example of docs/scaling-out.md (its own command line
// but for the games count, cut by slurmGames, and the directory) and a 4-shard
// collect to a Slurm cluster through deploy/slurm/submit.sh, waits for the
// merge jobs, and compares the merged runs with unsharded ones. It runs
// under make test-slurm (STARLAB_SLURM=1, after deploy/slurm/localcluster.sh
// start has started a one-node cluster); elsewhere it skips.
func TestSlurm(t *testing.T) {
	if os.Getenv("STARLAB_SLURM") != "1" {
		t.Skip("needs a Slurm cluster: make test-slurm")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Fatal("STARLAB_SLURM=1 but no sbatch on PATH")
	}
	// The shards run on the cluster's nodes, so under the job's own
	// binary; here that is a fresh build on this machine's storage.
	dir := t.TempDir()
	bin := buildStarlab(t, dir)
	submit, err := filepath.Abs("../../deploy/slurm/submit.sh")
	if err != nil {
		t.Fatal(err)
	}
	// N DIR COMMAND ARGS...; the later examples play outside engines,
	// which this machine need not have.
	example := slurmExamples(t)[0]
	shards := map[string]string{"match": example[0], "collect": "4", "rollout": "2"}
	jobs := map[string][]string{
		"match":   slurmGames(t, example[2:]),
		"collect": collectArgs[:len(collectArgs)-1], // without -json
		"rollout": {"rollout", "-trials", "72", "-player", "staretc:depth=3", "-seed", "4"},
	}
	var ids []string
	// A failed test leaves no job behind in the cluster.
	t.Cleanup(func() { exec.Command("scancel", ids...).Run() })
	for name, args := range jobs {
		cmd := exec.Command(submit, append([]string{shards[name], filepath.Join(dir, name)}, args...)...)
		cmd.Env = append(os.Environ(), "STARLAB="+bin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("submit.sh %s: %v\n%s", name, err, out)
		}
		ids = append(ids, strings.Fields(string(out))...)
	}
	// Run the unsharded stages here while the cluster works.
	for name, args := range jobs {
		if code, _, stderr := runCmd(t, append(args, "-out", filepath.Join(dir, name+"-whole"))...); code != 0 {
			t.Fatalf("unsharded %s: %s", name, stderr)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for {
		out, err := exec.CommandContext(ctx, "squeue", "-h", "-o", "%i %T", "-j", strings.Join(ids, ",")).Output()
		if err == nil && strings.TrimSpace(string(out)) == "" {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("jobs %v not finished after 10 minutes: %s", ids, out)
		}
		time.Sleep(time.Second)
	}
	for name := range jobs {
		merged := filepath.Join(dir, name, "merged")
		if r, err := runs.Open(merged); err != nil || r.Manifest().Status != runs.StatusDone {
			logs, _ := filepath.Glob(filepath.Join(dir, name, "logs", "*"))
			var text strings.Builder
			for _, l := range logs {
				b, _ := os.ReadFile(l)
				text.WriteString(l + ":\n" + string(b))
			}
			t.Fatalf("%s: merged run not done (%v)\n%s", name, err, text.String())
		}
		if _, err := os.Stat(filepath.Join(merged, "report.html")); err != nil {
			t.Errorf("%s: the merge job wrote no report: %v", name, err)
		}
	}
	sameMatch(t, filepath.Join(dir, "match", "merged"), filepath.Join(dir, "match-whole"))
	sameCollect(t, filepath.Join(dir, "collect", "merged"), filepath.Join(dir, "collect-whole"))
	sameRollout(t, filepath.Join(dir, "rollout", "merged"), filepath.Join(dir, "rollout-whole"))
}

// sameRollout fails unless the rollout runs a and b hold the same rows,
// bit for bit.
func sameRollout(t *testing.T, a, b string) {
	t.Helper()
	x, err := runs.ReadParquet[selfplay.RolloutRow](filepath.Join(a, selfplay.RolloutFile), selfplay.RolloutFormat)
	if err != nil {
		t.Fatal(err)
	}
	y, err := runs.ReadParquet[selfplay.RolloutRow](filepath.Join(b, selfplay.RolloutFile), selfplay.RolloutFormat)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(x, y) {
		t.Errorf("rollout: the merged shards' rows %+v, the unsharded run's %+v", x, y)
	}
}

// slurmGames returns the Slurm example's stage arguments with its -games
// count cut to 16, so that the test takes seconds.
func slurmGames(t *testing.T, args []string) []string {
	t.Helper()
	args = append([]string(nil), args...)
	for i, a := range args {
		if a == "-games" && i+1 < len(args) {
			args[i+1] = "16"
			return args
		}
	}
	t.Fatalf("%s: the Slurm example %q has no -games to cut", slurmPage, args)
	return nil
}

// buildStarlab builds the starlab binary into dir/starlab, as the image and
// the cluster's nodes have it, and returns its path.
func buildStarlab(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "starlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// slurmPage is the page whose Slurm examples TestSlurm submits and
// TestReadmeSlurmExamples checks, from the module root.
const slurmPage = "docs/scaling-out.md"

// slurmExamples returns the arguments of submit.sh in each of the Slurm
// examples of slurmPage, in the page's order: the lines of code blocks
// that run deploy/slurm/submit.sh, without their prompt and environment
// assignments.
func slurmExamples(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join("../..", slurmPage))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var found [][]string
	inBlock := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			inBlock = !inBlock
			continue
		}
		fields := strings.Fields(strings.TrimPrefix(line, "$ "))
		for len(fields) > 0 && strings.Contains(fields[0], "=") {
			fields = fields[1:] // STARLAB=...
		}
		if inBlock && len(fields) > 0 && fields[0] == "deploy/slurm/submit.sh" {
			if strings.ContainsAny(line, `"'\`) {
				t.Fatalf("%s: %q: quoting this test does not parse", slurmPage, line)
			}
			if len(fields) < 4 {
				t.Fatalf("%s: %q: not submit.sh N DIR COMMAND", slurmPage, line)
			}
			found = append(found, fields[1:])
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatalf("%s: no submit.sh N DIR COMMAND example in a code block", slurmPage)
	}
	return found
}

// TestReadmeSlurmExamples checks the form of every Slurm example of
// slurmPage, those that TestSlurm does not submit too: a shard count, a
// directory on shared storage, a stage that takes -shard, and (for
// TestSlurm's cut) a -games count.
func TestReadmeSlurmExamples(t *testing.T) {
	for _, ex := range slurmExamples(t) {
		if n, err := strconv.Atoi(ex[0]); err != nil || n < 1 {
			t.Errorf("%s: submit.sh %q: N %q, want a shard count of 1 or more", slurmPage, ex, ex[0])
		}
		if !filepath.IsAbs(ex[1]) {
			t.Errorf("%s: submit.sh %q: DIR %q, want an absolute path", slurmPage, ex, ex[1])
		}
		switch ex[2] {
		case "match", "analyze", "rollout", "collect", "bench", "tune":
		default:
			t.Errorf("%s: submit.sh %q: %s does not take -shard", slurmPage, ex, ex[2])
		}
		slurmGames(t, ex[2:])
	}
}
